#include "device/torch_devices.h"

#include <dlfcn.h>

#include <cstdio>

#include "compat/torch_compat.h"

#ifdef FISURA_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <cuda_runtime_api.h>
#endif

namespace fisura::detail
{

#ifdef FISURA_TORCH_CUDA
namespace
{

bool driverLibraryPresent()
{
    void* h = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (h)
        ::dlclose(h);
    return h != nullptr;
}

} // namespace
#endif

void queryTorchDevices(MachineInfo& m)
{
#ifdef FISURA_TORCH_CUDA
    m.torchBuiltWithCuda = true;
#else
    m.torchBuiltWithCuda = false;
#endif
    if (!m.torchBuiltWithCuda) {
        m.cudaState = CudaState::NotBuilt;
        m.cudaStatus = "this LibTorch was built without CUDA (CPU only)";
        return;
    }
#ifdef FISURA_TORCH_CUDA
    try {
        int runtime = 0;
        if (cudaRuntimeGetVersion(&runtime) == cudaSuccess)
            m.cudaRuntimeVersion =
                std::to_string(runtime / 1000) + "." + std::to_string((runtime % 1000) / 10);
        int driver = 0;
        if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0)
            m.cudaDriverVersion =
                std::to_string(driver / 1000) + "." + std::to_string((driver % 1000) / 10);
        if (!driverLibraryPresent()) {
            m.cudaState = CudaState::NoDriver;
            m.cudaStatus = "no NVIDIA driver found (libcuda.so.1 is missing)";
            return;
        }
        const auto count = static_cast<int>(torch::cuda::device_count());
        if (count == 0) {
            m.cudaState = CudaState::NoDevice;
            m.cudaStatus = "the NVIDIA driver is installed but reports no usable GPU";
            return;
        }
        for (int i = 0; i < count; ++i) {
            const cudaDeviceProp* p = at::cuda::getDeviceProperties(i);
            GpuInfo g;
            g.index = i;
            g.name = p->name;
            g.computeMajor = p->major;
            g.computeMinor = p->minor;
            g.multiprocessors = p->multiProcessorCount;
            g.totalMemoryBytes = p->totalGlobalMem;
            size_t freeB = 0, totalB = 0;
            int prev = 0;
            cudaGetDevice(&prev);
            if (cudaSetDevice(i) == cudaSuccess && cudaMemGetInfo(&freeB, &totalB) == cudaSuccess)
                g.freeMemoryBytes = freeB;
            cudaSetDevice(prev);
            char bus[32];
            std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", p->pciDomainID, p->pciBusID,
                          p->pciDeviceID);
            g.pciBusId = bus;
            deriveGpuFeatures(g);
            m.gpus.push_back(g);
        }
        if (at::detail::getCUDAHooks().compiledWithCuDNN()) {
            const long v = at::detail::getCUDAHooks().versionCuDNN(); // 90102 or 8906
            const long major = v >= 10000 ? v / 10000 : v / 1000;
            const long minor = v >= 10000 ? (v / 100) % 100 : (v / 100) % 10;
            const long patch = v % 100;
            m.cudnnVersion =
                std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
        }
        m.cudaUsable = true;
        m.cudaState = CudaState::Usable;
        m.cudaStatus = std::to_string(count) + " CUDA device(s) usable";
    } catch (const c10::Error& e) {
        m.cudaState = CudaState::InitFailed;
        m.cudaStatus = std::string("CUDA initialisation failed: ") + e.what_without_backtrace();
    }
#endif
}

} // namespace fisura::detail
