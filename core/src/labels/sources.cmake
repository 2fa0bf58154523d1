list(APPEND FISURA_CORE_SOURCES
    src/labels/label_paths.cpp
    src/labels/label_raster.cpp
    src/labels/label_store.cpp
    src/labels/label_save.cpp
    src/labels/label_layer.cpp
    src/labels/propose.cpp)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/labels/label_provenance.cpp)
