list(APPEND FISURA_CORE_SOURCES
    src/infer/blend.cpp
    src/infer/infer_json.cpp
    src/infer/manifest.cpp
    src/infer/manifest_json.cpp
    src/infer/manifest_merge.cpp
    src/infer/manifest_shard.cpp
    src/infer/scan_source.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/infer/device_stage.cpp
    src/infer/infer.cpp
    src/infer/infer_setup.cpp
    src/infer/map_writer.cpp
    src/infer/network_graph.cpp
    src/infer/pipeline_queues.cpp
    src/infer/tile_reader.cpp)
