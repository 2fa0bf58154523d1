# Projects: project.json with datasets, training runs and analysed scans (no torch).
list(APPEND FISURA_CORE_SOURCES
    src/project/project.cpp
    src/project/project_json.cpp
    src/project/project_known.cpp
    src/project/project_paths.h
    src/project/options_json.cpp
    src/project/run_recorder.cpp
    src/project/series.cpp)
