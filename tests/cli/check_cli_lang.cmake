# The language of fisura-cli's text output: `--lang es` before or after the command's name, or
# LANG=es_*, gives decimal commas in what a person reads (score's table, info's memory), while
# --json stays C-locale; an unknown language is a usage error.
# -DCLI=<exe> -DWORK=<dir>
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 2 --classification 0
                        --patch 128 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
file(GLOB masks "${WORK}/demo/segmentation/masks/*.tif")
list(GET masks 0 mask)
set(SCORE score --map "${mask}" --truth "${mask}" --quiet)

# Spanish before the command, after it, and from the environment.
foreach(how before after env)
    if(how STREQUAL "before")
        set(cmd "${CLI}" --lang es ${SCORE})
    elseif(how STREQUAL "after")
        set(cmd "${CLI}" ${SCORE} --lang es)
    else()
        set(cmd ${CMAKE_COMMAND} -E env LC_ALL= LC_MESSAGES= LANG=es_ES.UTF-8 "${CLI}" ${SCORE})
    endif()
    execute_process(COMMAND ${cmd} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "score (${how}) exited ${rc}: ${err}")
    expect("out MATCHES \"F1: +1,0000\"" "no decimal comma (${how}): ${out}")
    expect("out MATCHES \"Threshold: +0,500\"" "threshold not in Spanish (${how}): ${out}")
    expect("NOT out MATCHES \"[0-9][.][0-9]\"" "a decimal point in Spanish (${how}): ${out}")
endforeach()

# English: the decimal point, also when the environment says Spanish.
execute_process(COMMAND ${CMAKE_COMMAND} -E env LANG=es_ES.UTF-8 "${CLI}" ${SCORE} --lang en
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
expect("rc EQUAL 0 AND out MATCHES \"F1: +1[.]0000\"" "--lang en must win over LANG: ${out}")

# JSON stays machine-readable whatever the language.
execute_process(COMMAND "${CLI}" --lang es ${SCORE} --json OUTPUT_VARIABLE out RESULT_VARIABLE rc)
expect("rc EQUAL 0" "score --json exited ${rc}")
string(JSON f1 GET "${out}" f1)
expect("f1 MATCHES \"^1([.]0+)?$\"" "JSON f1 is ${f1}: ${out}")
expect("NOT out MATCHES \"[0-9],[0-9]\"" "a decimal comma in JSON: ${out}")

# info's memory in GiB: one decimal, a comma in Spanish.
execute_process(COMMAND "${CLI}" info --lang es OUTPUT_VARIABLE out RESULT_VARIABLE rc)
expect("rc EQUAL 0 AND out MATCHES \"[0-9],[0-9] GiB\"" "info in Spanish: ${out}")

execute_process(COMMAND "${CLI}" --lang fr info OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
expect("rc EQUAL 2 AND err MATCHES \"--lang\"" "--lang fr: exit ${rc}: ${err}")
