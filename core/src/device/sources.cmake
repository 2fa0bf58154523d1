list(APPEND FISURA_CORE_SOURCES
    src/device/machine.cpp
    src/device/nvml.cpp
    src/device/policy.cpp
    src/device/probe.cpp
    src/device/telemetry.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/device/cpu_settings.cpp
    src/device/gpu_memory.cpp
    src/device/torch_devices.cpp)
