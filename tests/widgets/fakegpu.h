// A computer with a CUDA GPU for the pane tests: what the panes show without one being there.
#pragma once

#include <cstdint>
#include <string>

#include "fisura/sysinfo.h"

namespace fisura::testing
{

/// `machine` with one usable CUDA GPU of compute capability major.minor and `memoryBytes`.
inline MachineInfo withFakeGpu(MachineInfo machine, const std::string& name, int major, int minor,
                               uint64_t memoryBytes)
{
    GpuInfo g;
    g.name = name;
    g.computeMajor = major;
    g.computeMinor = minor;
    g.totalMemoryBytes = memoryBytes;
    deriveGpuFeatures(g);
    machine.gpus = {g};
    machine.cudaUsable = true;
    machine.cudaState = CudaState::Usable;
    return machine;
}

} // namespace fisura::testing
