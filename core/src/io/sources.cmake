list(APPEND FISURA_CORE_SOURCES
    src/io/tiff_handle.cpp
    src/io/output_file.cpp
    src/io/tiff_tags.cpp
    src/io/image_io.cpp
    src/io/raster_source.cpp
    src/io/tile_cache.cpp
    src/io/tiff_level.cpp
    src/io/tiled_reader.cpp
    src/io/tiled_blocks.cpp
    src/io/tiled_convert.cpp
    src/io/tiled_samples.cpp
    src/io/tiled_writer.cpp
    src/io/tiled_writer_files.cpp
    src/io/tile_codec.cpp
    src/io/serial_worker.cpp
    src/io/pyramid.cpp
    src/io/task_pool.cpp)
