list(APPEND FISURA_CORE_TORCH_SOURCES
    src/infer/infer.cpp)
