# Analysis of maps: comparison with ground truth (no torch).
list(APPEND FISURA_CORE_SOURCES src/analysis/score.cpp)
