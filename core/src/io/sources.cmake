list(APPEND FISURA_CORE_SOURCES
    src/io/tiff_handle.cpp
    src/io/image_io.cpp)
