# Compiler launcher, warnings and sanitizers shared by every Fisura target.

find_program(FISURA_CCACHE ccache)
if(FISURA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER "${FISURA_CCACHE}")
    set(CMAKE_CUDA_COMPILER_LAUNCHER "${FISURA_CCACHE}")
    # Precompiled headers are only cacheable with these sloppiness settings.
    set(ENV{CCACHE_SLOPPINESS} "pch_defines,time_macros,include_file_mtime,include_file_ctime")
endif()

add_library(fisura_options INTERFACE)
target_compile_options(fisura_options INTERFACE
    $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wno-unused-parameter>)
target_compile_definitions(fisura_options INTERFACE QT_NO_KEYWORDS QT_NO_CAST_FROM_ASCII)
if(FISURA_SANITIZE)
    target_compile_options(fisura_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(fisura_options INTERFACE -fsanitize=address,undefined)
endif()
