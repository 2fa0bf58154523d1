// Caching-allocator and driver memory figures. The allocator's counters are per device; index 0
// of each StatArray is the aggregate over pools in LibTorch 1.13 and 2.x alike.
#include "compat/torch_compat.h"

#include "fisura/gpumemory.h"

#ifdef FISURA_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime_api.h>
#endif

namespace fisura
{

#ifdef FISURA_TORCH_CUDA
namespace
{

Status checkDevice(int device)
{
    const int n = static_cast<int>(torch::cuda::device_count());
    if (device < 0 || device >= n)
        return {ErrorCode::InvalidArgument, "CUDA device " + std::to_string(device) +
                                                " does not exist (" + std::to_string(n) +
                                                " present)"};
    return Status::ok();
}

} // namespace
#endif

Result<GpuMemoryStats> gpuMemoryStats(int device)
{
#ifdef FISURA_TORCH_CUDA
    GpuMemoryStats m;
    m.device = device;
    try {
        if (auto st = checkDevice(device); !st)
            return st;
        c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(device));
        size_t freeB = 0, totalB = 0;
        if (cudaMemGetInfo(&freeB, &totalB) == cudaSuccess) {
            m.driverFreeBytes = freeB;
            m.driverTotalBytes = totalB;
        }
    } catch (const c10::Error& e) {
        return Status(ErrorCode::DeviceError, e.what_without_backtrace());
    }
    // LibTorch's caching allocator starts with the first CUDA tensor; asked before that (a job
    // checking what fits before it allocates anything) it throws: nothing is allocated yet.
    try {
        namespace alloc = c10::cuda::CUDACachingAllocator;
        const auto stats = alloc::getDeviceStats(static_cast<c10::DeviceIndex>(device));
        m.allocatedBytes = static_cast<uint64_t>(stats.allocated_bytes[0].current);
        m.reservedBytes = static_cast<uint64_t>(stats.reserved_bytes[0].current);
        m.peakAllocatedBytes = static_cast<uint64_t>(stats.allocated_bytes[0].peak);
        m.peakReservedBytes = static_cast<uint64_t>(stats.reserved_bytes[0].peak);
    } catch (const c10::Error&) {
    }
    return m;
#else
    (void)device;
    return Status(ErrorCode::Unsupported, "this LibTorch was built without CUDA");
#endif
}

Result<uint64_t> releaseGpuMemory(int device)
{
#ifdef FISURA_TORCH_CUDA
    auto before = gpuMemoryStats(device);
    if (!before)
        return before.status();
    try {
        // Queued kernels may still use blocks that are about to become free.
        c10::cuda::device_synchronize();
        c10::cuda::CUDACachingAllocator::emptyCache();
    } catch (const c10::Error& e) {
        return Status(ErrorCode::DeviceError, e.what_without_backtrace());
    }
    auto after = gpuMemoryStats(device);
    if (!after)
        return after.status();
    return before->reservedBytes > after->reservedBytes
               ? before->reservedBytes - after->reservedBytes
               : uint64_t{0};
#else
    (void)device;
    return Status(ErrorCode::Unsupported, "this LibTorch was built without CUDA");
#endif
}

void resetPeakGpuMemory(int device)
{
#ifdef FISURA_TORCH_CUDA
    try {
        if (checkDevice(device))
            c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(device));
    } catch (const c10::Error&) {
        // Peaks are advisory; a failing reset only makes the next peak less precise.
    }
#else
    (void)device;
#endif
}

Status synchronizeGpu(int device)
{
#ifdef FISURA_TORCH_CUDA
    try {
        if (auto st = checkDevice(device); !st)
            return st;
        c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(device));
        c10::cuda::device_synchronize();
        return Status::ok();
    } catch (const c10::Error& e) {
        return {ErrorCode::DeviceError, e.what_without_backtrace()};
    }
#else
    (void)device;
    return Status::ok();
#endif
}

} // namespace fisura
