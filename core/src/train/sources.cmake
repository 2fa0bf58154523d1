list(APPEND FISURA_CORE_TORCH_SOURCES
    src/train/metrics.cpp
    src/train/trainer.cpp
    src/train/train_json.cpp)
