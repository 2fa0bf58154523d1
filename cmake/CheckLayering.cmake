# Layering check (run by ctest): fails when
#  - anything under core/ includes Qt,
#  - a facade header (core/include/fisura) includes torch, ATen, c10, OpenCV or libtiff,
#  - widgets/ or app/ include torch, OpenCV, libtiff or core internals (core/src areas),
#  - app/cli includes Qt (the CLI links core only).
# Usage: cmake -DROOT=<source tree> -P CheckLayering.cmake
if(NOT ROOT)
    message(FATAL_ERROR "ROOT not set")
endif()

set(violations "")
function(scan dir glob regex what)
    file(GLOB_RECURSE files "${ROOT}/${dir}/${glob}")
    foreach(f IN LISTS files)
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
                file(RELATIVE_PATH rel "${ROOT}" "${f}")
                string(APPEND violations "\n  ${rel}: ${what}: ${line}")
            endif()
        endforeach()
    endforeach()
    set(violations "${violations}" PARENT_SCOPE)
endfunction()

set(qt "[<\"](Q[A-Z][A-Za-z]*|Qt[A-Za-z]*/[A-Za-z]*|qcustomplot\\.h)[>\"]")
set(thirdparty "[<\"](torch/|ATen/|c10/|opencv2/|tiffio|tiff\\.h|cuda_runtime)")
set(internals "[\"<](device|io|synth|util|compat|data|models|train|infer|analysis|anomaly)/[A-Za-z_]+\\.h")

foreach(ext h hpp cpp)
    scan(core "*.${ext}" "${qt}" "core includes Qt")
    scan(core/include "*.${ext}" "${thirdparty}" "facade header includes a third-party engine type")
    foreach(d widgets app)
        scan(${d} "*.${ext}" "${thirdparty}" "only the core facade may be used here")
        scan(${d} "*.${ext}" "${internals}" "core internals used outside core")
    endforeach()
    scan(app/cli "*.${ext}" "${qt}" "the CLI links core only")
endforeach()

if(violations)
    message(FATAL_ERROR "Layering violations:${violations}")
endif()
message(STATUS "Layering OK in ${ROOT}")
