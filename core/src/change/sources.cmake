# Inspections over time: scan registration, the aligned map, crack change (no torch).
list(APPEND FISURA_CORE_SOURCES
    src/change/overview.cpp
    src/change/align_coarse.cpp
    src/change/align_refine.cpp
    src/change/align.cpp
    src/change/align_field.cpp
    src/change/align_georef.cpp
    src/change/warp_map.cpp
    src/change/compare.cpp
    src/change/change_lines.cpp)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/change/change_export.cpp)
