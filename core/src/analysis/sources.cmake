# Analysis of maps: comparison with ground truth (no torch).
list(APPEND FISURA_CORE_SOURCES src/analysis/score.cpp)

# Crack probability <-> map byte: the one meaning of a threshold (no torch).
list(APPEND FISURA_CORE_SOURCES src/analysis/threshold.cpp)

# Crack measurement: skeleton, crack graph, widths and lengths, tile by tile (no torch).
list(APPEND FISURA_CORE_SOURCES
    src/analysis/thinning.cpp
    src/analysis/measure_tile.cpp
    src/analysis/measure_merge.cpp
    src/analysis/measure.cpp
    src/analysis/branch_list.cpp
    src/analysis/centre_line.cpp
    src/analysis/width_segments.cpp
    src/analysis/width_presets.cpp)

# Width classes of measured cracks as a class-coded map (no torch).
list(APPEND FISURA_CORE_SOURCES src/analysis/measure_classmap.cpp)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/analysis/measure_export.cpp)
