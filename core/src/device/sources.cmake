list(APPEND FISURA_CORE_SOURCES
    src/device/nvml.cpp
    src/device/probe.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/device/cpu_settings.cpp
    src/device/gpu_memory.cpp
    src/device/torch_devices.cpp)
# Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
list(APPEND FISURA_CORE_RECORD_SOURCES
    src/device/machine.cpp
    src/device/policy.cpp
    src/device/telemetry.cpp)
