# fisura-cli train --project: the run is recorded in project.json (state, model, history), a
# missing project is refused clearly, and --out stays required without --project.
# -DCLI=<exe> -DWORK=<dir> -DCASE=project|project_failed|project_missing|out_required
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
if(CASE STREQUAL "project")
    execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 6 --classification 0
                            --patch 64 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
    expect("rc EQUAL 0" "demo-data exited ${rc}")
    # The smallest project a user (or another tool) could write by hand.
    file(WRITE "${WORK}/proj/project.json" "{\"format\": \"fisura-project\", \"schema\": 1}")
    execute_process(COMMAND "${CLI}" train --task segment --data "${WORK}/demo/segmentation"
                            --project "${WORK}/proj" --dataset-name "Demo walls" --epochs 2
                            --batch 4 --size 32 --depth 2 --width 4 --precision fp32 --cpu
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "train exited ${rc}: ${err}")
    string(JSON run GET "${out}" run)
    file(READ "${WORK}/proj/project.json" pj)
    string(JSON nRuns LENGTH "${pj}" runs)
    expect("nRuns EQUAL 1" "${nRuns} runs recorded")
    string(JSON id GET "${pj}" runs 0 id)
    expect("id STREQUAL run" "run id ${id} in the project, ${run} printed")
    string(JSON state GET "${pj}" runs 0 state)
    expect("state STREQUAL \"finished\"" "state = ${state}")
    string(JSON model GET "${pj}" runs 0 model)
    expect("model STREQUAL \"models/${run}.fisura\"" "model = ${model}")
    expect("EXISTS \"${WORK}/proj/${model}\"" "no model file at ${model}")
    string(JSON ckpt GET "${pj}" runs 0 checkpoint)
    expect("EXISTS \"${WORK}/proj/${ckpt}\"" "no checkpoint at ${ckpt}")
    expect("EXISTS \"${WORK}/proj/runs/${run}/split.json\"" "no split in the run folder")
    string(JSON nEpochs LENGTH "${pj}" runs 0 history)
    expect("nEpochs EQUAL 2" "${nEpochs} epochs in the history")
    string(JSON last GET "${pj}" runs 0 history 1 epoch)
    expect("last EQUAL 1" "last epoch = ${last}")
    string(JSON ended GET "${pj}" runs 0 ended_at)
    expect("NOT ended STREQUAL \"\"" "no end time")
    string(JSON dsName GET "${pj}" datasets 0 name)
    expect("dsName STREQUAL \"Demo walls\"" "dataset name = ${dsName}")
    string(JSON dsId GET "${pj}" datasets 0 id)
    string(JSON runDs GET "${pj}" runs 0 dataset_id)
    expect("dsId STREQUAL runDs" "run dataset ${runDs}, dataset ${dsId}")
    # A second run on the same data reuses the dataset record.
    execute_process(COMMAND "${CLI}" train --task segment --data "${WORK}/demo/segmentation"
                            --project "${WORK}/proj/project.json" --epochs 1 --batch 4 --size 32
                            --depth 2 --width 4 --cpu --quiet --out "${WORK}/own.fisura"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "second train exited ${rc}: ${err}")
    expect("EXISTS \"${WORK}/own.fisura\"" "--out did not win over the project's path")
    file(READ "${WORK}/proj/project.json" pj)
    string(JSON nRuns LENGTH "${pj}" runs)
    string(JSON nSets LENGTH "${pj}" datasets)
    expect("nRuns EQUAL 2 AND nSets EQUAL 1" "${nRuns} runs, ${nSets} datasets")
    string(JSON model GET "${pj}" runs 1 model)
    expect("model STREQUAL \"${WORK}/own.fisura\"" "second model = ${model}")
elseif(CASE STREQUAL "project_failed")
    file(WRITE "${WORK}/proj/project.json" "{\"format\": \"fisura-project\", \"schema\": 1}")
    execute_process(COMMAND "${CLI}" train --task classify --data "${WORK}/none"
                            --project "${WORK}/proj"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "train on a missing folder exited ${rc}")
    file(READ "${WORK}/proj/project.json" pj)
    string(JSON state GET "${pj}" runs 0 state)
    expect("state STREQUAL \"failed\"" "state = ${state}")
    string(JSON code GET "${pj}" runs 0 error_code)
    expect("code STREQUAL \"not_found\"" "error_code = ${code}")
    string(JSON ended GET "${pj}" runs 0 ended_at)
    expect("NOT ended STREQUAL \"\"" "no end time")
elseif(CASE STREQUAL "project_missing")
    execute_process(COMMAND "${CLI}" train --data "${WORK}/data" --project "${WORK}/nothing"
                    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 1" "train into a missing project exited ${rc}")
    expect("err MATCHES \"cannot open the project\"" "unclear message: ${err}")
    string(JSON code GET "${out}" error)
    expect("code STREQUAL \"not_found\"" "error = ${code}")
    expect("NOT EXISTS \"${WORK}/nothing\"" "a project folder appeared")
elseif(CASE STREQUAL "out_required")
    execute_process(COMMAND "${CLI}" train --data "${WORK}/data"
                    ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("NOT rc EQUAL 0" "train without --out or --project accepted")
    expect("err MATCHES \"--out\"" "unclear message: ${err}")
else()
    message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
