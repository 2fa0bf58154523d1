#include "fisura/policy.h"

#include <algorithm>

namespace fisura
{

const char* precisionName(Precision p)
{
    switch (p) {
    case Precision::Auto:
        return "auto";
    case Precision::FP32:
        return "fp32";
    case Precision::BF16:
        return "bf16";
    case Precision::FP16:
        return "fp16";
    }
    return "auto";
}

bool parsePrecision(const std::string& text, Precision& out)
{
    for (Precision p : {Precision::Auto, Precision::FP32, Precision::BF16, Precision::FP16})
        if (text == precisionName(p)) {
            out = p;
            return true;
        }
    return false;
}

int fallbackBatchSize(unsigned long long bytes)
{
    const unsigned long long gb = 1000ull * 1000ull * 1000ull;
    if (bytes >= 8 * gb)
        return 128;
    if (bytes >= 4 * gb)
        return 64;
    return 32;
}

ExecutionPolicy choosePolicy(const MachineInfo& m, const PolicyRequest& r)
{
    ExecutionPolicy p;
    auto choose = [&](std::string what, std::string value, std::string reason) {
        p.choices.push_back({std::move(what), std::move(value), std::move(reason)});
    };
    const GpuInfo* gpu =
        (!r.preferCpu && m.cudaUsable && !m.gpus.empty()) ? &m.gpus.front() : nullptr;
    if (gpu) {
        p.useCuda = true;
        p.deviceIndex = gpu->index;
        choose("device", gpu->name, "a usable CUDA GPU was found");
    } else {
        choose("device", "cpu",
               r.preferCpu ? "the CPU was requested" : "no usable GPU: " + m.cudaStatus);
    }

    // Precision.
    if (r.precision != Precision::Auto) {
        p.precision = r.precision;
        if (!gpu && r.precision != Precision::FP32) {
            p.precision = Precision::FP32;
            choose("precision", "fp32",
                   "reduced precision was requested but only runs on a GPU here");
        } else {
            choose("precision", precisionName(p.precision), "requested by the user");
        }
    } else if (!gpu) {
        p.precision = Precision::FP32;
        choose("precision", "fp32", "the CPU computes in fp32");
    } else if (gpu->computeMajor >= 8) {
        p.precision = Precision::BF16;
        choose("precision", "bf16",
               "compute capability " + std::to_string(gpu->computeMajor) + "." +
                   std::to_string(gpu->computeMinor) +
                   " has bf16 tensor cores; no loss scaling needed");
    } else if (gpu->computeMajor == 7) {
        p.precision = Precision::FP16;
        choose("precision", "fp16", "compute capability 7.x has fp16 tensor cores but no bf16");
    } else {
        p.precision = Precision::FP32;
        choose("precision", "fp32", "this GPU has no tensor cores for reduced precision");
    }
    p.lossScaling = p.precision == Precision::FP16 && r.kind == JobKind::Train;
    if (p.lossScaling)
        choose("loss_scaling", "dynamic", "fp16 gradients underflow without it");

    p.tf32 = gpu && gpu->tf32;
    choose("tf32", p.tf32 ? "on" : "off",
           p.tf32 ? "Ampere or later: fp32 matrix products run on tensor cores"
                  : "needs an Ampere or later GPU");
    p.cudnnBenchmark = gpu != nullptr;
    choose("cudnn_benchmark", p.cudnnBenchmark ? "on" : "off",
           p.cudnnBenchmark ? "input sizes are fixed, so autotuned convolutions pay off"
                            : "only applies to cuDNN on a GPU");
    p.channelsLast = gpu && gpu->computeMajor >= 7 && p.precision != Precision::FP32;
    choose("channels_last", p.channelsLast ? "on" : "off",
           p.channelsLast ? "tensor-core convolutions prefer NHWC"
                          : "no gain without reduced-precision tensor cores");
    p.pinnedMemory = gpu != nullptr;
    choose("pinned_memory", p.pinnedMemory ? "on" : "off",
           p.pinnedMemory ? "page-locked buffers allow asynchronous copies to the GPU"
                          : "nothing to copy to");

    // Batch size: measured probing lives with the trainer; here the table is the fallback.
    if (r.batchSize > 0) {
        p.batchSize = r.batchSize;
        choose("batch_size", std::to_string(p.batchSize), "requested by the user");
    } else if (gpu) {
        p.batchSize = fallbackBatchSize(gpu->totalMemoryBytes);
        choose("batch_size", std::to_string(p.batchSize),
               "from the memory table (probing not run)");
    } else {
        p.batchSize = 16;
        choose("batch_size", "16", "a moderate CPU batch");
    }

    const int cores = std::max(1, m.logicalCores);
    p.loaderThreads = std::clamp(gpu ? cores - 2 : cores / 2, 1, 8);
    choose("loader_threads", std::to_string(p.loaderThreads),
           gpu ? "all cores but two decode while the GPU computes"
               : "half the cores decode, the rest compute");
    return p;
}

} // namespace fisura
