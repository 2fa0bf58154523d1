// How a job runs: device, precision, batch size, loader threads — each choice with a reason the
// UI can show. Analysts never have to know what TF32 is; they can still override.
#pragma once

#include <string>
#include <vector>

#include "fisura/sysinfo.h"

namespace fisura
{

enum class Precision { Auto, FP32, BF16, FP16 };
const char* precisionName(Precision p); ///< "auto", "fp32", "bf16", "fp16"
bool parsePrecision(const std::string& text, Precision& out);

enum class JobKind { Train, Infer };

/// What the job needs; the policy fills in the rest.
struct PolicyRequest {
    JobKind kind = JobKind::Train;
    std::string model = "unet";            ///< "unet", "classifier", "autoencoder"
    int inputSize = 256;                   ///< square input edge in px
    Precision precision = Precision::Auto; ///< user override (Auto = choose)
    int batchSize = 0;                     ///< user override (0 = choose)
    bool preferCpu = false;                ///< force the CPU even when a GPU is usable
};

struct PolicyChoice {
    std::string what;   ///< "precision", "batch_size", ...
    std::string value;  ///< "bf16", "64", ...
    std::string reason; ///< one untranslated sentence
};

struct ExecutionPolicy {
    bool useCuda = false;
    int deviceIndex = -1; ///< CUDA device, -1 = CPU
    Precision precision = Precision::FP32;
    bool lossScaling = false; ///< dynamic loss scaling (fp16 only)
    bool tf32 = false;
    bool cudnnBenchmark = false;
    bool channelsLast = false;
    bool pinnedMemory = false;
    int batchSize = 32;
    bool batchSizeMeasured = false; ///< false: from the fallback memory table
    int loaderThreads = 1;
    std::vector<PolicyChoice> choices; ///< every decision above, with its reason
};

/// Decide a policy from machine facts without touching the device (no probing): precision from
/// compute capability, batch size from the fallback memory table (>= 8 GB: 128, >= 4 GB: 64,
/// else 32; CPU: 16), loader threads from the core count. Deterministic: tests feed fake devices.
ExecutionPolicy choosePolicy(const MachineInfo& machine, const PolicyRequest& request);

/// The fallback batch size of the original write-ups' memory table.
int fallbackBatchSize(unsigned long long deviceMemoryBytes);

} // namespace fisura
