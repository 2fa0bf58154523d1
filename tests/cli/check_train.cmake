# fisura-cli train as a script uses it: JSON summary on stdout, model file, clear failures.
# and fisura-cli infer with the model it trained.
# -DCLI=<exe> -DWORK=<dir> -DCASE=segment|bad_data|bad_batch|infer_bad
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
if(CASE STREQUAL "segment")
    execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 6 --classification 0
                            --patch 64 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
    expect("rc EQUAL 0" "demo-data exited ${rc}")
    execute_process(COMMAND "${CLI}" train --task segment --data "${WORK}/demo/segmentation"
                            --out "${WORK}/m.fisura" --epochs 2 --batch 4 --size 32 --depth 2
                            --width 4 --precision fp32 --cpu
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "train exited ${rc}: ${err}")
    expect("err MATCHES \"epoch 2/2 batch\"" "no progress lines: ${err}")
    string(JSON epochs GET "${out}" epochs_run)
    expect("epochs EQUAL 2" "epochs_run = ${epochs}")
    string(JSON f1 GET "${out}" best f1_at_best)
    expect("f1 GREATER_EQUAL 0" "best.f1_at_best = ${f1}")
    expect("EXISTS \"${WORK}/m.fisura\"" "no model file")
    expect("EXISTS \"${WORK}/m.fisura.ckpt\"" "no checkpoint")
    # Resume from the checkpoint for one more epoch.
    execute_process(COMMAND "${CLI}" train --task segment --data "${WORK}/demo/segmentation"
                            --out "${WORK}/m.fisura" --epochs 3 --size 32 --depth 2 --width 4 --cpu
                            --resume "${WORK}/m.fisura.ckpt" --quiet
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "resume exited ${rc}: ${err}")
    string(JSON epochs GET "${out}" epochs_run)
    expect("epochs EQUAL 3" "epochs_run after resume = ${epochs}")
    # Tiled inference with that model: one scan, then a folder of scans.
    file(GLOB images "${WORK}/demo/segmentation/images/*.tif")
    list(LENGTH images nImages)
    list(GET images 0 first)
    execute_process(COMMAND "${CLI}" infer --model "${WORK}/m.fisura" --in "${first}"
                            --out "${WORK}/one.tif" --tile 32 --overlap 8 --cpu --json
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "infer exited ${rc}: ${err}")
    string(JSON map GET "${out}" map)
    expect("map STREQUAL \"probability\"" "map = ${map}")
    string(JSON tiles GET "${out}" tiles)
    expect("tiles GREATER 1" "tiles = ${tiles}")
    expect("EXISTS \"${WORK}/one.tif\"" "no map written")
    string(JSON written GET "${out}" writer bytes_in)
    expect("written GREATER 0" "the writer's statistics are missing: ${out}")
    # A chosen compression level: zstd 19 is written; Deflate has levels 1-9 only.
    execute_process(COMMAND "${CLI}" infer --model "${WORK}/m.fisura" --in "${first}"
                            --out "${WORK}/z19.tif" --tile 32 --overlap 8 --cpu --level 19 --quiet
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "infer --level 19 exited ${rc}: ${err}")
    expect("EXISTS \"${WORK}/z19.tif\"" "no map written with --level 19")
    execute_process(COMMAND "${CLI}" infer --model "${WORK}/m.fisura" --in "${first}"
                            --out "${WORK}/d12.tif" --tile 32 --overlap 8 --cpu --quiet
                            --compression deflate --level 12
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "deflate level 12 accepted")
    expect("err MATCHES \"level must be 1-9\"" "unclear message: ${err}")
    expect("NOT EXISTS \"${WORK}/d12.tif\"" "a map appeared with a refused level")
    execute_process(COMMAND "${CLI}" infer --model "${WORK}/m.fisura"
                            --in "${WORK}/demo/segmentation/images" --out "${WORK}/maps"
                            --tile 32 --cpu
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "infer over a folder exited ${rc}: ${err}")
    expect("err MATCHES \"MP/s\"" "no progress lines: ${err}")
    file(GLOB maps "${WORK}/maps/*.probability.tif")
    list(LENGTH maps nMaps)
    expect("nMaps EQUAL nImages" "${nMaps} maps for ${nImages} images")
elseif(CASE STREQUAL "bad_data")
    execute_process(COMMAND "${CLI}" train --task classify --data "${WORK}/none" --out "${WORK}/m.fisura"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "train on a missing folder exited ${rc}")
    string(JSON code GET "${out}" error)
    expect("code STREQUAL \"not_found\"" "error = ${code}")
    expect("NOT EXISTS \"${WORK}/m.fisura\"" "a model file appeared")
elseif(CASE STREQUAL "bad_batch")
    execute_process(COMMAND "${CLI}" train --data "${WORK}" --out "${WORK}/m.fisura" --batch many
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "--batch many accepted")
    expect("err MATCHES \"--batch: must be auto or 0..4096 images\"" "unclear message: ${err}")
elseif(CASE STREQUAL "infer_bad")
    file(MAKE_DIRECTORY "${WORK}")
    file(WRITE "${WORK}/junk.fisura" "not a model")
    file(WRITE "${WORK}/scan.tif" "not a scan")
    execute_process(COMMAND "${CLI}" infer --model "${WORK}/junk.fisura" --in "${WORK}/scan.tif"
                            --out "${WORK}/map.tif"
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "infer with a broken model exited ${rc}")
    expect("err MATCHES \"cannot load the model\"" "unclear message: ${err}")
    expect("NOT EXISTS \"${WORK}/map.tif\"" "a map appeared")
    execute_process(COMMAND "${CLI}" infer --model "${WORK}/junk.fisura" --in "${WORK}/scan.tif"
                            --out "${WORK}/map.tif" --batch lots
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "--batch lots accepted")
    expect("err MATCHES \"--batch: must be auto or 0..4096 tiles\"" "unclear message: ${err}")
else()
    message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
