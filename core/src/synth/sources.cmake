list(APPEND FISURA_CORE_SOURCES
    src/synth/synth.cpp
    src/synth/synth_camera.cpp
    src/synth/synth_crack.cpp
    src/synth/synth_data.cpp
    src/synth/synth_distractors.cpp
    src/synth/synth_light.cpp
    src/synth/synth_noise.cpp
    src/synth/synth_scene.cpp
    src/synth/synth_surface.cpp)
