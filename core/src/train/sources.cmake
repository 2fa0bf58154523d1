# The JSON form of an epoch's metrics (no torch: project.json uses it too).
# The policy question of a training job (no torch: the GUI's previews ask it too).
list(APPEND FISURA_CORE_SOURCES src/train/train_policy.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/train/metrics.cpp
    src/train/trainer.cpp
    src/train/train_setup.cpp
    src/train/train_init.cpp
    src/train/train_step.cpp
    src/train/train_graph.cpp
    src/train/train_validate.cpp
    src/train/train_checkpoint.cpp
    src/train/train_json.cpp
    src/train/train_optim.cpp
    src/train/train_patch.cpp
    src/train/train_dist.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/train/evaluate.cpp
    src/train/evaluate_gallery.h
    src/train/evaluate_whole.cpp
    src/train/evaluate_whole.h
    src/train/crack_scores.cpp
    src/train/footprint.cpp)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/train/metrics_json.cpp)
