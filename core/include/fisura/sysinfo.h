// Facts about the machine and the compute devices LibTorch can use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fisura
{

struct GpuInfo {
    int index = 0;
    std::string name;
    int computeMajor = 0;
    int computeMinor = 0;
    int multiprocessors = 0;
    uint64_t totalMemoryBytes = 0;
    uint64_t freeMemoryBytes = 0; ///< 0 when unknown
    std::string pciBusId;         ///< "0000:3b:00.0"; matches NVML's bus id (telemetry)
    bool fp16 = false;            ///< fp16 tensor cores (compute capability >= 7.0)
    bool bf16 = false;            ///< native bf16 math (compute capability >= 8.0)
    bool tf32 = false;            ///< TF32 tensor cores (compute capability >= 8.0)
};

/// Fill fp16/bf16/tf32 from the compute capability (one rule for real and test devices).
void deriveGpuFeatures(GpuInfo& gpu);

/// Why CUDA is or is not usable, for translated UI text (cudaStatus has the English detail).
enum class CudaState { Usable, NotBuilt, NoDriver, NoDevice, InitFailed };

struct MachineInfo {
    std::string os; ///< "Debian GNU/Linux 12 (bookworm)"
    std::string cpuModel;
    int logicalCores = 0;
    bool cpuBf16 = false; ///< AVX512-BF16 or AMX-BF16 (/proc/cpuinfo flags): fast bf16 on the CPU
    bool cpuAmx = false;  ///< AMX tiles (amx_tile and amx_bf16)
    uint64_t totalRamBytes = 0;
    uint64_t availableRamBytes = 0;

    std::string fisuraVersion;
    std::string torchVersion;
    bool torchBuiltWithCuda = false;
    bool cudaUsable = false;
    CudaState cudaState = CudaState::NotBuilt;
    std::string cudaStatus;          ///< why CUDA is (not) usable, one untranslated sentence
    std::string cudaRuntimeVersion;  ///< e.g. "13.0"; empty without CUDA
    std::string cudaDriverVersion;   ///< newest CUDA the driver supports, e.g. "13.0"
    std::string nvidiaDriverVersion; ///< e.g. "580.95.05" (from NVML); empty without a driver
    std::string cudnnVersion;        ///< e.g. "9.10.2"; empty when LibTorch has no cuDNN
    /// Process-group backends of this build (fisura/distributed.h): "gloo,nccl", "gloo", "nccl"
    /// or "". Several GPUs train together only where it has "nccl".
    std::string distributedBackends;
    std::vector<GpuInfo> gpus;
};

/// Fill cpuBf16 / cpuAmx from the "flags" line of /proc/cpuinfo (space-separated names).
void deriveCpuFeatures(const std::string& flags, MachineInfo& info);

/// Gather machine facts. Never throws; fields it cannot learn stay empty/zero.
MachineInfo queryMachine();

/// Serialize to JSON text (keys are stable: the CLI prints this).
std::string toJson(const MachineInfo& info, int indent = 2);

} // namespace fisura
