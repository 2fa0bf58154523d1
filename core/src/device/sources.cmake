list(APPEND FISURA_CORE_SOURCES
    src/device/machine.cpp
    src/device/policy.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/device/torch_devices.cpp)
