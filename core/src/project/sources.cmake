# Projects: project.json with datasets, training runs and analysed scans (no torch).
list(APPEND FISURA_CORE_SOURCES
    src/project/project_paths.h)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/project/project.cpp
    src/project/project_json.cpp
    src/project/project_known.cpp
    src/project/options_json.cpp
    src/project/series.cpp
    src/project/run_recorder.cpp)
