// GPU memory as the analyst sees it: what LibTorch's caching allocator holds (allocated inside
// reserved) and what the driver says is free. Cached blocks are released at job end, after an
// out-of-memory and on request, not after every batch (that costs a cudaMalloc per step).
#pragma once

#include <cstdint>

#include "fisura/status.h"

namespace fisura
{

struct GpuMemoryStats {
    int device = 0;
    uint64_t allocatedBytes = 0;     ///< in live tensors
    uint64_t reservedBytes = 0;      ///< held by the caching allocator (allocated + cached)
    uint64_t peakAllocatedBytes = 0; ///< since the last resetPeakGpuMemory()
    uint64_t peakReservedBytes = 0;
    uint64_t driverFreeBytes = 0; ///< free on the device, all processes considered
    uint64_t driverTotalBytes = 0;
};

/// Allocator and driver figures for one CUDA device. Unsupported without CUDA.
Result<GpuMemoryStats> gpuMemoryStats(int device = 0);

/// Return cached, unused blocks to the driver. Gives the bytes the allocator stopped reserving.
/// Unsupported without CUDA.
Result<uint64_t> releaseGpuMemory(int device = 0);

/// Restart the peak counters of gpuMemoryStats(). No-op without CUDA.
void resetPeakGpuMemory(int device = 0);

/// Wait for the device's queued work (timing needs it). No-op without CUDA.
Status synchronizeGpu(int device = 0);

} // namespace fisura
