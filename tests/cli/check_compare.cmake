# fisura-cli compare as a script uses it: a scan compared with itself (every crack unchanged,
# the aligned map on the earlier grid, no correction field, JSON, CSV and GeoJSON in the C
# locale, a Spanish summary, an unknown --field value and vector format refused first), and two
# unrelated scenes refused with align_not_same_surface or align_degenerate_model (exit 1, JSON error on stdout).
# -DCLI=<exe> -DWORK=<dir>
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" synth-data "${WORK}/synth" --count 2 --size 1024 --seed 5
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
expect("rc EQUAL 0" "synth-data exited ${rc}: ${err}")
set(img0 "${WORK}/synth/images/synth_000000.tif")
set(img1 "${WORK}/synth/images/synth_000001.tif")
set(map0 "${WORK}/synth/masks/synth_000000.tif")
set(map1 "${WORK}/synth/masks/synth_000001.tif")

execute_process(COMMAND "${CLI}" compare --before "${img0}" --before-map "${map0}" --after "${img0}"
                        --after-map "${map0}" --pixel-size 0.2 --json "${WORK}/change.json"
                        --csv "${WORK}/change.csv" --aligned-map "${WORK}/aligned.tif"
                        --vector "${WORK}/change.geojson" --lang es --quiet
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 0" "compare exited ${rc}: ${err}")
expect("out MATCHES \"sin cambios\" AND out MATCHES \"Alineación: modelo similarity\""
       "no Spanish summary: ${out}")
expect("NOT out MATCHES \"residuo [0-9]+[.]\"" "a decimal point in Spanish: ${out}")
foreach(f change.json change.csv aligned.tif change.geojson)
    expect("EXISTS \"${WORK}/${f}\"" "no ${f}")
endforeach()
file(READ "${WORK}/change.json" json)
string(JSON model GET "${json}" alignment model)
expect("model STREQUAL \"similarity\"" "model ${model}")
string(JSON rms GET "${json}" alignment rms_px)
expect("rms LESS 0.5" "a scan against itself has residual ${rms} px")
# A scan against itself is planar: no correction field.
string(JSON field_used GET "${json}" alignment correction_field used)
expect("NOT field_used" "a scan against itself got a correction field")
expect("NOT out MATCHES \"campo de corrección\"" "a field in the summary: ${out}")
string(JSON unchanged GET "${json}" totals unchanged count)
string(JSON changed GET "${json}" totals new count)
string(JSON grown GET "${json}" totals grown count)
string(JSON gone GET "${json}" totals gone count)
expect("unchanged GREATER 0 AND changed EQUAL 0 AND grown EQUAL 0 AND gone EQUAL 0"
       "against itself: ${unchanged} unchanged, ${changed} new, ${grown} grown, ${gone} gone")
expect("json MATCHES \"pixel_size_mm.: *0[.]2\"" "JSON not C-locale")
file(STRINGS "${WORK}/change.csv" rows)
list(LENGTH rows nrows)
math(EXPR expected "${unchanged} + 1")
expect("nrows EQUAL expected" "CSV has ${nrows} lines for ${unchanged} cracks")

# The changes for GIS: one feature per crack, each "unchanged", in mm (0.2 mm pixels: y up).
file(READ "${WORK}/change.geojson" geo)
string(JSON nfeatures LENGTH "${geo}" features)
expect("nfeatures EQUAL unchanged" "${nfeatures} features for ${unchanged} cracks")
string(JSON kind GET "${geo}" features 0 properties change)
string(JSON y GET "${geo}" features 0 geometry coordinates 0 0 1)
expect("kind MATCHES \"^unchanged$\" AND y LESS 0" "first feature: ${kind}, y ${y}")
# An unknown correction field setting: refused by the flag (exit 2).
execute_process(COMMAND "${CLI}" compare --before "${img0}" --before-map "${map0}" --after "${img0}"
                        --after-map "${map0}" --field on --quiet
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
expect("rc EQUAL 2 AND err MATCHES \"--field\"" "--field on: ${rc} ${err}")
# An unknown vector format: refused before any work, nothing written.
execute_process(COMMAND "${CLI}" compare --before "${img0}" --before-map "${map0}" --after "${img0}"
                        --after-map "${map0}" --vector "${WORK}/change.kml" --quiet
                        --aligned-map "${WORK}/kml_aligned.tif"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
expect("NOT rc EQUAL 0 AND err MATCHES \"unknown vector format\"" "kml: ${rc} ${err}")
expect("NOT EXISTS \"${WORK}/kml_aligned.tif\" AND NOT EXISTS \"${WORK}/change.kml\""
       "work done before refusing the format")

# Unrelated scenes: exit 1, a JSON error with the alignment's own code and a hint on stderr;
# no aligned map left.
execute_process(COMMAND "${CLI}" compare --before "${img0}" --before-map "${map0}" --after "${img1}"
                        --after-map "${map1}" --json - --aligned-map "${WORK}/bad.tif"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 1" "unrelated scenes: exit ${rc}: ${out} ${err}")
string(JSON code GET "${out}" error)
string(JSON detail GET "${out}" detail)
# (Random matches between unrelated scenes fit no model, or only an implausible one.)
expect("code MATCHES \"^align_(not_same_surface|degenerate_model|too_few_windows)$\" AND detail MATCHES \"[0-9]\""
       "error ${code}: ${out}")
expect("err MATCHES \"fisura-cli: the (scans do not seem to show the same surface|alignment has an implausible|scans match roughly)\""
       "no hint for ${code}: ${err}")
expect("NOT EXISTS \"${WORK}/bad.tif\"" "an aligned map was left after a failure")

# An output that is an input: refused before any work (exit 2).
execute_process(COMMAND "${CLI}" compare --before "${img0}" --before-map "${map0}" --after "${img0}"
                        --after-map "${map0}" --csv "${map0}" --quiet
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
expect("rc EQUAL 2" "writing over the map: exit ${rc}")
