list(APPEND FISURA_CORE_SOURCES
    src/models/zip_check.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/models/bn_relu.cpp
    src/models/fold.cpp
    src/models/networks.cpp
    src/models/model.cpp
    src/models/model_archive.cpp
    src/models/patch_gaussian.cpp
    src/models/provenance_edit.cpp
    src/models/unet_infer.cpp
    src/models/unet_train.cpp)
# Fused BatchNorm + ReLU and the U-Net's pooling and loss for training, and the U-Net inference
# kernels (FISURA_CUDA_KERNELS only, like the anomaly kernels).
list(APPEND FISURA_CORE_CUDA_SOURCES src/models/bn_relu_cuda.cu src/models/unet_infer_cuda.cu
     src/models/unet_train_cuda.cu)
# Where a build that has not been installed finds the starter model (fisura/starter.h); set on
# this one file so that moving the source tree rebuilds nothing else.
set_source_files_properties(src/models/starter.cpp PROPERTIES
    COMPILE_DEFINITIONS "FISURA_SOURCE_MODELS_DIR=\"${PROJECT_SOURCE_DIR}/resources/models\"")
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/models/model_meta.cpp
    src/models/starter.cpp)
