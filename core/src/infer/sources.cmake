list(APPEND FISURA_CORE_SOURCES
    src/infer/blend.cpp
    src/infer/map_names.cpp
    src/infer/infer_plan.cpp
    src/infer/pace_forecast.cpp
    src/infer/scan_queue.cpp
    src/infer/scan_source.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/infer/device_stage.cpp
    src/infer/infer.cpp
    src/infer/infer_setup.cpp
    src/infer/map_writer.cpp
    src/infer/multi_device.cpp
    src/infer/network_graph.cpp
    src/infer/pipeline_queues.cpp
    src/infer/row_assembler.cpp
    src/infer/tile_reader.cpp)
# The device stage's blending kernels (FISURA_CUDA_KERNELS only).
list(APPEND FISURA_CORE_CUDA_SOURCES src/infer/blend_cuda.cu)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/infer/infer_json.cpp
    src/infer/manifest_json.cpp
    src/infer/manifest_merge.cpp
    src/infer/manifest.cpp
    src/infer/manifest_shard.cpp)
