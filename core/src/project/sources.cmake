# Projects: project.json with datasets, training runs and analysed scans (no torch).
list(APPEND FISURA_CORE_SOURCES)
