// The one place that knows LibTorch 1.13 (Debian) from 2.x (CUDA builds). Include it only from
// .cpp files that already need torch.
#pragma once

#include <torch/script.h>
#include <torch/torch.h>
#include <torch/version.h>

#define FISURA_TORCH_AT_LEAST(major, minor)                                                        \
    (TORCH_VERSION_MAJOR > (major) ||                                                              \
     (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace fisura::compat
{

/// Is this exception a CUDA out-of-memory? 2.x throws c10::OutOfMemoryError; 1.13 a c10::Error
/// whose message says so.
inline bool isOutOfMemory(const c10::Error& e)
{
#if FISURA_TORCH_AT_LEAST(2, 0)
    if (dynamic_cast<const c10::OutOfMemoryError*>(&e))
        return true;
#endif
    const std::string msg = e.what();
    return msg.find("out of memory") != std::string::npos;
}

} // namespace fisura::compat

#include <ATen/autocast_mode.h>
#ifdef FISURA_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace fisura::compat
{

/// No cached weight casts under autocast in this scope: a CUDA graph capture must not leave
/// cached tensors behind (PyTorch's torch.cuda.graph docs: autocast(cache_enabled=False)).
class AutocastCacheOff
{
public:
    AutocastCacheOff() : prev_(at::autocast::is_autocast_cache_enabled())
    {
        at::autocast::set_autocast_cache_enabled(false);
    }
    ~AutocastCacheOff() { at::autocast::set_autocast_cache_enabled(prev_); }
    AutocastCacheOff(const AutocastCacheOff&) = delete;
    AutocastCacheOff& operator=(const AutocastCacheOff&) = delete;

private:
    bool prev_;
};

/// Whether CUDA autocast is on in this thread, and its type.
inline bool cudaAutocastEnabled()
{
#if FISURA_TORCH_AT_LEAST(2, 4)
    return at::autocast::is_autocast_enabled(at::kCUDA);
#else
    return at::autocast::is_enabled();
#endif
}
inline at::ScalarType cudaAutocastType()
{
#if FISURA_TORCH_AT_LEAST(2, 4)
    return at::autocast::get_autocast_dtype(at::kCUDA);
#else
    return at::autocast::get_autocast_gpu_dtype();
#endif
}

/// Mixed precision for CUDA ops in this scope (the C++ side of torch.autocast). 2.4 made the
/// device type an argument; 1.13-2.3 had CUDA-only setters.
class CudaAutocast
{
public:
    CudaAutocast(bool enabled, at::ScalarType dtype) : enabled_(enabled)
    {
        if (!enabled_)
            return;
#if FISURA_TORCH_AT_LEAST(2, 4)
        prevEnabled_ = at::autocast::is_autocast_enabled(at::kCUDA);
        prevDtype_ = at::autocast::get_autocast_dtype(at::kCUDA);
        at::autocast::set_autocast_enabled(at::kCUDA, true);
        at::autocast::set_autocast_dtype(at::kCUDA, dtype);
#else
        prevEnabled_ = at::autocast::is_enabled();
        prevDtype_ = at::autocast::get_autocast_gpu_dtype();
        at::autocast::set_enabled(true);
        at::autocast::set_autocast_gpu_dtype(dtype);
#endif
        at::autocast::increment_nesting();
    }
    ~CudaAutocast()
    {
        if (!enabled_)
            return;
        if (at::autocast::decrement_nesting() == 0)
            at::autocast::clear_cache();
#if FISURA_TORCH_AT_LEAST(2, 4)
        at::autocast::set_autocast_enabled(at::kCUDA, prevEnabled_);
        at::autocast::set_autocast_dtype(at::kCUDA, prevDtype_);
#else
        at::autocast::set_enabled(prevEnabled_);
        at::autocast::set_autocast_gpu_dtype(prevDtype_);
#endif
    }
    CudaAutocast(const CudaAutocast&) = delete;
    CudaAutocast& operator=(const CudaAutocast&) = delete;

private:
    bool enabled_;
    bool prevEnabled_ = false;
    at::ScalarType prevDtype_ = at::kHalf;
};

/// An error that isOutOfMemory() recognises, for tests of the recovery path.
[[noreturn]] inline void throwOutOfMemory(const std::string& what)
{
    const c10::SourceLocation loc{__func__, __FILE__, uint32_t(__LINE__)};
#if FISURA_TORCH_AT_LEAST(2, 0)
    throw c10::OutOfMemoryError(loc, "CUDA out of memory. " + what);
#else
    throw c10::Error(loc, "CUDA out of memory. " + what);
#endif
}

struct GpuMemory {
    uint64_t allocated = 0, reserved = 0, peak = 0;
};

/// Caching-allocator statistics of one CUDA device (zeros without CUDA).
inline GpuMemory gpuMemory(int device)
{
    GpuMemory m;
#ifdef FISURA_TORCH_CUDA
    if (device >= 0) {
        const auto s = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
        m.allocated = uint64_t(s.allocated_bytes[0].current); // [0] = aggregate in every version
        m.reserved = uint64_t(s.reserved_bytes[0].current);
        m.peak = uint64_t(s.allocated_bytes[0].peak);
    }
#else
    (void)device;
#endif
    return m;
}

inline void resetGpuPeak(int device)
{
#ifdef FISURA_TORCH_CUDA
    if (device >= 0)
        c10::cuda::CUDACachingAllocator::resetPeakStats(device);
#else
    (void)device;
#endif
}

/// Give cached blocks back to the driver (after an out-of-memory, not after every batch).
inline void releaseGpuCache()
{
#ifdef FISURA_TORCH_CUDA
    c10::cuda::CUDACachingAllocator::emptyCache();
#endif
}

} // namespace fisura::compat

namespace fisura::compat
{

/// State of the default CPU generator (saved in checkpoints so a resume continues the stream).
inline torch::Tensor cpuRngState()
{
    auto g = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(g.mutex());
    return g.get_state();
}

inline void setCpuRngState(const torch::Tensor& state)
{
    auto g = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(g.mutex());
    g.set_state(state.to(torch::kCPU));
}

} // namespace fisura::compat

namespace fisura::compat
{

/// Mixed precision for CPU ops in this scope (torch.autocast("cpu")): bf16 convolutions and
/// matrix products through oneDNN. 2.4 made the device type an argument; 1.13-2.3 had
/// CPU-specific setters.
class CpuAutocast
{
public:
    CpuAutocast(bool enabled, at::ScalarType dtype = at::kBFloat16) : enabled_(enabled)
    {
        if (!enabled_)
            return;
#if FISURA_TORCH_AT_LEAST(2, 4)
        prevEnabled_ = at::autocast::is_autocast_enabled(at::kCPU);
        prevDtype_ = at::autocast::get_autocast_dtype(at::kCPU);
        at::autocast::set_autocast_enabled(at::kCPU, true);
        at::autocast::set_autocast_dtype(at::kCPU, dtype);
#else
        prevEnabled_ = at::autocast::is_cpu_enabled();
        prevDtype_ = at::autocast::get_autocast_cpu_dtype();
        at::autocast::set_cpu_enabled(true);
        at::autocast::set_autocast_cpu_dtype(dtype);
#endif
        at::autocast::increment_nesting();
    }
    ~CpuAutocast()
    {
        if (!enabled_)
            return;
        if (at::autocast::decrement_nesting() == 0)
            at::autocast::clear_cache();
#if FISURA_TORCH_AT_LEAST(2, 4)
        at::autocast::set_autocast_enabled(at::kCPU, prevEnabled_);
        at::autocast::set_autocast_dtype(at::kCPU, prevDtype_);
#else
        at::autocast::set_cpu_enabled(prevEnabled_);
        at::autocast::set_autocast_cpu_dtype(prevDtype_);
#endif
    }
    CpuAutocast(const CpuAutocast&) = delete;
    CpuAutocast& operator=(const CpuAutocast&) = delete;

private:
    bool enabled_;
    bool prevEnabled_ = false;
    at::ScalarType prevDtype_ = at::kBFloat16;
};

} // namespace fisura::compat
