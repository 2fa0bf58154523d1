# Data-parallel training needs LibTorch's c10d process groups: gloo for CPU ranks (Debian's
# LibTorch has it; its headers come with libgloo-dev) and NCCL for GPU ranks (CUDA LibTorch
# builds; nccl.h from the CUDA toolkit or the nvidia-nccl wheel next to Python torch). Each is
# used only when a small program with its header compiles and links against this LibTorch:
#   FISURA_HAVE_GLOO / FISURA_HAVE_NCCL. With neither, jobs run as one process, as before.
# Included from core/src/dist/sources.cmake after FISURA_CORE_* lists are known.
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)

set(FISURA_HAVE_GLOO OFF)
set(FISURA_HAVE_NCCL OFF)
set(FISURA_DIST_DEFINITIONS "")
set(FISURA_DIST_INCLUDES "")

cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_LIBRARIES ${TORCH_LIBRARIES})
set(CMAKE_REQUIRED_DEFINITIONS -DUSE_C10D_GLOO)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles([[
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
int main() {
    auto o = c10d::ProcessGroupGloo::Options::create();
    o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    return o->devices.empty() ? 1 : 0;
}]] FISURA_GLOO_COMPILES)
cmake_pop_check_state()
if(FISURA_GLOO_COMPILES)
    set(FISURA_HAVE_GLOO ON)
    list(APPEND FISURA_DIST_DEFINITIONS FISURA_HAVE_GLOO USE_C10D_GLOO)
endif()

if(FISURA_TORCH_CUDA)
    file(GLOB _fisura_nccl_hints "${TORCH_INSTALL_PREFIX}/../nvidia/*/include"
                                 "${TORCH_INSTALL_PREFIX}/../nvidia/*/*/include")
    find_path(NCCL_INCLUDE_DIR nccl.h
              HINTS ENV NCCL_INCLUDE_DIR ${_fisura_nccl_hints} /usr/local/cuda/include)
    cmake_push_check_state(RESET)
    set(CMAKE_REQUIRED_LIBRARIES ${TORCH_LIBRARIES})
    set(CMAKE_REQUIRED_DEFINITIONS -DUSE_C10D_NCCL)
    if(NCCL_INCLUDE_DIR)
        set(CMAKE_REQUIRED_INCLUDES ${NCCL_INCLUDE_DIR})
    endif()
    set(CMAKE_REQUIRED_QUIET ON)
    check_cxx_source_compiles([[
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
int main() {
    auto o = c10d::ProcessGroupNCCL::Options::create();
    return o ? 0 : 1;
}]] FISURA_NCCL_COMPILES)
    cmake_pop_check_state()
    if(FISURA_NCCL_COMPILES)
        set(FISURA_HAVE_NCCL ON)
        list(APPEND FISURA_DIST_DEFINITIONS FISURA_HAVE_NCCL USE_C10D_NCCL)
        if(NCCL_INCLUDE_DIR)
            list(APPEND FISURA_DIST_INCLUDES ${NCCL_INCLUDE_DIR})
        endif()
    endif()
endif()
message(STATUS "Fisura data-parallel training: gloo ${FISURA_HAVE_GLOO}, NCCL ${FISURA_HAVE_NCCL}")
