# Shared by the check_*.cmake scripts (cmake -P): expect(COND MSG) fails the test with MSG when
# COND is false; run(ARGS...) runs a command, leaving its output in `out`, `err` and `rc`.
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()
macro(run)
    execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
endmacro()
