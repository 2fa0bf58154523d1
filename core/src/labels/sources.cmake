list(APPEND FISURA_CORE_SOURCES
    src/labels/label_paths.cpp
    src/labels/label_raster.cpp
    src/labels/label_store.cpp
    src/labels/label_provenance.cpp
    src/labels/label_save.cpp
    src/labels/label_layer.cpp
    src/labels/propose.cpp)
