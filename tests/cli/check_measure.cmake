# fisura-cli measure as a script uses it: exit codes, files, JSON on stdout, clear failures.
# -DCLI=<exe> -DWORK=<dir> -DCASE=measure|measure_bad
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 2 --classification 0
                        --patch 128 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
file(GLOB masks "${WORK}/demo/segmentation/masks/*.tif")
file(GLOB images "${WORK}/demo/segmentation/images/*.tif")
list(GET masks 0 mask)
list(GET images 0 image)

if(CASE STREQUAL "measure")
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --scan "${image}" --pixel-size 0.2
                            --csv "${WORK}/cracks.csv" --json "${WORK}/cracks.json" --lang es
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "measure exited ${rc}: ${err}")
    # --lang es: the summary in Spanish with decimal commas; the files stay C-locale (below).
    expect("out MATCHES \"fisuras, \"" "no Spanish summary: ${out}")
    expect("out MATCHES \"norma vigente\"" "no note on the class limits: ${out}")
    expect("out MATCHES \"tamaño de píxel 0,2000 mm\"" "pixel size not in Spanish: ${out}")
    expect("NOT out MATCHES \"[0-9][.][0-9]\"" "a decimal point in Spanish: ${out}")
    expect("NOT out MATCHES \"Usage:\"" "help printed after the summary: ${out}")
    # --lang en, and the language from the environment when --lang is not given.
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --pixel-size 0.2 --lang en --quiet
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
    expect("rc EQUAL 0 AND out MATCHES \"cracks, \"" "no English summary: ${out}")
    expect("out MATCHES \"pixel size 0.2000 mm\" AND out MATCHES \"standard in force\""
           "English summary: ${out}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL= LC_MESSAGES= LANG=es_ES.UTF-8
                            "${CLI}" measure --map "${mask}" --pixel-size 0.2 --quiet
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
    expect("rc EQUAL 0 AND out MATCHES \"fisuras, \"" "LANG=es_ES ignored: ${out}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C LANG=es_ES.UTF-8
                            "${CLI}" measure --map "${mask}" --pixel-size 0.2 --quiet
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
    expect("rc EQUAL 0 AND out MATCHES \"cracks, \"" "LC_ALL=C must win over LANG: ${out}")
    foreach(f cracks.csv cracks.branches.csv cracks.scan.csv cracks.json)
        expect("EXISTS \"${WORK}/${f}\"" "no ${f}")
    endforeach()
    file(READ "${WORK}/cracks.json" json)
    string(JSON n GET "${json}" totals cracks)
    string(JSON ncr LENGTH "${json}" cracks)
    expect("n GREATER 0 AND n EQUAL ncr" "totals.cracks = ${n}, cracks listed = ${ncr}")
    string(JSON px GET "${json}" pixel_size_mm)
    expect("px EQUAL 0.2" "pixel_size_mm = ${px}")
    expect("json MATCHES \"pixel_size_mm.: *0[.]2\"" "JSON not C-locale: ${json}")
    file(STRINGS "${WORK}/cracks.csv" rows)
    list(LENGTH rows nrows)
    math(EXPR expected "${n} + 1")
    expect("nrows EQUAL expected" "CSV has ${nrows} lines for ${n} cracks")
    # JSON on stdout, nothing else there.
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --json - --threshold 0.784
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "measure --json - exited ${rc}")
    string(JSON src GET "${out}" pixel_size_source)
    expect("src STREQUAL \"none\" OR src STREQUAL \"map\"" "pixel_size_source = ${src}")
    # The threshold is a crack probability; the map byte it stands for is reported beside it.
    string(JSON thr GET "${out}" options threshold)
    string(JSON byte GET "${out}" options threshold_map_byte)
    expect("thr EQUAL 0.784 AND byte EQUAL 200" "threshold ${thr}, map byte ${byte}")
    # The old map-byte form is refused with the probability that means the same.
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --threshold 200
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0 AND err MATCHES \"--threshold 200 is a map byte; use --threshold 0.784\""
           "byte threshold: ${rc} ${err}")
elseif(CASE STREQUAL "measure_bad")
    file(WRITE "${WORK}/junk.tif" "this is not a tiff file at all, not even close")
    execute_process(COMMAND "${CLI}" measure --map "${WORK}/junk.tif" --csv "${WORK}/j.csv"
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "junk map: exit code ${rc}")
    expect("err MATCHES \"corrupt: .*junk.tif\"" "unclear message: ${err}")
    expect("NOT EXISTS \"${WORK}/j.csv\"" "CSV written for a bad input")
    execute_process(COMMAND "${CLI}" measure --map "${WORK}/missing.tif"
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1 AND err MATCHES \"not_found\"" "missing map: ${rc} ${err}")
    # A scan of another size than the map.
    execute_process(COMMAND "${CLI}" demo-data "${WORK}/big" --segmentation 1 --classification 0
                            --patch 256 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
    file(GLOB big "${WORK}/big/segmentation/images/*.tif")
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --scan "${big}"
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1 AND err MATCHES \"invalid_argument: the map is 128 x 128 px but its scan is 256 x 256\""
           "size mismatch: ${rc} ${err}")
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --threshold 0
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "threshold 0 accepted")
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --lang fr
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "--lang fr accepted")
else()
    message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
