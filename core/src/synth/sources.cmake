list(APPEND FISURA_CORE_SOURCES
    src/synth/synth.cpp)
