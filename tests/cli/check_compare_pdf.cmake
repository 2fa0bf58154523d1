# fisura-cli compare --pdf: the report of the changes written by `fisura` in its headless mode,
# in Spanish with the earlier date given, read back as text (pdftotext, when present); a date
# that is not one refused before any work.
# -DCLI=<fisura-cli> -DGUI=<fisura> -DWORK=<dir> [-DPDFTOTEXT=<pdftotext>]
include("${CMAKE_CURRENT_LIST_DIR}/check_common.cmake")

file(REMOVE_RECURSE "${WORK}")
run("${CLI}" synth-data "${WORK}/synth" --count 1 --size 768 --seed 5)
expect("rc EQUAL 0" "synth-data exited ${rc}: ${err}")
set(img "${WORK}/synth/images/synth_000000.tif")
set(map "${WORK}/synth/masks/synth_000000.tif")
expect("EXISTS \"${GUI}\"" "no fisura executable at ${GUI}")

set(pdf "${WORK}/changes-es.pdf")
run("${CLI}" compare --before "${img}" --before-map "${map}" --after "${img}" --after-map "${map}"
    --pixel-size 0.2 --pdf "${pdf}" --lang es --before-date 2025-05-04 --quiet)
expect("rc EQUAL 0" "compare --pdf exited ${rc}: ${err}")
expect("EXISTS \"${pdf}\"" "no ${pdf}")
file(READ "${pdf}" head LIMIT 5 HEX)
expect("head MATCHES \"^255044462d$\"" "${pdf} does not start with %PDF-: ${head}")
if(PDFTOTEXT)
    run("${PDFTOTEXT}" "${pdf}" -)
    string(REGEX REPLACE "[ \n]+" " " out "${out}") # lines as the page breaks them
    expect("out MATCHES \"Cambios desde el [a-z]+, 4 de mayo de 2025\"" "title: ${out}")
    expect("out MATCHES \"Sin cambios\" AND out MATCHES \"Alineación\"" "not Spanish: ${out}")
    expect("out MATCHES \"0,2 mm\"" "pixel size not in Spanish: ${out}")
endif()

# Not a date: refused before comparing, no PDF.
run("${CLI}" compare --before "${img}" --before-map "${map}" --after "${img}" --after-map "${map}"
    --pdf "${WORK}/bad.pdf" --before-date 2025-13-40 --quiet)
expect("NOT rc EQUAL 0 AND err MATCHES \"YYYY-MM-DD\"" "bad date: ${rc} ${err}")
expect("NOT EXISTS \"${WORK}/bad.pdf\"" "a PDF for a bad date")
