list(APPEND FISURA_CORE_SOURCES
    src/data/dataset.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/data/loader.cpp)
