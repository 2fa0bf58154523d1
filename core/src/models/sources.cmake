list(APPEND FISURA_CORE_SOURCES
    src/models/model_meta.cpp
    src/models/zip_check.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/models/bn_relu.cpp
    src/models/fold.cpp
    src/models/networks.cpp
    src/models/model.cpp
    src/models/model_archive.cpp
    src/models/patch_gaussian.cpp
    src/models/unet_infer.cpp)
# Fused BatchNorm + ReLU for training and the U-Net inference kernels (FISURA_CUDA_KERNELS only,
# like the anomaly kernels).
list(APPEND FISURA_CORE_CUDA_SOURCES src/models/bn_relu_cuda.cu src/models/unet_infer_cuda.cu)
