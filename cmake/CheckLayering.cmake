# Layering check (run by ctest): fails when
#  - anything under core/ includes Qt,
#  - a facade header (core/include/fisura) includes torch, ATen, c10, OpenCV, libtiff, GDAL/OGR or the
#    testing hooks,
#  - widgets/ or app/ include torch, OpenCV, libtiff, GDAL/OGR or core internals (a header of any folder
#    of core/src, found at check time),
#  - widgets/ or app/ include the testing hooks (fisura/testing.h: tests and benchmarks only),
#  - app/cli includes Qt (the CLI links core only).
# Usage: cmake -DROOT=<source tree> -P CheckLayering.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
    message(FATAL_ERROR "ROOT not set")
endif()

# Files allowed to include fisura/testing.h outside tests, each with its reason:
#  app/cli/cmd_infer.cpp: `infer --cpu-devices N` (the processor acts as N devices), so that the
#  quick suite checks the CLI's multi-device path (tests/cli/check_infer_gpus.cmake) without GPUs.
set(testing_exceptions app/cli/cmd_infer.cpp)

set(violations "")
function(scan dir glob regex what)
    file(GLOB_RECURSE files "${ROOT}/${dir}/${glob}")
    foreach(f IN LISTS files)
        file(RELATIVE_PATH rel "${ROOT}" "${f}")
        if(rel IN_LIST ARGN)
            continue()
        endif()
        file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include")
        foreach(line IN LISTS lines)
            # A pane folder of the widgets library may share a name with a core area
            # ("data/datapane.h", "train/trainpane.h"): a file that exists there is no internal.
            if(line MATCHES "\"([^\"]+)\"")
                # (a separate if: arguments are expanded before the MATCHES sets CMAKE_MATCH_1)
                if(EXISTS "${ROOT}/widgets/src/${CMAKE_MATCH_1}")
                    continue()
                endif()
            endif()
            if(line MATCHES "${regex}")
                string(APPEND violations "\n  ${rel}: ${what}: ${line}")
            endif()
        endforeach()
    endforeach()
    set(violations "${violations}" PARENT_SCOPE)
endfunction()

# Core's internal areas are its source folders, whatever they are today.
file(GLOB areas LIST_DIRECTORIES true RELATIVE "${ROOT}/core/src" "${ROOT}/core/src/*")
set(area_names "")
foreach(a IN LISTS areas)
    if(IS_DIRECTORY "${ROOT}/core/src/${a}")
        list(APPEND area_names "${a}")
    endif()
endforeach()

set(qt "[<\"](Q[A-Z][A-Za-z]*|Qt[A-Za-z]*/[A-Za-z]*|qcustomplot\\.h)[>\"]")
set(thirdparty "[<\"](torch/|ATen/|c10/|opencv2/|tiffio|tiff\\.h|cuda_runtime|gdal|ogr_|ogrsf_|cpl_)")
set(hooks "[<\"]fisura/testing\\.h[>\"]")

foreach(ext h hpp cpp)
    scan(core "*.${ext}" "${qt}" "core includes Qt")
    scan(core/include "*.${ext}" "${thirdparty}" "facade header includes a third-party engine type")
    scan(core/include "*.${ext}" "${hooks}" "facade header includes the testing hooks")
    foreach(d widgets app)
        scan(${d} "*.${ext}" "${thirdparty}" "only the core facade may be used here")
        if(area_names)
            list(JOIN area_names "|" alternatives)
            scan(${d} "*.${ext}" "[\"<](${alternatives})/[A-Za-z0-9_]+\\.h"
                 "core internals used outside core")
        endif()
        scan(${d} "*.${ext}" "${hooks}" "testing hooks are for tests and benchmarks"
             ${testing_exceptions})
    endforeach()
    scan(app/cli "*.${ext}" "${qt}" "the CLI links core only")
endforeach()

if(violations)
    message(FATAL_ERROR "Layering violations:${violations}")
endif()
list(JOIN area_names ", " shown)
message(STATUS "Layering OK in ${ROOT} (core areas: ${shown})")
