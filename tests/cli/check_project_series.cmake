# fisura-cli project date / series: two analysed scans of one structure dated out of order, the
# timeline oldest first (JSON and CSV), `project show` naming structure and date, a date that is
# none refused and an unknown structure failing with not_found.
# -DCLI=<fisura-cli> -DWORK=<dir>
include("${CMAKE_CURRENT_LIST_DIR}/check_common.cmake")

file(REMOVE_RECURSE "${WORK}")
run("${CLI}" synth-data "${WORK}/synth" --count 2 --size 512 --seed 3)
expect("rc EQUAL 0" "synth-data exited ${rc}: ${err}")
run("${CLI}" project new "${WORK}/p")
expect("rc EQUAL 0" "project new exited ${rc}: ${err}")
# Two analysed scans, as Analyze records them (the maps are the masks).
file(READ "${WORK}/p/project.json" project)
foreach(k 0 1)
    set(s "{\"id\": \"scan-${k}\", \"input\": \"${WORK}/synth/images/synth_00000${k}.tif\",
            \"map\": \"${WORK}/synth/masks/synth_00000${k}.tif\", \"model\": \"\"}")
    string(JSON project SET "${project}" scans ${k} "${s}")
endforeach()
file(WRITE "${WORK}/p/project.json" "${project}")

run("${CLI}" project date "${WORK}/p" --scan scan-0 --structure "Bridge 12" --date 2026-05-10)
expect("rc EQUAL 0" "project date exited ${rc}: ${err}")
run("${CLI}" project date "${WORK}/p" --scan scan-1 --structure "Bridge 12" --date 2025-05-04)
expect("rc EQUAL 0" "project date exited ${rc}: ${err}")
run("${CLI}" project show "${WORK}/p")
expect("out MATCHES \"scan-0 .*Bridge 12, 2026-05-10\"" "show: ${out}")

run("${CLI}" project series "${WORK}/p" --structure "Bridge 12" --json - --pixel-size 0.2)
expect("rc EQUAL 0" "project series exited ${rc}: ${err}")
string(JSON n LENGTH "${out}" points)
string(JSON first GET "${out}" points 0 inspected_on)
string(JSON firstId GET "${out}" points 0 scan_id)
string(JSON length GET "${out}" points 1 length_mm)
expect("n EQUAL 2 AND first MATCHES \"^2025-05-04$\" AND firstId MATCHES \"^scan-1$\""
       "timeline not oldest first: ${out}")
expect("length GREATER 0" "no length in mm: ${out}")
run("${CLI}" project series "${WORK}/p" --structure "Bridge 12" --csv "${WORK}/t.csv" --quiet)
expect("rc EQUAL 0" "series --csv exited ${rc}: ${err}")
file(STRINGS "${WORK}/t.csv" rows)
list(LENGTH rows nrows)
expect("nrows EQUAL 3" "CSV has ${nrows} lines")

# Refused: a date that is none (before the project is touched), an unknown structure.
run("${CLI}" project date "${WORK}/p" --scan scan-0 --date 2025-02-30)
expect("rc EQUAL 2 AND err MATCHES \"YYYY-MM-DD\"" "bad date: ${rc} ${err}")
run("${CLI}" project series "${WORK}/p" --structure "Bridge 99" --json -)
expect("rc EQUAL 1" "unknown structure exited ${rc}")
string(JSON code GET "${out}" error)
expect("code MATCHES \"^not_found$\"" "unknown structure: ${out}")
