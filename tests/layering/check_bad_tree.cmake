# The layering check must be able to fail, by every rule: run it on tests/layering/bad (a tree
# that breaks each rule once) and require a failure that names each violation.
# Usage: cmake -DCHECK=<CheckLayering.cmake> -DBAD=<bad tree> -P check_bad_tree.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${BAD} -P "${CHECK}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
set(report "${out}${err}")
if(rc EQUAL 0)
    message(FATAL_ERROR "the check passed a tree that breaks every rule:\n${report}")
endif()
set(expected
    "core/src/qt_in_core.cpp: core includes Qt"
    "core/include/fisura/leaky.h: facade header includes a third-party engine type"
    "core/include/fisura/leaky.h: facade header includes the testing hooks"
    "widgets/internals.cpp: only the core facade may be used here: #include <opencv2/core.hpp>"
    "widgets/internals.cpp: core internals used outside core: #include \"io/tiff_handle.h\""
    "widgets/internals.cpp: core internals used outside core: #include \"project/project_paths.h\""
    "widgets/internals.cpp: core internals used outside core: #include \"labels/label_store.h\""
    "widgets/internals.cpp: core internals used outside core: #include <dist/communicator.h>"
    "widgets/internals.cpp: core internals used outside core: #include \"unlisted/unlisted.h\""
    "widgets/testing_hooks.cpp: testing hooks are for tests and benchmarks"
    "app/gui/testing_hooks.cpp: testing hooks are for tests and benchmarks"
    "app/cli/testing_hooks.cpp: testing hooks are for tests and benchmarks"
    "app/cli/qt_in_cli.cpp: the CLI links core only")
set(missing "")
foreach(e IN LISTS expected)
    string(FIND "${report}" "${e}" at)
    if(at EQUAL -1)
        string(APPEND missing "\n  ${e}")
    endif()
endforeach()
if(missing)
    message(FATAL_ERROR "violations the check did not report:${missing}\nits report:\n${report}")
endif()
message(STATUS "every rule reported")
