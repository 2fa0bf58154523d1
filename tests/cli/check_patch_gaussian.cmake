# fisura-cli train --task anomaly --model patch-gaussian, then infer with the fitted model on a
# scan larger than a tile; the model choice is refused for other tasks.
# -DCLI=<exe> -DWORK=<dir>
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 0 --classification 10
                        --patch 64 --scan 256 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
execute_process(COMMAND "${CLI}" train --task anomaly --model patch-gaussian
                        --data "${WORK}/demo/classification/uncracked" --out "${WORK}/pg.fisura"
                        --size 64 --feature-dim 16 --width 8 --batch 4 --cpu
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 0" "train exited ${rc}: ${err}")
expect("err MATCHES \"patch_memory: statistics need\"" "no memory line: ${err}")
expect("err MATCHES \"epoch 1/1 batch\"" "no progress lines: ${err}")
string(JSON thr GET "${out}" best anomaly_threshold)
expect("thr GREATER 0" "best.anomaly_threshold = ${thr}")
expect("EXISTS \"${WORK}/pg.fisura\"" "no model file")
execute_process(COMMAND "${CLI}" infer --model "${WORK}/pg.fisura"
                        --in "${WORK}/demo/scan/demo_scan.tif" --out "${WORK}/scan.score.tif"
                        --cpu --json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 0" "infer exited ${rc}: ${err}")
string(JSON map GET "${out}" map)
expect("map STREQUAL \"score\"" "map = ${map}")
string(JSON tiles GET "${out}" tiles)
expect("tiles GREATER 4" "tiles = ${tiles}")
expect("EXISTS \"${WORK}/scan.score.tif\"" "no map written")
execute_process(COMMAND "${CLI}" train --task segment --model patch-gaussian
                        --data "${WORK}/demo" --out "${WORK}/bad.fisura" --cpu
                ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("NOT rc EQUAL 0" "--model patch-gaussian accepted for segmentation")
expect("err MATCHES \"anomaly\"" "unclear message: ${err}")
expect("NOT EXISTS \"${WORK}/bad.fisura\"" "a model file appeared")
