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
