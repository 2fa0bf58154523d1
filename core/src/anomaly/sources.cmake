# Per-position Gaussian statistics of patches and features (PACO / PaDiM), torch throughout.
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/anomaly/patch_stats.cpp
    src/anomaly/patch_stats_accum.cpp)
# Fisura's CUDA kernels for the same statistics: compiled only where CMake found a CUDA compiler
# for a CUDA LibTorch (FISURA_CUDA_KERNELS, cmake/FisuraDependencies.cmake).
list(APPEND FISURA_CORE_CUDA_SOURCES src/anomaly/patch_stats_cuda.cu)
