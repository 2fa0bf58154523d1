#include "fisura/policy.h"
#include "util/json_bounded.h"

#include <algorithm>
#include <functional>

#include <nlohmann/json.hpp>

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

namespace
{

using Choose = std::function<void(std::string, std::string, std::string, std::string, std::string)>;

/// Training precision on a CPU with bf16 instructions, decided by measurement: U-Net depth 4,
/// width 16, batch 8, 256 px crops from files, 2 threads on a 2-core AMD EPYC with AVX512-BF16
/// (LibTorch 1.13): bf16 autocast with channels-last 3.16 images/s, fp32 2.31 images/s
/// (tests/bench/RESULTS.md, "CPU").
constexpr bool kCpuTrainBf16 = true;

void choosePrecisionOnCpu(const MachineInfo& m, const PolicyRequest& r, ExecutionPolicy& p,
                          const Choose& choose)
{
    if (!m.cpuBf16) {
        p.precision = Precision::FP32;
        choose("precision", "fp32", "the CPU computes in fp32", "cpu_fp32", {});
    } else if (r.kind == JobKind::Infer) {
        p.precision = Precision::BF16;
        choose("precision", "bf16",
               std::string("the processor has ") + (m.cpuAmx ? "AMX" : "AVX512-BF16") +
                   ": bf16 autocast for inference",
               "cpu_bf16", m.cpuAmx ? "AMX" : "AVX512-BF16");
    } else {
        p.precision = kCpuTrainBf16 ? Precision::BF16 : Precision::FP32;
        choose("precision", precisionName(p.precision),
               kCpuTrainBf16 ? "measured: bf16 autocast trains faster on this processor type"
                             : "measured: bf16 autocast does not train faster on the processor",
               kCpuTrainBf16 ? "cpu_bf16_train" : "cpu_fp32_train", {});
    }
}

/// LibTorch's thread pools. On the CPU the network is the work, and decoding a batch costs a
/// small fraction of a step: the intra-op pool gets every core but one in eight, which stays
/// for the loader / reader threads. With a GPU the loaders get their share first and the
/// intra-op pool (host-side ops) takes what is left.
void chooseThreads(const MachineInfo& m, const PolicyRequest& r, bool gpu, ExecutionPolicy& p,
                   const Choose& choose)
{
    const int cores = std::max(1, m.logicalCores);
    if (r.intraOpThreads > 0) {
        p.intraOpThreads = r.intraOpThreads;
        choose("intra_op_threads", std::to_string(p.intraOpThreads), "requested by the user",
               "user", {});
    } else if (gpu) {
        p.intraOpThreads = std::max(1, cores - p.loaderThreads);
        choose("intra_op_threads", std::to_string(p.intraOpThreads),
               "uses the " + std::to_string(p.intraOpThreads) + " of the " + std::to_string(cores) +
                   " cores the loader threads leave",
               "threads_gpu", std::to_string(cores));
    } else {
        p.intraOpThreads = std::max(1, cores - cores / 8);
        choose("intra_op_threads", std::to_string(p.intraOpThreads),
               "the network uses " + std::to_string(p.intraOpThreads) + " of the " +
                   std::to_string(cores) + " cores; preparing images takes little and shares them",
               "threads_cpu", std::to_string(cores));
    }
    if (r.interOpThreads > 0) {
        p.interOpThreads = r.interOpThreads;
        choose("inter_op_threads", std::to_string(p.interOpThreads), "requested by the user",
               "user", {});
    } else {
        p.interOpThreads = 1;
        choose("inter_op_threads", "1",
               "the networks are one chain of layers: nothing runs side by side", "interop_chain",
               {});
    }
}

/// Precision. Decided from the compute capability (not the derived flags) so fake devices in tests
/// and real ones follow the same rule.
void choosePrecision(const MachineInfo& m, const PolicyRequest& r, const GpuInfo* gpu,
                     ExecutionPolicy& p, const Choose& choose)
{
    const int cc = gpu ? gpu->computeMajor : 0;
    const std::string ccText =
        gpu ? std::to_string(gpu->computeMajor) + "." + std::to_string(gpu->computeMinor) : "";
    if (r.precision != Precision::Auto) {
        p.precision = r.precision;
        if (!gpu && r.precision == Precision::BF16 && !m.cpuBf16) {
            p.precision = Precision::FP32;
            choose("precision", "fp32",
                   "bf16 was requested but only runs on a GPU here: the processor has no bf16 "
                   "instructions",
                   "bf16_cpu_unsupported", {});
        } else if (!gpu && r.precision == Precision::BF16 && r.kind == JobKind::Train &&
                   !kCpuTrainBf16) {
            p.precision = Precision::FP32;
            choose("precision", "fp32",
                   "bf16 was requested, but on the processor it trains no faster than fp32",
                   "bf16_cpu_train", {});
        } else if (!gpu && r.precision == Precision::FP16) {
            p.precision = Precision::FP32;
            choose("precision", "fp32",
                   "reduced precision was requested but only runs on a GPU here",
                   "reduced_needs_gpu", {});
        } else if (gpu && r.precision == Precision::BF16 && cc < 8) {
            p.precision = cc >= 7 ? Precision::FP16 : Precision::FP32;
            choose("precision", precisionName(p.precision),
                   "bf16 was requested but compute capability " + ccText +
                       " has no bf16 tensor cores",
                   "bf16_unsupported", ccText);
        } else if (gpu && r.precision == Precision::FP16 && cc < 7) {
            p.precision = Precision::FP32;
            choose("precision", "fp32",
                   "fp16 was requested but compute capability " + ccText +
                       " has no fp16 tensor cores",
                   "fp16_unsupported", ccText);
        } else {
            choose("precision", precisionName(p.precision), "requested by the user", "user", {});
        }
    } else if (!gpu) {
        choosePrecisionOnCpu(m, r, p, choose);
    } else if (cc >= 8) {
        p.precision = Precision::BF16;
        choose("precision", "bf16",
               "compute capability " + ccText + " has bf16 tensor cores; no loss scaling needed",
               "bf16_tensor_cores", ccText);
    } else if (cc == 7) {
        p.precision = Precision::FP16;
        choose("precision", "fp16", "compute capability 7.x has fp16 tensor cores but no bf16",
               "fp16_tensor_cores", ccText);
    } else {
        p.precision = Precision::FP32;
        choose("precision", "fp32",
               "compute capability " + ccText + " has no tensor cores for reduced precision",
               "no_tensor_cores", ccText);
    }
}

} // namespace

ExecutionPolicy choosePolicy(const MachineInfo& m, const PolicyRequest& r)
{
    ExecutionPolicy p;
    auto choose = [&](std::string what, std::string value, std::string reason, std::string id,
                      std::string arg = {}) {
        p.choices.push_back(
            {std::move(what), std::move(value), std::move(reason), std::move(id), std::move(arg)});
    };
    const GpuInfo* gpu =
        (!r.preferCpu && m.cudaUsable && !m.gpus.empty()) ? &m.gpus.front() : nullptr;
    if (gpu) {
        p.useCuda = true;
        p.deviceIndex = gpu->index;
        choose("device", gpu->name, "a usable CUDA GPU was found", "gpu_found");
    } else {
        choose("device", "cpu",
               r.preferCpu ? "the CPU was requested" : "no usable GPU: " + m.cudaStatus,
               r.preferCpu ? "cpu_requested" : "no_gpu");
    }

    choosePrecision(m, r, gpu, p, choose);
    p.lossScaling = p.precision == Precision::FP16 && r.kind == JobKind::Train;
    if (p.lossScaling)
        choose("loss_scaling", "dynamic", "fp16 gradients underflow without it", "loss_scaling");

    p.tf32 = gpu && gpu->computeMajor >= 8;
    choose("tf32", p.tf32 ? "on" : "off",
           p.tf32 ? "Ampere or later: fp32 matrix products run on tensor cores"
                  : "needs an Ampere or later GPU",
           p.tf32 ? "tf32_on" : "tf32_off");
    // Inference: autotuning times the algorithms on each GPU and may pick others on a second
    // GPU (or in the next run) that round differently: a split map then differed from the
    // one-GPU map by a grey level in up to 0.25 % of the pixels. cuDNN's heuristics restricted
    // to deterministic algorithms give the same map everywhere, at the same network speed on
    // the U-Net (tests/bench/RESULTS.md, 2026-11-27).
    const bool fixedAlgorithms = gpu && r.kind == JobKind::Infer;
    p.cudnnBenchmark = gpu != nullptr && !fixedAlgorithms;
    choose("cudnn_benchmark", p.cudnnBenchmark ? "on" : "off",
           p.cudnnBenchmark  ? "input sizes are fixed, so autotuned convolutions pay off"
           : fixedAlgorithms ? "deterministic algorithms chosen without timing: the same map on "
                               "every GPU and in every run"
                             : "only applies to cuDNN on a GPU",
           p.cudnnBenchmark  ? "cudnn_on"
           : fixedAlgorithms ? "cudnn_infer_fixed"
                             : "cudnn_off");
    if (gpu) {
        p.channelsLast = gpu->computeMajor >= 7 && p.precision != Precision::FP32;
        choose("channels_last", p.channelsLast ? "on" : "off",
               p.channelsLast ? "tensor-core convolutions prefer NHWC"
                              : "no gain without reduced-precision tensor cores",
               p.channelsLast ? "nhwc_on" : "nhwc_off");
    } else {
        // oneDNN's bf16 convolutions run on NHWC; in fp32 the layout made no measurable
        // difference (U-Net inference and training, 2 threads).
        p.channelsLast = p.precision == Precision::BF16;
        choose("channels_last", p.channelsLast ? "on" : "off",
               p.channelsLast ? "oneDNN's bf16 convolutions prefer NHWC"
                              : "measured: no gain in fp32 on the processor",
               p.channelsLast ? "nhwc_cpu" : "nhwc_cpu_off");
    }
    p.pinnedMemory = gpu != nullptr;
    choose("pinned_memory", p.pinnedMemory ? "on" : "off",
           p.pinnedMemory ? "page-locked buffers allow asynchronous copies to the GPU"
                          : "nothing to copy to",
           p.pinnedMemory ? "pinned_on" : "pinned_off");

    // Batch size: measured probing lives with the trainer; here the table is the fallback.
    if (r.batchSize > 0) {
        p.batchSize = r.batchSize;
        choose("batch_size", std::to_string(p.batchSize), "requested by the user", "user");
    } else if (gpu) {
        p.batchSize = fallbackBatchSize(gpu->totalMemoryBytes);
        choose("batch_size", std::to_string(p.batchSize),
               "from the memory table for " +
                   std::to_string(gpu->totalMemoryBytes / 1000000000ull) + " GB (probing not run)",
               "batch_table", std::to_string(gpu->totalMemoryBytes / 1000000000ull));
    } else {
        p.batchSize = 16;
        choose("batch_size", "16", "a moderate CPU batch", "batch_cpu");
    }

    const int cores = std::max(1, m.logicalCores);
    // Training decodes and augments at most 8 batches' worth at once (more threads measured no
    // faster); tiled inference only decodes, and on a fast GPU its readers set the pace of a
    // large scan, so they may take all cores but two.
    p.loaderThreads = std::clamp(gpu ? cores - 2 : cores / 2, 1, r.kind == JobKind::Infer ? 32 : 8);
    // The reason quotes the core count so it reads consistently beside the compute threads.
    choose("loader_threads", std::to_string(p.loaderThreads),
           gpu ? "prepare the next images while the GPU computes (" +
                     std::to_string(p.loaderThreads) + " of the " + std::to_string(cores) +
                     " cores)"
               : "prepare the next images while the network computes, sharing the " +
                     std::to_string(cores) + " cores with it",
           gpu ? "loaders_gpu" : "loaders_cpu", std::to_string(cores));
    chooseThreads(m, r, gpu != nullptr, p, choose);

    p.foldBatchNorm = r.kind == JobKind::Infer;
    choose("batchnorm_fold", p.foldBatchNorm ? "on" : "off",
           p.foldBatchNorm ? "inference runs a copy with BatchNorm folded into the convolutions"
                           : "training updates the BatchNorm statistics",
           p.foldBatchNorm ? "bn_fold_infer" : "bn_fold_train");
    return p;
}

std::string toJson(const ExecutionPolicy& p, int indent)
{
    nlohmann::json choices = nlohmann::json::array();
    for (const auto& c : p.choices)
        choices.push_back({{"what", c.what}, {"value", c.value}, {"reason", c.reason}});
    nlohmann::json j{{"device", p.useCuda ? "cuda:" + std::to_string(p.deviceIndex) : "cpu"},
                     {"precision", precisionName(p.precision)},
                     {"loss_scaling", p.lossScaling},
                     {"tf32", p.tf32},
                     {"cudnn_benchmark", p.cudnnBenchmark},
                     {"channels_last", p.channelsLast},
                     {"pinned_memory", p.pinnedMemory},
                     {"batch_size", p.batchSize},
                     {"batch_size_measured", p.batchSizeMeasured},
                     {"loader_threads", p.loaderThreads},
                     {"intra_op_threads", p.intraOpThreads},
                     {"inter_op_threads", p.interOpThreads},
                     {"fold_batchnorm", p.foldBatchNorm},
                     {"choices", choices}};
    return util::dumpJson(j, indent);
}

std::string toJson(const BatchProbeResult& r, int indent)
{
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& s : r.samples)
        samples.push_back({{"batch", s.batch},
                           {"fits", s.fits},
                           {"images_per_second", s.imagesPerSecond},
                           {"step_seconds", s.stepSeconds},
                           {"peak_bytes", s.peakBytes}});
    nlohmann::json j{{"batch_size", r.batchSize},
                     {"largest_fit", r.largestFit},
                     {"headroom_limit", r.headroomLimit},
                     {"hit_out_of_memory", r.hitOutOfMemory},
                     {"images_per_second", r.imagesPerSecond},
                     {"reason", r.reason},
                     {"samples", samples}};
    return util::dumpJson(j, indent);
}

} // namespace fisura
