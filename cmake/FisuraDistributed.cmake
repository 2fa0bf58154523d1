# Data-parallel training needs LibTorch's c10d process groups: gloo for CPU ranks (Debian's
# LibTorch has it; its headers come with libgloo-dev) and NCCL for GPU ranks (CUDA LibTorch
# builds; nccl.h from the CUDA toolkit or the nvidia-nccl wheel next to Python torch). Each is
# used when this LibTorch was built with it (its targets carry USE_C10D_GLOO / USE_C10D_NCCL)
# and the headers are there: FISURA_HAVE_GLOO / FISURA_HAVE_NCCL. With neither, jobs run as one
# process, as before. (No test program: a CUDA LibTorch's imported targets name dependencies,
# protobuf among them, that a check's scratch project cannot resolve.)
# Included from core/src/dist/sources.cmake after FISURA_CORE_* lists are known.

set(FISURA_HAVE_GLOO OFF)
set(FISURA_HAVE_NCCL OFF)
set(FISURA_DIST_DEFINITIONS "")
set(FISURA_DIST_INCLUDES "")

set(_fisura_torch_defs "")
foreach(_t torch torch_cpu torch_cuda)
    if(TARGET ${_t})
        get_target_property(_d ${_t} INTERFACE_COMPILE_DEFINITIONS)
        if(_d)
            list(APPEND _fisura_torch_defs ${_d})
        endif()
    endif()
endforeach()
string(APPEND _fisura_torch_defs " ${TORCH_CXX_FLAGS}")

find_path(FISURA_C10D_INCLUDE torch/csrc/distributed/c10d/ProcessGroup.hpp
          HINTS ${TORCH_INCLUDE_DIRS} NO_DEFAULT_PATH)
find_path(GLOO_INCLUDE_DIR gloo/algorithm.h HINTS ${TORCH_INCLUDE_DIRS})
if(FISURA_C10D_INCLUDE AND GLOO_INCLUDE_DIR AND "${_fisura_torch_defs}" MATCHES "USE_C10D_GLOO"
   AND EXISTS "${FISURA_C10D_INCLUDE}/torch/csrc/distributed/c10d/ProcessGroupGloo.hpp")
    set(FISURA_HAVE_GLOO ON)
    list(APPEND FISURA_DIST_DEFINITIONS FISURA_HAVE_GLOO USE_C10D_GLOO)
    if(NOT GLOO_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
        list(APPEND FISURA_DIST_INCLUDES ${GLOO_INCLUDE_DIR}) # not /usr/include as -isystem
    endif()
endif()

if(FISURA_TORCH_CUDA)
    file(GLOB _fisura_nccl_hints "${TORCH_INSTALL_PREFIX}/../nvidia/*/include"
                                 "${TORCH_INSTALL_PREFIX}/../nvidia/*/*/include")
    find_path(NCCL_INCLUDE_DIR nccl.h
              HINTS ENV NCCL_INCLUDE_DIR ${_fisura_nccl_hints} /usr/local/cuda/include)
    if(FISURA_C10D_INCLUDE AND NCCL_INCLUDE_DIR AND "${_fisura_torch_defs}" MATCHES "USE_C10D_NCCL"
       AND EXISTS "${FISURA_C10D_INCLUDE}/torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp")
        set(FISURA_HAVE_NCCL ON)
        list(APPEND FISURA_DIST_DEFINITIONS FISURA_HAVE_NCCL USE_C10D_NCCL)
        if(NOT NCCL_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
            list(APPEND FISURA_DIST_INCLUDES ${NCCL_INCLUDE_DIR})
        endif()
    endif()
endif()
message(STATUS "Fisura data-parallel training: gloo ${FISURA_HAVE_GLOO}, NCCL ${FISURA_HAVE_NCCL}")
