list(APPEND FISURA_CORE_SOURCES
    src/util/status.cpp
    src/util/bytetext.cpp
    src/util/address_space.cpp
    src/util/progress.cpp
    src/util/version.cpp
    src/util/atomic_file.cpp
    src/util/io_error.cpp
    src/util/malloc_tuning.cpp
    src/util/process.cpp
    src/util/paths.cpp)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/util/json_bounded.cpp)
