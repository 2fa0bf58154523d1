# fisura-cli propose and rank as scripts use them: proposal masks per image, failures listed,
# unlabelled images of a dataset ranked by uncertainty (JSON).
# -DCLI=<exe> -DWORK=<dir> -DCASE=propose_rank|propose_bad
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
if(CASE STREQUAL "propose_rank")
    execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 5 --classification 0
                            --patch 64 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
    expect("rc EQUAL 0" "demo-data exited ${rc}")
    execute_process(COMMAND "${CLI}" train --task segment --data "${WORK}/demo/segmentation"
                            --out "${WORK}/m.fisura" --epochs 1 --batch 2 --size 32 --depth 2
                            --width 4 --cpu --quiet
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "train exited ${rc}: ${err}")
    # A dataset where two of five images are labelled, plus a file that is not an image.
    file(GLOB images "${WORK}/demo/segmentation/images/*")
    file(COPY ${images} DESTINATION "${WORK}/ds/images")
    file(GLOB masks "${WORK}/demo/segmentation/masks/*")
    list(GET masks 0 m0)
    list(GET masks 1 m1)
    file(COPY ${m0} ${m1} DESTINATION "${WORK}/ds/masks")
    file(WRITE "${WORK}/ds/images/zz_broken.tif" "not a tiff")

    execute_process(COMMAND "${CLI}" propose --model "${WORK}/m.fisura" --in "${WORK}/ds/images"
                            --out "${WORK}/ds/proposals" --tile 32 --cpu --json
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "propose with one broken image exited ${rc}: ${err}")
    string(JSON nWritten LENGTH "${out}" written)
    expect("nWritten EQUAL 5" "written ${nWritten}: ${out}")
    string(JSON nFailed LENGTH "${out}" failures)
    expect("nFailed EQUAL 1" "failures ${nFailed}: ${out}")
    string(JSON failed GET "${out}" failures 0 image)
    expect("failed MATCHES \"zz_broken\"" "failed image ${failed}")
    file(GLOB proposals "${WORK}/ds/proposals/*.tif")
    list(LENGTH proposals nProposals)
    expect("nProposals EQUAL 5" "${nProposals} proposal files")

    file(REMOVE "${WORK}/ds/images/zz_broken.tif")
    execute_process(COMMAND "${CLI}" rank --model "${WORK}/m.fisura" --data "${WORK}/ds" --cpu
                            --json
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "rank exited ${rc}: ${err}")
    string(JSON nRanked LENGTH "${out}" ranked)
    expect("nRanked EQUAL 3" "ranked ${nRanked}: ${out}")
    string(JSON labelled GET "${out}" labelled)
    expect("labelled EQUAL 2" "labelled ${labelled}")
    string(JSON u0 GET "${out}" ranked 0 uncertainty)
    string(JSON u2 GET "${out}" ranked 2 uncertainty)
    expect("u0 GREATER_EQUAL u2" "not most uncertain first: ${out}")
    string(JSON state GET "${out}" ranked 0 state)
    expect("state STREQUAL \"proposed\"" "state ${state}")

    # One file in, text out.
    list(GET images 0 first)
    execute_process(COMMAND "${CLI}" propose --model "${WORK}/m.fisura" --in "${first}"
                            --out "${WORK}/one" --tile 32 --cpu
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "propose one file exited ${rc}: ${err}")
    expect("out MATCHES \"1 proposals\"" "summary: ${out}")
elseif(CASE STREQUAL "propose_bad")
    file(WRITE "${WORK}/junk.fisura" "not a model")
    file(WRITE "${WORK}/in/a.tif" "x")
    execute_process(COMMAND "${CLI}" propose --model "${WORK}/junk.fisura" --in "${WORK}/in"
                            --out "${WORK}/out" --cpu
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "propose with a broken model exited ${rc}")
    expect("err MATCHES \"propose\"" "unclear message: ${err}")
    file(GLOB left "${WORK}/out/*")
    expect("NOT left" "files left: ${left}")
    execute_process(COMMAND "${CLI}" rank --model "${WORK}/junk.fisura" --data "${WORK}/none"
                    OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "rank on a missing dataset exited 0")
else()
    message(FATAL_ERROR "unknown case ${CASE}")
endif()
