# fisura-cli score as scripts use it, on the files `fisura-cli demo-data` writes.
# -DCLI=<exe> -DWORK=<dir> -DCASE=demo|size_mismatch
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 1 --classification 0
                        --patch 64 --scan 256 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
set(mask "${WORK}/demo/scan/demo_scan_mask.tif")
expect("EXISTS \"${mask}\"" "demo-data wrote no scan mask")

if(CASE STREQUAL "demo")
    # The mask scored against itself: everything found, nothing extra.
    execute_process(COMMAND "${CLI}" score --map "${mask}" --truth "${mask}" --json
                            --layers "${WORK}/cmp/demo"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "score exited ${rc}: ${err}")
    foreach(key precision recall f1 iou)
        string(JSON v GET "${out}" ${key})
        expect("v EQUAL 1" "${key} = ${v}")
    endforeach()
    string(JSON fp GET "${out}" false_positives)
    string(JSON fn GET "${out}" false_negatives)
    string(JSON tp GET "${out}" true_positives)
    string(JSON truth GET "${out}" truth_pixels)
    string(JSON thr GET "${out}" threshold)
    string(JSON tol GET "${out}" tolerance)
    expect("fp EQUAL 0 AND fn EQUAL 0 AND tp EQUAL truth AND tp GREATER 0"
           "tp ${tp}, fp ${fp}, fn ${fn}, truth ${truth}")
    expect("thr EQUAL 128 AND tol EQUAL 2" "threshold ${thr}, tolerance ${tol}")
    foreach(kind tp fp fn)
        expect("EXISTS \"${WORK}/cmp/demo.${kind}.tif\"" "no ${kind} layer")
    endforeach()
    # Text output, another threshold and tolerance.
    execute_process(COMMAND "${CLI}" score --map "${mask}" --truth "${mask}" --threshold 0.9
                            --tolerance 0 --quiet
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "score (text) exited ${rc}: ${err}")
    expect("out MATCHES \"Precision: +1\\\\.0000\"" "no precision line: ${out}")
    expect("out MATCHES \"Recall: +1\\\\.0000\"" "no recall line: ${out}")
    expect("out MATCHES \"\\\\(230/255\\\\)\"" "threshold 0.9 is not 230/255: ${out}")
    expect("out MATCHES \"Tolerance: +0 px\"" "tolerance not shown: ${out}")
    # A threshold outside 0..1 is refused.
    execute_process(COMMAND "${CLI}" score --map "${mask}" --truth "${mask}" --threshold 128
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "threshold 128 accepted")
    expect("err MATCHES \"--threshold 128 is a map byte; use --threshold 0.5 \""
           "no equivalent probability: ${err}")
    execute_process(COMMAND "${CLI}" score --map "${mask}" --truth "${mask}" --threshold 1.5
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0 AND err MATCHES \"crack probability from 0 to 1\""
           "threshold 1.5: ${rc} ${err}")
elseif(CASE STREQUAL "size_mismatch")
    file(GLOB small "${WORK}/demo/segmentation/masks/*.tif")
    list(GET small 0 small)
    execute_process(COMMAND "${CLI}" score --map "${mask}" --truth "${small}"
                            --layers "${WORK}/cmp/bad"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "score of different sizes exited ${rc}")
    expect("err MATCHES \"sizes differ: map .*demo_scan_mask.tif is 256 x 256 px, truth .* is 64 x 64 px\""
           "unclear message: ${err}")
    file(GLOB left "${WORK}/cmp/*")
    expect("NOT left" "files left: ${left}")
else()
    message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
