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

#include <c10/core/DeviceGuard.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "device/copy_stream.h"
#include "device/torch_step.h"
#include "device_stage.h"
#include "fisura/infer.h"
#include "fisura/raster.h"
#include "fisura/sysinfo.h"
#include "infer/infer_impl.h"
#include "map_writer.h"
#include "models/bn_relu.h"
#include "models/model_impl.h"
#include "pace_forecast.h"
#include "pipeline_queues.h"
#include "scan_source.h"
#include "tile_reader.h"
#include "util/address_space.h"
#include "util/cpu_time.h"

namespace fs = std::filesystem;

namespace fisura
{

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

} // namespace

// ---------------------------------------------------------------------------------------------
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

Result<InferStats> TiledInference::run(const std::string& in, const std::string& out,
                                       const CancelToken& cancel, ProgressSink* progress)
{
    return d_->run(in, out, cancel, progress);
}

int TiledInference::deviceCount() const
{
    return d_->lanes();
}

Result<InferStats> TiledInference::runOn(int device, const std::string& in, const std::string& out,
                                         const CancelToken& cancel, ProgressSink* progress)
{
    if (device < 0 || device >= d_->lanes())
        return Status(ErrorCode::InvalidArgument, "no device " + std::to_string(device) +
                                                      " (this engine has " +
                                                      std::to_string(d_->lanes()) + ")");
    return d_->lane(device).run(in, out, cancel, progress, /*split=*/false);
}

Result<PaceForecast> TiledInference::forecast(const std::string& inputPath) const
{
    const RasterFormat format = rasterFormatOf(inputPath);
    if (format != RasterFormat::Tiff) {
        // Opened as a run would (its refusal, or a file decoded whole: no blocks to sample).
        if (format == RasterFormat::Unknown)
            if (auto opened = detail::ScanSource::open(inputPath, d_->opt); !opened)
                return opened.status();
        return d_->forecastFor(nullptr, rasterFormatName(format), 0, 0, true);
    }
    TiledOpenOptions o;
    o.limits = d_->opt.inputLimits;
    auto image = TiledImage::open(inputPath, o);
    if (!image)
        return image.status();
    const TiledImageInfo& i = (*image)->info();
    const PaceForecast f = d_->forecastFor(image->get(), i.compression, i.width, i.height, true);
    std::lock_guard<std::mutex> lock(d_->forecastMu);
    d_->forecastPath = inputPath;
    d_->forecastMade = f;
    return f;
}

PaceForecast TiledInference::Impl::forecastFor(const TiledImage* tiled,
                                               const std::string& compression, int W, int H,
                                               bool split) const
{
    PaceForecast f;
    f.inputCompression = compression;
    const size_t across = tileOrigins(std::max(1, W), tile, overlap).size();
    const size_t down = tileOrigins(std::max(1, H), tile, overlap).size();
    const int n = split && lanes() > 1 && across > 1 ? lanes() : 1; // as runStages splits
    // The reader threads runStages / runSplit start, on the cores there are.
    f.readerThreads =
        std::min(readersPerBand(n) * n, std::max(1, int(std::thread::hardware_concurrency())));
    // The processor's "devices" (column bands in tests) share its cores: one network rate.
    f.devices = pol.useCuda ? n : 1;
    if (tiled) {
        const detail::DecodeSample sample = detail::sampleDecoding(*tiled);
        f.decodeMegapixelsPerThread = sample.megapixelsPerSecond();
    }
    f.decodeMegapixelsPerSecond =
        f.decodeMegapixelsPerThread * f.readerThreads * PaceForecast::kReaderEfficiency;
    if (networkTilesPerSecond > 0 && W > 0 && H > 0)
        f.networkMegapixelsPerSecond =
            double(W) * double(H) / 1e6 * networkTilesPerSecond * f.devices / double(across * down);
    f.measured = f.decodeMegapixelsPerSecond > 0 && f.networkMegapixelsPerSecond > 0;
    f.limit = paceLimitOf(f.decodeMegapixelsPerSecond, f.networkMegapixelsPerSecond);
    return f;
}

bool TiledInference::splitPays(int width, int height) const
{
    const int n = d_->lanes();
    if (n < 2)
        return false;
    const auto g =
        detail::TileGrid::make(std::max(1, width), std::max(1, height), d_->tile, d_->overlap);
    return g.xs.size() >= 2 &&
           int64_t(g.tiles.size()) >= int64_t(n) * kSplitBatchesPerDevice * d_->batch;
}

Result<InferStats> TiledInference::Impl::run(const std::string& inPath, const std::string& outPath,
                                             const CancelToken& cancel, ProgressSink* progress,
                                             bool split)
{
    const auto started = Clock::now();
    const int64_t cpuStart = util::processCpuNanos();
    // Work queued from this thread goes to this replica's GPU.
    c10::OptionalDeviceGuard deviceGuard;
    if (device.is_cuda())
        deviceGuard.reset_device(device);
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
    if (Status s = util::checkAddressSpace(roomNeeded(W), "the map of " + inPath); !s)
        return s; // before LibTorch or the writer run out of it (util/address_space.h)
    src.cacheTileRow(tile, opt.cacheBytes); // tiles are read in raster order
    // Before any tile: a sample of the scan's blocks (they stay in the cache for the readers),
    // unless forecast() just sampled this scan for the caller.
    PaceForecast forecast;
    bool forecastKnown = false;
    {
        std::lock_guard<std::mutex> lock(forecastMu);
        forecastKnown = split && src.tiled && forecastPath == inPath;
        if (forecastKnown)
            forecast = forecastMade;
        forecastPath.clear();
    }
    if (!forecastKnown)
        forecast = forecastFor(src.tiled.get(), src.compression, W, H, split);

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
    // The graphs' replays so far on the devices this run uses (only this one unless split: the
    // others may be running scans of their own).
    const int used = split && pol.useCuda ? lanes() : 1; // CPU bands share this engine
    int64_t graphBefore = 0;
    for (int k = 0; k < used; ++k)
        graphBefore += lane(k).graphBatches.load();
    auto sink = [&w = *writer](int count, const TiledRowPart* parts, int n) {
        return w.appendRowParts(count, parts, n);
    };
    if (Status s = runStages(src, sink, grid, started, cancel, tracker, st, split); !s) {
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
    if (st.batchSize == 0)
        st.batchSize = batch;
    st.tiles = int64_t(grid.tiles.size());
    if (st.tilesComputed == 0)
        st.tilesComputed = st.tiles;
    for (int k = 0; k < used; ++k)
        st.graphBatches += lane(k).graphBatches.load();
    st.graphBatches -= graphBefore;
    st.seconds = secondsSince(started);
    st.cpuSeconds = double(util::processCpuNanos() - cpuStart) / 1e9;
    st.hostThreads = int(std::thread::hardware_concurrency());
    st.megapixelsPerSecond = double(W) * double(H) / 1e6 / std::max(1e-9, st.seconds);
    st.finishSeconds = secondsSince(finishStart);
    st.writer = writer->stats();
    st.forecast = forecast;
    st.prepareSeconds = prepareSeconds;
    st.peakRssBytes = peakResidentBytes();
    st.device = pol.useCuda ? "cuda:" + std::to_string(pol.deviceIndex) : "cpu";
    st.precision = precisionName(pol.precision);
    if (st.devices.empty())
        st.devices.push_back(st.device);
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
    ds.network = [this](const torch::Tensor& u8) { return networkOf(u8); };
    return ds;
}

/// Readers and the writer on their own threads, the device stage on this one; then the
/// shutdown in pipeline order. Fills the pipeline's share of `stats` (memory, waits, reads).
Status TiledInference::Impl::runStages(const detail::ScanSource& src,
                                       detail::MapWriter::RowSink sink,
                                       const detail::TileGrid& grid, Clock::time_point started,
                                       const CancelToken& cancel, ProgressTracker& tracker,
                                       InferStats& stats, bool split)
{
    if (split && lanes() > 1 && grid.xs.size() > 1)
        return runSplit(src, std::move(sink), grid, started, cancel, tracker, stats);
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
    detail::RowQueue rows(detail::kMaxOutQueue, stop, meter);

    detail::TileReader readers(src, grid, batches, stop, channels);
    detail::MapWriter mapWriter(std::move(sink), rows, grid.width);
    Status threads = readers.start(readersPerBand(1));
    if (threads)
        threads = mapWriter.start();
    if (!threads) // the shutdown below joins what did start
        stop.fail(threads);

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
    if (threads)
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
    stats.deviceWaitSeconds = deviceStage.deviceWaitSeconds();
    stats.readSeconds = readers.busySeconds();
    stats.readCpuSeconds = readers.cpuSeconds();
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
    src.flat = std::make_shared<const Image>(image);
    Image out = Image::make(image.width, image.height, 1);
    int done = 0;
    auto sink = [&](int count, const TiledRowPart* parts, int n) {
        if (done + count > out.height)
            return Status(ErrorCode::Internal, "tiled inference gave rows beyond the image");
        for (int i = 0; i < n; ++i)
            for (int r = 0; r < count; ++r)
                std::copy_n(parts[i].data + size_t(r) * parts[i].stride, size_t(parts[i].width),
                            out.row(done + r) + parts[i].x0);
        done += count;
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
        (void)d.networkOf(x); // warm-up (cuDNN autotuning, allocator)
        detail::StreamMark(d.device).wait();
        const auto t0 = Clock::now();
        for (int64_t done = 0; done < tiles && !cancel.isCancelled(); done += d.batch)
            (void)d.networkOf(x);
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