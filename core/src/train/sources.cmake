list(APPEND FISURA_CORE_TORCH_SOURCES
    src/train/metrics.cpp
    src/train/trainer.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/train/evaluate.cpp
    src/train/evaluate_gallery.h
    src/train/footprint.cpp)
