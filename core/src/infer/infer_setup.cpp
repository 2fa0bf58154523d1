// TiledInference::create() step by step: geometry, execution policy, the model on its device,
// the batch size, the warm-up and the network's CUDA graph.
#include "compat/torch_compat.h"

#include <algorithm>
#include <atomic>

#include "device/copy_stream.h"
#include "device/torch_step.h"
#include "fisura/options.h"
#include "fisura/sysinfo.h"
#include "fisura/testing.h"
#include "infer/infer_impl.h"
#include "io/task_pool.h"
#include "models/bn_relu.h"
#include "models/unet_infer.h"
#include "util/address_space.h"

namespace fisura
{

using infer_detail::addChoice;

namespace
{

std::atomic<int> g_cudnnBenchmark{-1}; // testing::setInferenceCudnnBenchmark
using Clock = std::chrono::steady_clock;
using detail::secondsSince;

int defaultOverlap(const ModelInfo& i, int tile)
{
    if (i.tileOverlap >= 0)
        return std::min(i.tileOverlap, tile / 2);
    switch (i.config.type) {
    case ModelType::UNet:
        return tile / 8; // the outer pixels see little context
    case ModelType::Classifier:
        return tile / 2; // a patch every half patch: a smoother heatmap
    case ModelType::Autoencoder:
    case ModelType::PatchGaussian:
        return tile / 4;
    }
    return tile / 8;
}

} // namespace

void infer_detail::addChoice(ExecutionPolicy& p, const std::string& what, const std::string& value,
                             const std::string& reason, const std::string& id,
                             const std::string& arg)
{
    for (auto& c : p.choices)
        if (c.what == what) {
            c = {what, value, reason, id, arg};
            return;
        }
    p.choices.push_back({what, value, reason, id, arg});
}

Result<std::unique_ptr<TiledInference>> TiledInference::create(Model model, const InferOptions& o,
                                                               const CancelToken& cancel,
                                                               ProgressSink* progress)
{
    const auto prepareStart = Clock::now();
    if (Status s = validate(o); !s)
        return s;
    if (!model.impl() || (!model.impl()->net && !model.impl()->script))
        return Status(ErrorCode::InvalidArgument, "no model loaded");
    auto d = std::make_unique<Impl>();
    if (Status s = d->chooseGeometry(model, o); !s)
        return s;
    d->chooseExecution(model, o);
    // Under ulimit -v, LibTorch crashes or hangs where it runs out (util/address_space.h).
    if (Status s = util::checkAddressSpace(d->roomNeeded(0), "preparing the model"); !s)
        return s;
    if (Status s = d->placeModel(std::move(model)); !s)
        return s;
    if (Status s = d->chooseBatch(o, cancel, progress); !s)
        return s;
    if (Status s = d->warmUp(); !s)
        return s;
    if (Status s = d->addReplicas(cancel); !s)
        return s;
    d->prepareHalfBatch();
    d->warmPinnedBatches();
    d->prepareSeconds = secondsSince(prepareStart);
    for (auto& r : d->replicas)
        r->prepareSeconds = d->prepareSeconds;
    return std::unique_ptr<TiledInference>(new TiledInference(std::move(d)));
}

/// The pinned host buffers a run's batches will use, allocated once here and handed back to
/// LibTorch's pinned-memory cache, which gives them to the run's readers. A run allocated them
/// itself: on 4 GPUs, 16 page-locked buffers of 16 MB as its threads started, and its first
/// batches came 30-60 ms later than with the buffers allocated here (tests/bench/RESULTS.md).
/// As many as roomNeeded() counts per device: the batches being filled and those on their way.
void TiledInference::Impl::warmPinnedBatches()
{
    if (!pol.useCuda || !pol.pinnedMemory)
        return;
    // A split run's bands use the batch prepared for them (multi_device.cpp), others the batch.
    const int b = lanes() > 1 && bandGraphBatch > 0 ? bandGraphBatch : batch;
    const int n = (std::max(1, opt.prefetchBatches) + 2) * lanes();
    const auto pinned = torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(true);
    try {
        std::vector<torch::Tensor> held;
        held.reserve(size_t(n));
        for (int i = 0; i < n; ++i) // all held at once, so each is a buffer of its own
            held.push_back(torch::empty({b, tile, tile, channels}, pinned));
    } catch (const std::exception&) {
        // Short of page-locked memory: runs allocate what they can, as before.
    }
}

uint64_t TiledInference::Impl::roomNeeded(int width) const
{
    const uint64_t stack = util::threadStackBytes();
    // LibTorch's intra-op teams (OpenMP and its pthreadpool) start threads of their own.
    const int intraOp =
        pol.intraOpThreads > 0 ? pol.intraOpThreads : io::TaskPool::resolveThreads(0);
    if (width <= 0) // the model, LibTorch's pools and the warm-up: a small U-Net's create()
        return (128ull << 20) + uint64_t(2 * intraOp) * stack; // mapped 159 MiB with 2 cores
    // A run: the input batches waiting and in flight (uint8 and their float copies), finished
    // rows waiting for the writer and the blending band (float), the readers' and the writer's
    // threads, and a little for the rest. The network's workspace is mapped already: the
    // warm-up ran the same batch, and malloc keeps what it freed (util/malloc_tuning.h).
    const uint64_t tileBytes = uint64_t(tile) * uint64_t(tile);
    const uint64_t batches = uint64_t(std::max(1, opt.prefetchBatches) + 2) * uint64_t(batch) *
                             tileBytes * (uint64_t(channels) * 5 + 4);
    const uint64_t rows = uint64_t(detail::kMaxOutQueue + 2) * uint64_t(tile) * uint64_t(width) * 4;
    // Readers, the map writer's compressing pool, its file thread and the map writer thread.
    const int threads =
        std::clamp(pol.loaderThreads, 1, 32) + io::TaskPool::resolveThreads(opt.output.threads) + 2;
    return batches + rows + uint64_t(threads) * stack + (8ull << 20);
}

/// Map kind, tile, overlap, channels and scale from the model and the options, checked.
Status TiledInference::Impl::chooseGeometry(const Model& m, const InferOptions& o)
{
    const ModelInfo& info = m.info();
    kind = mapKindFor(info.config.type);
    tile = inferenceTile(info, o);
    if (tile < 16 || tile > 4096)
        return Status(ErrorCode::InvalidArgument, "tile size must be 16..4096 px");
    if (info.config.type != ModelType::UNet && tile != info.config.inputSize)
        return Status(ErrorCode::InvalidArgument,
                      std::string("a ") + modelTypeName(info.config.type) + " takes tiles of " +
                          std::to_string(info.config.inputSize) + " px, its input size");
    if (info.config.type == ModelType::UNet && !m.isTorchScript()) {
        const int unit = 1 << std::max(0, info.config.depth);
        if (tile % unit != 0)
            return Status(ErrorCode::InvalidArgument,
                          "this U-Net needs tiles that are a multiple of " + std::to_string(unit) +
                              " px");
    }
    overlap = o.overlap >= 0 ? o.overlap : defaultOverlap(info, tile);
    if (overlap > tile / 2)
        return Status(ErrorCode::InvalidArgument, "overlap must be at most half the tile (" +
                                                      std::to_string(tile / 2) + " px)");
    channels = info.inputChannels;
    if (int(info.mean.size()) != channels || int(info.std.size()) != channels)
        return Status(ErrorCode::Corrupt, "model normalization does not match its channels");
    positive = 1;
    for (size_t i = 0; i < info.classNames.size(); ++i)
        if (info.classNames[i] == "cracked" || info.classNames[i] == "crack")
            positive = int(i);
    scale = kind == MapKind::Score ? float(128.0 / std::max(1e-12, info.threshold)) : 255.f;
    opt = o;
    return Status::ok();
}

/// The execution policy for this model on this machine, with the user's overrides.
void TiledInference::Impl::chooseExecution(const Model& m, const InferOptions& o)
{
    const ModelInfo& info = m.info();
    const PolicyRequest req = policyRequestFor(info, o); // asks about `tile`: inferenceTile too
    const MachineInfo machine = queryMachine();
    pol = choosePolicy(machine, req);
    chooseDevices(machine, o);
    if (g_cudnnBenchmark.load() >= 0 && pol.useCuda) {
        pol.cudnnBenchmark = g_cudnnBenchmark.load() == 1;
        addChoice(pol, "cudnn_benchmark", pol.cudnnBenchmark ? "on" : "off", "set by a benchmark",
                  "user");
    }
    if (o.readerThreads > 0) {
        pol.loaderThreads = o.readerThreads;
        addChoice(pol, "loader_threads", std::to_string(o.readerThreads), "requested by the user",
                  "user");
    }
    if (m.isTorchScript() && pol.channelsLast) {
        pol.channelsLast = false;
        addChoice(pol, "channels_last", "off", "imported TorchScript models keep their layout",
                  "nhwc_script");
    }
    if (m.isTorchScript() && pol.foldBatchNorm) {
        pol.foldBatchNorm = false;
        addChoice(pol, "batchnorm_fold", "off", "imported TorchScript models run as they are",
                  "bn_fold_script");
    }
    if (o.output.compression == TileCompression::Zstd)
        addChoice(pol, "map_level", o.output.adaptiveLevel ? "adaptive" : "fixed",
                  o.output.adaptiveLevel
                      ? "compressing the map must not hold the GPUs back: the level drops while "
                        "the writer is what limits the job (zstd's --adapt), down to zstd's fast "
                        "levels where they are measured to compress faster, and climbs back once "
                        "it keeps up; the run's statistics say how many bands and what it cost in "
                        "map size"
                      : "requested by the user",
                  o.output.adaptiveLevel ? "map_level_adaptive" : "user");
    if (pol.useCuda && pol.foldBatchNorm && models::convBiasReluAvailable() &&
        info.config.type != ModelType::PatchGaussian)
        addChoice(pol, "conv_bias_relu", "fused",
                  "cuDNN's fused convolution + bias + ReLU on the folded network",
                  "conv_relu_cudnn");
    if (pol.useCuda && info.config.type == ModelType::UNet && !m.isTorchScript()) {
        if (models::unetInferenceKernelsEnabled())
            addChoice(pol, "unet_kernels", "fisura",
                      "Fisura's kernels: max pooling without indices, the decoder's "
                      "concatenation with the upsampling bias in one pass",
                      "unet_kernels");
        else
            addChoice(pol, "unet_kernels", "aten",
                      models::unetInferenceKernelsBuilt()
                          ? "Fisura's U-Net kernels are turned off"
                          : "this build has no CUDA compiler for Fisura's U-Net kernels",
                      models::unetInferenceKernelsBuilt() ? "unet_kernels_off"
                                                          : "unet_kernels_not_built");
    }
}

/// The model on the chosen device, in eval mode and layout, with its normalisation there too.
Status TiledInference::Impl::placeModel(Model m)
{
    try {
        device = pol.useCuda ? torch::Device(torch::kCUDA, int8_t(pol.deviceIndex))
                             : torch::Device(torch::kCPU);
        amp = pol.useCuda && pol.precision != Precision::FP32;
        cpuAmp = !pol.useCuda && pol.precision == Precision::BF16;
        applyCpuSettings(pol);
        ampType = pol.precision == Precision::FP16 ? at::kHalf : at::kBFloat16;
        if (pol.useCuda) {
            at::globalContext().setAllowTF32CuBLAS(pol.tf32);
            at::globalContext().setAllowTF32CuDNN(pol.tf32);
            at::globalContext().setBenchmarkCuDNN(pol.cudnnBenchmark);
            at::globalContext().setDeterministicCuDNN(!pol.cudnnBenchmark);
        }
        model = std::move(m);
        model.impl()->to(device);
        model.impl()->eval();
        // Inference runs a folded copy; the model's own network stays as it was trained.
        if (pol.foldBatchNorm && model.impl()->net)
            model.impl()->inference = models::foldedCopy(*model.impl()->net, model.info().config);
        if (pol.channelsLast && model.impl()->net)
            for (auto& p : (model.impl()->inference ? model.impl()->inference : model.impl()->net)
                               ->parameters())
                if (p.dim() == 4)
                    p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
        const auto fopt = torch::TensorOptions().dtype(torch::kFloat).device(device);
        mean = torch::tensor(model.info().mean, fopt).view({1, -1, 1, 1});
        stdv = torch::tensor(model.info().std, fopt).view({1, -1, 1, 1});
        inScale = (255.f * stdv).reciprocal();
        inShift = -mean / stdv;
    } catch (const c10::Error& e) {
        return detail::torchErrorStatus(e);
    }
    return Status::ok();
}

/// The batch size: the user's, a small one on the CPU, or measured on the GPU.
Status TiledInference::Impl::chooseBatch(const InferOptions& o, const CancelToken& cancel,
                                         ProgressSink* progress)
{
    if (o.batchSize > 0) {
        batch = o.batchSize;
    } else if (!pol.useCuda) {
        // One forward pass cannot be interrupted: keep it short so cancel answers at once.
        batch = std::max(1, (512 * 512) / (tile * tile));
        pol.batchSize = batch;
        addChoice(pol, "batch_size", std::to_string(batch),
                  "small CPU batches keep cancellation prompt", "batch_cpu_infer");
    } else {
        auto step = [&](int b) {
            return detail::guardTorchStep([&] {
                c10::InferenceMode guard;
                auto x = torch::randint(0, 256, {b, tile, tile, channels},
                                        torch::TensorOptions().dtype(torch::kUInt8).device(device));
                (void)mapOf(x);
            });
        };
        BatchProbeOptions po;
        po.deviceIndex = pol.deviceIndex;
        // Host memory holds a few batches (pinned, in power-of-two blocks): at most 32 MiB of
        // input pixels per batch. Larger batches add little once the device is busy, and
        // they count against the host memory bound.
        const int64_t tileBytes = int64_t(tile) * tile * channels;
        po.maxBatch = int(std::clamp<int64_t>((32ll << 20) / tileBytes, 1, 256));
        po.timedSteps = 2;
        const bool bench = pol.cudnnBenchmark; // autotuning every probed size costs minutes
        at::globalContext().setBenchmarkCuDNN(false);
        auto probe = probeBatchSize(step, po, cancel, progress);
        at::globalContext().setBenchmarkCuDNN(bench);
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "cancelled while measuring the batch size");
        if (probe)
            applyProbe(pol, *probe);
        batch = pol.batchSize;
    }
    pol.batchSize = batch;
    return Status::ok();
}

/// Warm-up at the real batch size, so one-time costs (cuDNN autotuning, TorchScript's
/// profiling runs and fusion) belong to preparation, not to the first scan. Then the network's
/// rate as runs will see it (networkTilesPerSecond): on a GPU three batches more, through the
/// graph when there is one; on the processor the warm-up's own batch (a batch takes long there,
/// and its one-time costs only make the rate lower: the CPU's network is the limit anyway).
Status TiledInference::Impl::warmUp()
{
    return detail::guardTorchStep([&] {
        c10::InferenceMode guard;
        auto x = torch::randint(0, 256, {batch, tile, tile, channels},
                                torch::TensorOptions().dtype(torch::kUInt8).device(device));
        auto t0 = Clock::now();
        for (int i = 0; i < (model.isTorchScript() ? 3 : 1); ++i)
            (void)mapOf(x);
        int timed = model.isTorchScript() ? 3 : 1;
        captureGraph(x);
        detail::StreamMark(device).wait();
        if (pol.useCuda) {
            timed = 3;
            t0 = Clock::now();
            for (int i = 0; i < timed; ++i)
                (void)networkOf(x);
            detail::StreamMark(device).wait();
        }
        networkTilesPerSecond = double(timed) * batch / std::max(1e-9, secondsSince(t0));
    });
}

namespace
{
std::atomic<bool> g_inferenceGraphs{true};
} // namespace

void testing::setInferenceGraphs(bool enabled)
{
    g_inferenceGraphs.store(enabled);
}

void testing::setInferenceCudnnBenchmark(int mode)
{
    g_cudnnBenchmark.store(mode < 0 ? -1 : mode > 0 ? 1 : 0);
}

/// The tile batch's network as a CUDA graph where it can be: a GPU, Fisura's own network (a
/// TorchScript module runs its own executor), graphs not turned off. The policy says which.
void TiledInference::Impl::captureGraph(const torch::Tensor& example)
{
    if (!pol.useCuda)
        return;
    std::string value = "eager", reason, id, detail;
    if (!g_inferenceGraphs.load()) {
        reason = "the network runs op by op (CUDA graphs turned off)";
        id = "infer_graph_off";
    } else if (model.isTorchScript()) {
        reason = "an imported TorchScript module runs op by op through its own executor";
        id = "infer_graph_script";
    } else {
        auto g = std::make_unique<detail::NetworkGraph>();
        detail = g->capture([this](const torch::Tensor& u8) { return mapOf(u8); }, example);
        if (detail.empty()) {
            graph = std::move(g);
            value = "cuda-graph";
            reason = "the network of a tile batch is captured once as a CUDA graph and replayed: "
                     "one launch per batch";
            id = "infer_graph";
        } else {
            reason =
                "capturing the network as a CUDA graph failed (" + detail + "); it runs op by op";
            id = "infer_graph_failed";
        }
    }
    addChoice(pol, "network_graph", value, reason, id, detail);
}

} // namespace fisura
