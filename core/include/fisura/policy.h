// How a job runs: device, precision, batch size, loader threads — each choice with a reason the
// UI can show. Analysts never have to know what TF32 is; they can still override.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "fisura/job.h"
#include "fisura/status.h"
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
    int intraOpThreads = 0; ///< user override of LibTorch's intra-op threads (0 = choose)
    int interOpThreads = 0; ///< user override of LibTorch's inter-op threads (0 = choose)
};

struct PolicyChoice {
    std::string what;   ///< "precision", "batch_size", ...
    std::string value;  ///< "bf16", "64", ...
    std::string reason; ///< one untranslated sentence (logs, CLI, JSON)
    /// Stable id of the reason ("bf16_tensor_cores", ...) for translated UI text, and the one
    /// number or name it quotes (a compute capability, a memory size), if any.
    std::string reasonId;
    std::string reasonArg;
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
    /// LibTorch's thread pools. Both are process-wide: a job sets them once when it starts (see
    /// applyCpuSettings); the inter-op pool can only be sized before its first use in a process.
    int intraOpThreads = 1;
    int interOpThreads = 1;
    bool foldBatchNorm = false; ///< inference runs a copy with BatchNorm folded into convolutions
    std::vector<PolicyChoice> choices; ///< every decision above, with its reason
};

/// Decide a policy from machine facts without touching the device (no probing): precision from
/// compute capability (on the CPU: bf16 autocast with channels-last for inference and training
/// where the CPU has AVX512-BF16 or AMX — measured faster, see tests/bench/RESULTS.md — and fp32
/// elsewhere), batch size from the fallback
/// memory table (>= 8 GB: 128, >= 4 GB: 64, else 32; CPU: 16), loader threads and LibTorch's
/// intra-op / inter-op threads from the core count. Deterministic: tests feed fake devices.
ExecutionPolicy choosePolicy(const MachineInfo& machine, const PolicyRequest& request);

/// The fallback batch size of the original write-ups' memory table.
int fallbackBatchSize(unsigned long long deviceMemoryBytes);

// ---- Batch size by measurement ----------------------------------------------------------------

/// One training (forward + backward + optimizer) or inference step at `batch` samples, supplied
/// by the caller so the probe stays model-agnostic. Return ErrorCode::OutOfMemory when the batch
/// does not fit (see device/torch_step.h for the LibTorch-side guard that maps the exception);
/// any other error aborts the probe.
using BatchStep = std::function<Status(int batch)>;

struct BatchProbeOptions {
    int deviceIndex = -1; ///< CUDA device to synchronize and measure; -1 = CPU
    int minBatch = 1;
    int maxBatch = 1024;         ///< never probe beyond this
    double headroom = 0.10;      ///< keep this fraction below the largest batch that ran
    int warmupSteps = 1;         ///< untimed steps per size (cuDNN autotuning, allocator warm-up)
    int timedSteps = 3;          ///< timed steps per size
    double maxStepSeconds = 2.0; ///< stop growing once one step takes longer (the CPU sweep)
};

struct BatchProbeSample {
    int batch = 0;
    bool fits = false;          ///< ran without running out of memory
    double imagesPerSecond = 0; ///< 0 when it did not fit or was not timed
    double stepSeconds = 0;     ///< mean timed step
    uint64_t peakBytes = 0;     ///< peak allocated by the caching allocator (GPU only)
};

struct BatchProbeResult {
    int batchSize = 0;     ///< the choice: best images/s among sizes within the headroom
    int largestFit = 0;    ///< largest size that ran without running out of memory
    int headroomLimit = 0; ///< largestFit less the headroom: no size above it is chosen
    bool hitOutOfMemory = false;
    double imagesPerSecond = 0;            ///< of the chosen size
    std::vector<BatchProbeSample> samples; ///< in probing order
    std::string reason;                    ///< one untranslated sentence for the UI
};

/// Probe the batch size: double from minBatch until a step runs out of memory, exceeds
/// maxStepSeconds or reaches maxBatch; binary-search the boundary after an out-of-memory; keep
/// `headroom` below the largest size that ran; pick the best images/s among the timed sizes that
/// fit. Releases cached GPU blocks after every out-of-memory and at the end, so the allocator is
/// clean for the job. Errors other than out-of-memory (and cancellation) are returned.
Result<BatchProbeResult> probeBatchSize(const BatchStep& step, const BatchProbeOptions& options,
                                        const CancelToken& cancel,
                                        ProgressSink* progress = nullptr);

/// What applyCpuSettings did.
struct CpuSettingsApplied {
    int intraOpThreads = 0;    ///< LibTorch's intra-op threads now (at::get_num_threads())
    int interOpThreads = 0;    ///< LibTorch's inter-op threads now
    bool interOpFixed = false; ///< the inter-op pool was sized earlier in this process: kept
    std::string mallocTuning;  ///< "applied", "already", "user_settings" or "not_glibc"
};

/// Apply the policy's process-wide CPU settings at the start of a job, on the thread that runs
/// the network: LibTorch's intra-op threads (for the process and the calling thread's OpenMP
/// team), the inter-op threads (only possible once per process, before the pool's first use;
/// later jobs keep the first size) and glibc's malloc thresholds (once per process). LibTorch's
/// thread counts are global: two jobs running at once share the last setting.
CpuSettingsApplied applyCpuSettings(const ExecutionPolicy& policy);

/// Stable JSON (keys used by `fisura-cli policy --json`).
std::string toJson(const ExecutionPolicy& policy, int indent = 2);
std::string toJson(const BatchProbeResult& probe, int indent = 2);

/// Replace the table's batch size in `policy` with a probed one (reason included).
void applyProbe(ExecutionPolicy& policy, const BatchProbeResult& probe);

} // namespace fisura
