// Tiled inference: the facade (create, run, timeNetworkOnly, JSON) and the orchestration of its
// three stages, which run concurrently and meet at two bounded queues (pipeline_queues.h):
//
//   TileReader (threads)  --BatchQueue-->  DeviceStage (this thread)  --RowQueue-->  MapWriter
//   decode tiles in raster     pinned      upload, network, blend         uint8     stream rows
//   order into batches        batches      into a ring of rows            rows      into the TIFF
//
// Memory is O(width x tile) on the device and O(prefetch x batch x tile^2) on the host, whatever
// the image height. The split follows libvips' sink_disc, which keeps the reader, the per-thread
// work and the ordered writer apart.
#include "compat/torch_compat.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "device/copy_stream.h"
#include "device/torch_step.h"
#include "device_stage.h"
#include "fisura/infer.h"
#include "fisura/sysinfo.h"
#include "map_writer.h"
#include "models/bn_relu.h"
#include "models/model_impl.h"
#include "pipeline_queues.h"
#include "scan_source.h"
#include "tile_reader.h"

namespace fs = std::filesystem;

namespace fisura
{

const char* mapKindName(MapKind k)
{
    switch (k) {
    case MapKind::Probability:
        return "probability";
    case MapKind::Heatmap:
        return "heatmap";
    case MapKind::Score:
        return "score";
    }
    return "probability";
}

MapKind mapKindFor(ModelType type)
{
    switch (type) {
    case ModelType::UNet:
        return MapKind::Probability;
    case ModelType::Classifier:
        return MapKind::Heatmap;
    case ModelType::Autoencoder:
    case ModelType::PatchGaussian:
        return MapKind::Score;
    }
    return MapKind::Probability;
}

std::vector<int> tileOrigins(int length, int tile, int overlap)
{
    if (length <= tile)
        return {0};
    const int stride = std::max(1, tile - overlap);
    std::vector<int> origins;
    for (int p = 0; p + tile < length; p += stride)
        origins.push_back(p);
    origins.push_back(length - tile);
    return origins;
}

uint64_t peakResidentBytes()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stoull(line.substr(6)) * 1024ull;
    return 0;
}

namespace
{

using Clock = std::chrono::steady_clock;
using detail::secondsSince;

/// Blocks of finished rows waiting for the writer, at most.
constexpr size_t kMaxOutQueue = 6;

} // namespace

// ---------------------------------------------------------------------------------------------

struct TiledInference::Impl {
    Model model;
    InferOptions opt;
    ExecutionPolicy pol;
    torch::Device device{torch::kCPU};
    MapKind kind = MapKind::Probability;
    int tile = 0, overlap = 0, batch = 1, positive = 0, channels = 3;
    bool amp = false;    // CUDA autocast
    bool cpuAmp = false; // CPU autocast (bf16, oneDNN)
    at::ScalarType ampType = at::kBFloat16;
    torch::Tensor mean, stdv;  // [1, C, 1, 1] on the device
    float scale = 255.f;       // map value -> byte
    double prepareSeconds = 0; // create(): device set-up, batch probe, warm-up

    /// uint8 NHWC tiles on the device -> per-pixel map [n, tile, tile] (float).
    torch::Tensor mapOf(const torch::Tensor& u8)
    {
        torch::Tensor x = u8.permute({0, 3, 1, 2}).to(torch::kFloat).div_(255.f);
        x = (x - mean) / stdv;
        x = pol.channelsLast ? x.contiguous(at::MemoryFormat::ChannelsLast) : x.contiguous();
        torch::Tensor y;
        {
            compat::CudaAutocast ac(amp, ampType);
            compat::CpuAutocast cac(cpuAmp);
            y = model.impl()->predict(x);
        }
        switch (kind) {
        case MapKind::Probability:
            return y.select(1, 0);
        case MapKind::Heatmap: {
            const int64_t col = y.size(1) == 1 ? 0 : std::min<int64_t>(positive, y.size(1) - 1);
            return y.select(1, col).view({-1, 1, 1}).expand({y.size(0), tile, tile});
        }
        case MapKind::Score:
            return model.impl()->anomalyScore(x, y);
        }
        return y;
    }

    // create(), step by step.
    // (`m` is the model being prepared; it becomes the member `model` in placeModel().)
    Status chooseGeometry(const Model& m, const InferOptions& o);
    void chooseExecution(const Model& m, const InferOptions& o);
    Status placeModel(Model m);
    Status chooseBatch(const InferOptions& o, const CancelToken& cancel, ProgressSink* progress);
    Status warmUp();

    Result<InferStats> run(const std::string& in, const std::string& out, const CancelToken& cancel,
                           ProgressSink* progress);
    /// The three stages over an open source, writing into `writer`; the StopFlag's status.
    Status runStages(const detail::ScanSource& src, detail::MapWriter::RowSink sink,
                     const detail::TileGrid& grid, Clock::time_point started,
                     const CancelToken& cancel, ProgressTracker& tracker, InferStats& stats);
    detail::DeviceSetup deviceSetup();
};

namespace
{

int defaultTile(const ModelInfo& i)
{
    if (i.tileSize > 0)
        return i.tileSize;
    if (i.config.type != ModelType::UNet)
        return i.config.inputSize;
    // Fully convolutional: larger tiles waste less on overlap and keep the device busy.
    const int unit = 1 << std::max(0, i.config.depth);
    const int t = std::max(i.config.inputSize, 512);
    return (t + unit - 1) / unit * unit;
}

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

void addChoice(ExecutionPolicy& p, const std::string& what, const std::string& value,
               const std::string& reason, const std::string& id, const std::string& arg = {})
{
    for (auto& c : p.choices)
        if (c.what == what) {
            c = {what, value, reason, id, arg};
            return;
        }
    p.choices.push_back({what, value, reason, id, arg});
}

} // namespace

TiledInference::TiledInference(std::unique_ptr<Impl> impl) : d_(std::move(impl)) {}
TiledInference::~TiledInference() = default;
const ExecutionPolicy& TiledInference::policy() const
{
    return d_->pol;
}
const Model& TiledInference::model() const
{
    return d_->model;
}
MapKind TiledInference::kind() const
{
    return d_->kind;
}
int TiledInference::tileSize() const
{
    return d_->tile;
}
int TiledInference::overlap() const
{
    return d_->overlap;
}

Result<std::unique_ptr<TiledInference>> TiledInference::create(Model model, const InferOptions& o,
                                                               const CancelToken& cancel,
                                                               ProgressSink* progress)
{
    const auto prepareStart = Clock::now();
    if (!model.impl() || (!model.impl()->net && !model.impl()->script))
        return Status(ErrorCode::InvalidArgument, "no model loaded");
    auto d = std::make_unique<Impl>();
    if (Status s = d->chooseGeometry(model, o); !s)
        return s;
    d->chooseExecution(model, o);
    if (Status s = d->placeModel(std::move(model)); !s)
        return s;
    if (Status s = d->chooseBatch(o, cancel, progress); !s)
        return s;
    if (Status s = d->warmUp(); !s)
        return s;
    d->prepareSeconds = secondsSince(prepareStart);
    return std::unique_ptr<TiledInference>(new TiledInference(std::move(d)));
}

/// Map kind, tile, overlap, channels and scale from the model and the options, checked.
Status TiledInference::Impl::chooseGeometry(const Model& m, const InferOptions& o)
{
    const ModelInfo& info = m.info();
    kind = mapKindFor(info.config.type);
    tile = o.tileSize > 0 ? o.tileSize : defaultTile(info);
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
    PolicyRequest req;
    req.kind = JobKind::Infer;
    req.model = modelTypeName(info.config.type);
    req.inputSize = tile;
    req.precision = o.precision;
    req.batchSize = o.batchSize;
    req.preferCpu = o.preferCpu;
    req.intraOpThreads = o.intraOpThreads;
    req.interOpThreads = o.interOpThreads;
    pol = choosePolicy(queryMachine(), req);
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
    if (pol.useCuda && pol.foldBatchNorm && models::convBiasReluAvailable() &&
        info.config.type != ModelType::PatchGaussian)
        addChoice(pol, "conv_bias_relu", "fused",
                  "cuDNN's fused convolution + bias + ReLU on the folded network",
                  "conv_relu_cudnn");
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
    } catch (const c10::Error& e) {
        return Status(ErrorCode::DeviceError, e.what_without_backtrace());
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
/// profiling runs and fusion) belong to preparation, not to the first scan.
Status TiledInference::Impl::warmUp()
{
    return detail::guardTorchStep([&] {
        c10::InferenceMode guard;
        auto x = torch::randint(0, 256, {batch, tile, tile, channels},
                                torch::TensorOptions().dtype(torch::kUInt8).device(device));
        for (int i = 0; i < (model.isTorchScript() ? 3 : 1); ++i)
            (void)mapOf(x);
        detail::StreamMark(device).wait();
    });
}

Result<InferStats> TiledInference::run(const std::string& in, const std::string& out,
                                       const CancelToken& cancel, ProgressSink* progress)
{
    return d_->run(in, out, cancel, progress);
}

Result<InferStats> TiledInference::Impl::run(const std::string& inPath, const std::string& outPath,
                                             const CancelToken& cancel, ProgressSink* progress)
{
    const auto started = Clock::now();
    // This thread runs the network: LibTorch's OpenMP team size is per thread.
    applyCpuSettings(pol);
    std::error_code ec;
    if (fs::exists(outPath, ec) && fs::equivalent(inPath, outPath, ec))
        return Status(ErrorCode::InvalidArgument,
                      "the output would overwrite the input: " + outPath);
    auto opened = detail::ScanSource::open(inPath, opt);
    if (!opened)
        return opened.status();
    const detail::ScanSource src = std::move(*opened);
    const int W = src.width, H = src.height;
    src.cacheTileRow(tile, opt.cacheBytes); // tiles are read in raster order

    TiledWriteOptions wo = opt.output;
    wo.pixelSizeXmm = src.pixelSizeXmm;
    wo.pixelSizeYmm = src.pixelSizeYmm;
    wo.extraTags = src.geoTags;
    auto created = TiledTiffWriter::create(outPath, W, H, 1, wo);
    if (!created)
        return created.status();
    std::unique_ptr<TiledTiffWriter> writer = std::move(*created);

    const detail::TileGrid grid = detail::TileGrid::make(W, H, tile, overlap);
    ProgressTracker tracker(progress, double(H) * 1.02); // the last 2 %: overviews
    InferStats st;
    auto sink = [&w = *writer](const Image& r) { return w.appendRows(r); };
    if (Status s = runStages(src, sink, grid, started, cancel, tracker, st); !s) {
        writer->abort();
        if (s.code() == ErrorCode::Cancelled && s.detail().find(outPath) == std::string::npos)
            return Status(ErrorCode::Cancelled, s.detail() + ": " + outPath + " was not written");
        return s;
    }
    if (writer->rowsWritten() != H) {
        writer->abort();
        return Status(ErrorCode::Internal, "tiled inference wrote " +
                                               std::to_string(writer->rowsWritten()) + " of " +
                                               std::to_string(H) + " rows");
    }
    tracker.update(H, "writing overviews");
    const auto finishStart = Clock::now();
    if (Status s = writer->finish(cancel); !s) {
        writer->abort();
        return s;
    }
    tracker.finish("done");

    st.input = inPath;
    st.output = outPath;
    st.width = W;
    st.height = H;
    st.kind = kind;
    st.tileSize = tile;
    st.overlap = overlap;
    st.batchSize = batch;
    st.tiles = int64_t(grid.tiles.size());
    st.seconds = secondsSince(started);
    st.megapixelsPerSecond = double(W) * double(H) / 1e6 / std::max(1e-9, st.seconds);
    st.finishSeconds = secondsSince(finishStart);
    st.prepareSeconds = prepareSeconds;
    st.peakRssBytes = peakResidentBytes();
    st.device = pol.useCuda ? "cuda:" + std::to_string(pol.deviceIndex) : "cpu";
    st.precision = precisionName(pol.precision);
    return st;
}

detail::DeviceSetup TiledInference::Impl::deviceSetup()
{
    detail::DeviceSetup ds;
    ds.device = device;
    ds.pinned = pol.pinnedMemory;
    ds.scale = scale;
    ds.batch = batch;
    ds.overlap = overlap;
    ds.window = opt.window;
    ds.network = [this](const torch::Tensor& u8) { return mapOf(u8); };
    return ds;
}

/// Readers and the writer on their own threads, the device stage on this one; then the
/// shutdown in pipeline order. Fills the pipeline's share of `stats` (memory, waits, reads).
Status TiledInference::Impl::runStages(const detail::ScanSource& src,
                                       detail::MapWriter::RowSink sink,
                                       const detail::TileGrid& grid, Clock::time_point started,
                                       const CancelToken& cancel, ProgressTracker& tracker,
                                       InferStats& stats)
{
    detail::StopFlag stop(cancel);
    detail::MemoryMeter meter;
    detail::BatchQueue::Shape shape;
    shape.tiles = int64_t(grid.tiles.size());
    shape.batch = batch;
    shape.tile = tile;
    shape.channels = channels;
    shape.prefetch = std::max(1, opt.prefetchBatches);
    shape.pinned = pol.pinnedMemory;
    detail::BatchQueue batches(shape, stop, meter);
    detail::RowQueue rows(kMaxOutQueue, stop, meter);

    detail::TileReader readers(src, grid, batches, stop, channels);
    detail::MapWriter mapWriter(std::move(sink), rows, grid.width);
    readers.start(std::clamp(pol.loaderThreads, 1, 32));
    mapWriter.start();

    const detail::DeviceSetup setup = deviceSetup();
    // Progress counts tiles computed, in image rows: smooth (one report per batch) and not
    // behind the work by the blending band the way rows written are.
    const int64_t nTiles = int64_t(grid.tiles.size());
    auto report = [&](int64_t tilesDone) {
        const double done = double(grid.height) * double(tilesDone) / double(nTiles);
        const double mps = done * grid.width / 1e6 / std::max(1e-6, secondsSince(started));
        char msg[96];
        std::snprintf(msg, sizeof msg, "tile %lld/%lld, %.1f MP/s", (long long)tilesDone,
                      (long long)nTiles, mps);
        tracker.update(done, msg);
    };
    detail::DeviceStage deviceStage(setup, grid, batches, rows, stop, meter, report);
    if (Status s = deviceStage.run(); !s)
        stop.fail(s);

    // The writer drains what the device queued (or stops); then readers still waiting for room
    // find nothing left to claim.
    rows.close();
    batches.wake();
    mapWriter.join();
    batches.close();
    rows.wake();
    readers.join();

    stats.peakPipelineBytes = meter.peak();
    stats.inputWaitSeconds = deviceStage.inputWaitSeconds();
    stats.outputWaitSeconds = deviceStage.outputWaitSeconds();
    stats.readSeconds = readers.busySeconds();
    return stop.status();
}

Result<Image> TiledInference::runImage(const Image& image, const CancelToken& cancel,
                                       ProgressSink* progress)
{
    Impl& d = *d_;
    if (image.empty() || (image.channels != 1 && image.channels != 3 && image.channels != 4) ||
        image.pixels.size() != image.stride() * size_t(image.height))
        return Status(ErrorCode::InvalidArgument, "runImage needs a 1, 3 or 4 channel image");
    if (uint64_t(image.width) * uint64_t(image.height) > d.opt.maxFlatPixels)
        return Status(ErrorCode::InvalidArgument,
                      "the image is too large to infer in memory (" + std::to_string(image.width) +
                          " x " + std::to_string(image.height) + " px); run over its file instead");
    detail::ScanSource src;
    src.width = image.width;
    src.height = image.height;
    src.channels = image.channels;
    src.flat = image;
    Image out = Image::make(image.width, image.height, 1);
    int done = 0;
    auto sink = [&](const Image& r) {
        if (done + r.height > out.height || r.width != out.width)
            return Status(ErrorCode::Internal, "tiled inference gave rows beyond the image");
        std::copy(r.pixels.begin(), r.pixels.end(), out.row(done));
        done += r.height;
        return Status::ok();
    };
    const detail::TileGrid grid = detail::TileGrid::make(src.width, src.height, d.tile, d.overlap);
    ProgressTracker tracker(progress, double(src.height));
    InferStats st;
    if (Status s = d.runStages(src, sink, grid, Clock::now(), cancel, tracker, st); !s)
        return s;
    if (done != out.height)
        return Status(ErrorCode::Internal, "tiled inference wrote " + std::to_string(done) +
                                               " of " + std::to_string(out.height) + " rows");
    tracker.finish("done");
    return out;
}

Result<double> TiledInference::timeNetworkOnly(int64_t tiles, const CancelToken& cancel)
{
    Impl& d = *d_;
    double seconds = 0;
    Status s = detail::guardTorchStep([&] {
        c10::InferenceMode guard;
        auto x = torch::randint(0, 256, {d.batch, d.tile, d.tile, d.channels},
                                torch::TensorOptions().dtype(torch::kUInt8).device(d.device));
        (void)d.mapOf(x); // warm-up (cuDNN autotuning, allocator)
        detail::StreamMark(d.device).wait();
        const auto t0 = Clock::now();
        for (int64_t done = 0; done < tiles && !cancel.isCancelled(); done += d.batch)
            (void)d.mapOf(x);
        detail::StreamMark(d.device).wait();
        seconds = secondsSince(t0);
    });
    if (!s)
        return s;
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, "cancelled");
    return seconds;
}

} // namespace fisura
