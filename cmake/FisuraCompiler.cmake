# Compiler launcher, warnings and sanitizers shared by every Fisura target.

option(FISURA_CCACHE "Compile through ccache when it is installed" ON)
find_program(FISURA_CCACHE_PROGRAM ccache)
if(FISURA_CCACHE AND FISURA_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    # Precompiled headers are cacheable only with this sloppiness; paths are made relative to the
    # source tree so another clone of the project (CI) hits the same cache entries.
    set(CMAKE_CXX_COMPILER_LAUNCHER
        env "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
            "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1 "${FISURA_CCACHE_PROGRAM}")
endif()

add_library(fisura_options INTERFACE)
target_compile_options(fisura_options INTERFACE
    $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wno-unused-parameter>)
target_compile_definitions(fisura_options INTERFACE QT_NO_KEYWORDS QT_NO_CAST_FROM_ASCII)
if(FISURA_SANITIZE AND FISURA_TSAN)
    message(FATAL_ERROR "FISURA_SANITIZE (ASan + UBSan) and FISURA_TSAN cannot be combined")
endif()
if(FISURA_SANITIZE)
    # Undefined behaviour stops the program (and so fails the test) instead of only printing.
    target_compile_options(fisura_options INTERFACE -fsanitize=address,undefined
                           -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    target_link_options(fisura_options INTERFACE -fsanitize=address,undefined)
endif()
if(FISURA_TSAN)
    # ThreadSanitizer for the threaded parts of core (tests/sanitize/run.sh lists the tests).
    target_compile_options(fisura_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(fisura_options INTERFACE -fsanitize=thread)
endif()

# FISURA_UNITY_BUILD: a target's sources compiled in batches of up to `size` files of one folder
# (CMake's unity build, GROUP mode), so the headers and templates they share are parsed,
# instantiated and optimised once per batch instead of once per file. For one-shot builds (the
# quick start, CI); day-to-day work keeps it off, where a change recompiles one file, not its batch.
option(FISURA_UNITY_BUILD "Compile in batches of files of one folder (faster cold builds)" OFF)
function(fisura_unity_batches target size)
    if(NOT FISURA_UNITY_BUILD)
        return()
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
    foreach(src ${ARGN})
        if(NOT src MATCHES "[.]cpp$")
            continue()
        endif()
        get_filename_component(area "${src}" DIRECTORY)
        get_filename_component(area "${area}" NAME)
        if(NOT DEFINED count_${area})
            set(count_${area} 0)
        endif()
        math(EXPR batch "${count_${area}} / ${size}")
        math(EXPR count_${area} "${count_${area}} + 1")
        set_source_files_properties(${src} TARGET_DIRECTORY ${target}
                                    PROPERTIES UNITY_GROUP "${target}_${area}_${batch}")
    endforeach()
endfunction()
