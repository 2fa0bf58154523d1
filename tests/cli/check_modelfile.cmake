# Model files from elsewhere: a TorchScript module is refused without --allow-torchscript (the
# message names the flag and says the module runs code from the file) and runs with it; a model
# over --max-model-size is refused with the limit and how to raise it.
# -DCLI=<exe> -DWORK=<dir> -DFIXTURE=<tests/data/identity_unet.pt> -DCASE=torchscript|too_large
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
file(COPY "${FIXTURE}" "${FIXTURE}.json" DESTINATION "${WORK}")
set(model "${WORK}/identity_unet.pt")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 2 --classification 0
                        --patch 64 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
set(images "${WORK}/demo/segmentation/images")
file(GLOB scans "${images}/*.tif")
list(GET scans 0 scan)

if(CASE STREQUAL "torchscript")
    # Every command that loads a model refuses it, names the flag and says why.
    foreach(cmd infer propose rank evaluate)
        if(cmd STREQUAL "infer")
            set(args infer --model "${model}" --in "${scan}" --out "${WORK}/map.tif" --cpu)
        elseif(cmd STREQUAL "propose")
            set(args propose --model "${model}" --in "${images}" --out "${WORK}/proposals" --cpu)
        elseif(cmd STREQUAL "rank")
            file(REMOVE_RECURSE "${WORK}/demo/segmentation/masks")
            set(args rank --model "${model}" --data "${WORK}/demo/segmentation" --cpu)
        else()
            set(args evaluate --model "${model}" --data "${WORK}/demo/segmentation"
                     --split "${WORK}/none.json" --cpu)
        endif()
        execute_process(COMMAND "${CLI}" ${args} OUTPUT_QUIET ERROR_VARIABLE err
                        RESULT_VARIABLE rc)
        expect("rc EQUAL 1" "${cmd} with a TorchScript module and no consent exited ${rc}: ${err}")
        expect("err MATCHES \"needs_consent\"" "${cmd}: no needs_consent in: ${err}")
        expect("err MATCHES \"--allow-torchscript\"" "${cmd}: the flag is not named: ${err}")
        expect("err MATCHES \"runs code\"" "${cmd}: does not say it runs code: ${err}")
    endforeach()
    expect("NOT EXISTS \"${WORK}/map.tif\"" "a map was written without consent")
    file(GLOB left "${WORK}/proposals/*")
    expect("NOT left" "proposals written without consent: ${left}")
    # With the flag it runs.
    execute_process(COMMAND "${CLI}" infer --model "${model}" --in "${scan}"
                            --out "${WORK}/map.tif" --cpu --quiet --allow-torchscript
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "infer --allow-torchscript exited ${rc}: ${err}")
    expect("EXISTS \"${WORK}/map.tif\"" "no map with --allow-torchscript")
    execute_process(COMMAND "${CLI}" propose --model "${model}" --in "${images}"
                            --out "${WORK}/proposals" --cpu --quiet --allow-torchscript
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "propose --allow-torchscript exited ${rc}: ${err}")
elseif(CASE STREQUAL "too_large")
    execute_process(COMMAND "${CLI}" infer --model "${model}" --in "${scan}"
                            --out "${WORK}/map.tif" --cpu --allow-torchscript
                            --max-model-size 1KiB
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "infer over --max-model-size exited ${rc}: ${err}")
    expect("err MATCHES \"too_large\"" "no too_large in: ${err}")
    expect("err MATCHES \"identity_unet.pt\"" "the file is not named: ${err}")
    expect("err MATCHES \"1024 bytes\"" "the limit is not given: ${err}")
    expect("err MATCHES \"--max-model-size\"" "how to raise the limit is not said: ${err}")
    expect("NOT EXISTS \"${WORK}/map.tif\"" "a map was written")
    execute_process(COMMAND "${CLI}" infer --model "${model}" --in "${scan}"
                            --out "${WORK}/map.tif" --cpu --quiet --allow-torchscript
                            --max-model-size 1MiB
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "infer under --max-model-size exited ${rc}: ${err}")
else()
    message(FATAL_ERROR "unknown case ${CASE}")
endif()
