# fisura-cli project new | add-dataset | show: the File-menu commands for scripts. A second
# `new` in the same folder and a missing project are refused with a clear message.
# -DCLI=<exe> -DWORK=<dir>
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 4 --classification 0
                        --patch 64 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
execute_process(COMMAND "${CLI}" project new "${WORK}/proj" --name "Bridge deck"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("rc EQUAL 0" "project new exited ${rc}: ${err}")
foreach(sub models runs maps)
    expect("IS_DIRECTORY \"${WORK}/proj/${sub}\"" "no ${sub}/ folder")
endforeach()
execute_process(COMMAND "${CLI}" project new "${WORK}/proj" RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err)
expect("NOT rc EQUAL 0" "a second project in the same folder was accepted")
expect("err MATCHES \"cannot create a project\"" "unclear refusal: ${err}")

execute_process(COMMAND "${CLI}" project add-dataset "${WORK}/proj" --data "${WORK}/demo/segmentation"
                        --task segment RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("rc EQUAL 0" "add-dataset exited ${rc}: ${err}")
expect("out MATCHES \"4 items, 0 problems\"" "add-dataset said: ${out}")

execute_process(COMMAND "${CLI}" project show "${WORK}/proj" --json RESULT_VARIABLE rc
                OUTPUT_VARIABLE pj)
expect("rc EQUAL 0" "show exited ${rc}")
string(JSON name GET "${pj}" name)
expect("name STREQUAL \"Bridge deck\"" "name = ${name}")
string(JSON task GET "${pj}" datasets 0 task)
expect("task STREQUAL \"segment\"" "task = ${task}")
string(JSON items GET "${pj}" datasets 0 summary items)
expect("items EQUAL 4" "summary items = ${items}")

execute_process(COMMAND "${CLI}" project show "${WORK}/nothing" RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err)
expect("NOT rc EQUAL 0" "a missing project was shown")
expect("err MATCHES \"cannot open the project\"" "unclear refusal: ${err}")
