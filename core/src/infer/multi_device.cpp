// One scan over several devices: the column bands, the GPUs chosen, the model's replicas and the
// split run; see multi_device.h.
#include "compat/torch_compat.h"

#include <c10/core/DeviceGuard.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include "device/torch_step.h"
#include "fisura/sysinfo.h"
#include "fisura/testing.h"
#include "infer/infer_impl.h"
#include "map_writer.h"
#include "multi_device.h"
#include "row_assembler.h"
#include "tile_reader.h"
#include "util/thread_start.h"

namespace fisura
{

namespace
{
std::atomic<int> g_cpuBands{1};
std::atomic<int> g_failBand{-1};
std::atomic<bool> g_reverseDevices{false};
} // namespace

void testing::reverseSplitDevices(bool enabled)
{
    g_reverseDevices.store(enabled);
}

void testing::splitCpuInference(int bands)
{
    g_cpuBands.store(std::max(1, bands));
}

void testing::failSplitBand(int band)
{
    g_failBand.store(band);
}

namespace detail
{

std::vector<TileGrid> columnBands(const TileGrid& grid, int bands)
{
    const int cols = int(grid.xs.size());
    const int n = std::clamp(bands, 1, std::max(1, cols));
    if (n == 1)
        return {grid};
    std::vector<TileGrid> out;
    for (int k = 0; k < n; ++k) {
        const int c0 = k * cols / n, c1 = (k + 1) * cols / n; // the tile columns it owns
        TileGrid b = grid;
        b.tiles.clear();
        b.x0 = k == 0 ? 0 : grid.xs[size_t(c0)];
        b.x1 = k == n - 1 ? grid.width : grid.xs[size_t(c1)];
        // Every tile column reaching [x0, x1): origins grow, so they are one run of columns.
        int first = cols, last = -1;
        for (int c = 0; c < cols; ++c) {
            const int cx0 = grid.xs[size_t(c)];
            const int cx1 = cx0 + std::min(grid.tile, grid.width - cx0);
            if (cx0 < b.x1 && cx1 > b.x0) {
                first = std::min(first, c);
                last = std::max(last, c);
            }
        }
        for (const TileRef& t : grid.tiles)
            if (t.col >= first && t.col <= last)
                b.tiles.push_back(t);
        b.lastCol = last;
        out.push_back(std::move(b));
    }
    return out;
}

int splitBatchOf(const std::vector<TileGrid>& bands, int batch)
{
    int b = std::max(1, batch);
    for (const TileGrid& g : bands) {
        if (g.tiles.empty())
            continue;
        const int row = g.tiles.front().row; // the band's tiles are in raster order
        int columns = 0;
        for (const TileRef& t : g.tiles) {
            if (t.row != row)
                break;
            ++columns;
        }
        b = std::min(b, columns);
    }
    return b;
}

size_t splitRowQueue(int tile)
{
    const int chunksPerRow = (std::max(1, tile) + kChunkRows - 1) / kChunkRows;
    return std::max(kMaxOutQueue, size_t(2 * chunksPerRow));
}

DeviceChoice chooseGpus(const std::vector<GpuInfo>& gpus, int requested)
{
    DeviceChoice c;
    if (gpus.empty())
        return c;
    const GpuInfo& first = gpus.front();
    bool otherModels = false;
    for (const GpuInfo& g : gpus) {
        const bool same = g.name == first.name && g.computeMajor == first.computeMajor &&
                          g.computeMinor == first.computeMinor;
        otherModels = otherModels || !same;
        if (same && (requested <= 0 || int(c.indices.size()) < requested))
            c.indices.push_back(g.index);
    }
    const int n = int(c.indices.size());
    for (int i = 0; i < n; ++i)
        c.value += (i ? "," : "") + std::to_string(c.indices[size_t(i)]);
    if (requested == 1) {
        c.reason = "one GPU was requested";
        c.reasonId = "gpus_one";
    } else if (otherModels && (requested <= 0 || n < requested)) {
        c.reason = "only GPUs of the first one's model (" + first.name +
                   "): the bands stay balanced and the map does not depend on the GPU";
        c.reasonId = "gpus_same_model";
        c.reasonArg = first.name;
    } else if (requested > n) {
        c.reason = std::to_string(requested) + " GPUs were requested; all usable ones are used";
        c.reasonId = "gpus_fewer";
        c.reasonArg = std::to_string(requested);
    } else if (requested > 0) {
        c.reason = "requested by the user";
        c.reasonId = "user";
    } else if (n == 1) {
        c.reason = "the only usable GPU";
        c.reasonId = "gpus_single";
    } else {
        c.reason = "every usable GPU (" + std::to_string(n) +
                   "): each computes one band of tile columns of a scan";
        c.reasonId = "gpus_all";
        c.reasonArg = std::to_string(n);
    }
    return c;
}

} // namespace detail

using infer_detail::addChoice;

/// The policy's choice "gpus": which devices compute, and why.
void TiledInference::Impl::chooseDevices(const MachineInfo& machine, const InferOptions& o)
{
    gpuIndices.clear();
    cpuBands = 1;
    if (!pol.useCuda) {
        cpuBands = g_cpuBands.load();
        if (cpuBands > 1)
            addChoice(pol, "gpus", "cpu",
                      "the processor computes as " + std::to_string(cpuBands) +
                          " devices (column bands), as tests ask",
                      "gpus_cpu_bands", std::to_string(cpuBands));
        else
            addChoice(pol, "gpus", "cpu", "the processor computes", "gpus_none");
        return;
    }
    std::vector<GpuInfo> usable;
    for (const GpuInfo& g : machine.gpus)
        if (g.index == pol.deviceIndex) // the policy's device first
            usable.insert(usable.begin(), g);
        else
            usable.push_back(g);
    const detail::DeviceChoice c = detail::chooseGpus(usable, o.gpus);
    gpuIndices = c.indices.empty() ? std::vector<int>{pol.deviceIndex} : c.indices;
    addChoice(pol, "gpus", c.value, c.reason, c.reasonId, c.reasonArg);
}

namespace
{

/// A copy of `m` with its own weights (for another device).
Model replicaOf(const Model& m)
{
    torch::NoGradGuard noGrad;
    Model r;
    r.info() = m.info();
    const Model::Impl& from = *m.impl();
    r.impl()->scriptOutputsProbabilities = from.scriptOutputsProbabilities;
    if (from.script) {
        r.impl()->script = from.script->deepcopy();
        return r;
    }
    r.impl()->net = models::makeNetwork(m.info().config);
    auto dstP = r.impl()->net->named_parameters(true);
    for (const auto& p : from.net->named_parameters(true))
        dstP[p.key()].set_data(p.value().detach().clone());
    auto dstB = r.impl()->net->named_buffers(true);
    for (const auto& b : from.net->named_buffers(true))
        if (dstB.contains(b.key()) && b.value().defined())
            dstB[b.key()].set_data(b.value().detach().clone());
    return r;
}

} // namespace

/// The model on every other chosen GPU, with the first GPU's batch (measured once), warmed up
/// and its graph captured there.
Status TiledInference::Impl::addReplicas(const CancelToken& cancel)
{
    replicas.clear();
    for (size_t i = 1; i < gpuIndices.size(); ++i) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "cancelled while placing the model on the GPUs");
        auto r = std::make_unique<Impl>();
        if (Status s = r->chooseGeometry(model, opt); !s)
            return s;
        r->pol = pol;
        r->pol.deviceIndex = gpuIndices[i];
        const torch::Device dev(torch::kCUDA, int8_t(gpuIndices[i]));
        c10::OptionalDeviceGuard guard{c10::optional<c10::Device>(dev)};
        Model copy;
        if (Status s = detail::guardTorchStep([&] { copy = replicaOf(model); }); !s)
            return s;
        if (Status s = r->placeModel(std::move(copy)); !s)
            return s;
        r->batch = batch;
        if (Status s = r->warmUp(); !s)
            return Status(s.code(), "GPU " + std::to_string(gpuIndices[i]) + ": " + s.detail());
        replicas.push_back(std::move(r));
    }
    return Status::ok();
}

namespace detail
{

/// One column band's pipeline: readers -> batches -> its device stage (on its own thread) ->
/// its rows.
struct Band {
    detail::TileGrid grid;
    detail::DeviceSetup setup;
    std::unique_ptr<detail::BatchQueue> batches;
    std::unique_ptr<detail::RowQueue> rows;
    std::unique_ptr<detail::TileReader> readers;
    std::unique_ptr<detail::DeviceStage> stage;
    std::thread thread;
    std::atomic<int64_t> done{0}; // tiles computed
};

} // namespace detail

using detail::Band;

/// Band k's grid, its device's network, its queues and readers (not started).
std::unique_ptr<Band> TiledInference::Impl::makeBand(int k, const detail::TileGrid& grid,
                                                     int bandBatch, const detail::ScanSource& src,
                                                     detail::StopFlag& stop,
                                                     detail::MemoryMeter& meter)
{
    auto b = std::make_unique<Band>();
    b->grid = grid;
    b->setup = lane(g_reverseDevices.load() ? lanes() - 1 - k : k).deviceSetup();
    b->setup.batch = bandBatch;
    if (k == g_failBand.load()) {
        auto net = b->setup.network;
        auto calls = std::make_shared<int>(0);
        b->setup.network = [net, calls, k](const torch::Tensor& u8) {
            TORCH_CHECK(++*calls < 2, "column band ", k, " failed (test)");
            return net(u8);
        };
    }
    detail::BatchQueue::Shape shape;
    shape.tiles = int64_t(b->grid.tiles.size());
    shape.batch = bandBatch;
    shape.tile = tile;
    shape.channels = channels;
    shape.prefetch = std::max(1, opt.prefetchBatches);
    shape.pinned = pol.pinnedMemory;
    b->batches = std::make_unique<detail::BatchQueue>(shape, stop, meter);
    b->rows = std::make_unique<detail::RowQueue>(detail::splitRowQueue(tile), stop, meter);
    b->readers = std::make_unique<detail::TileReader>(src, b->grid, *b->batches, stop, channels);
    return b;
}

bool TiledInference::Impl::captureBandGraph(int b)
{
    if (b == batch || (bandGraph && bandGraphBatch == b))
        return true;
    bandGraph.reset();
    bandGraphBatch = 0;
    const c10::OptionalDeviceGuard guard{c10::optional<c10::Device>(device)};
    auto g = std::make_unique<detail::NetworkGraph>();
    std::string why;
    const Status s = detail::guardTorchStep([&] {
        c10::InferenceMode inference;
        const auto x = torch::randint(0, 256, {b, tile, tile, channels},
                                      torch::TensorOptions().dtype(torch::kUInt8).device(device));
        why = g->capture([this](const torch::Tensor& u8) { return mapOf(u8); }, x, graph.get());
    });
    if (!s || !why.empty())
        return false;
    bandGraph = std::move(g);
    bandGraphBatch = b;
    return true;
}

void TiledInference::Impl::prepareHalfBatch()
{
    if (!pol.useCuda || !graph || lanes() < 2 || batch < 2)
        return;
    const int half = (batch + 1) / 2;
    for (int k = 0; k < lanes(); ++k)
        if (!lane(k).captureBandGraph(half))
            return; // split runs capture what they need, or keep the batch
}

int TiledInference::Impl::prepareBandBatch(const std::vector<detail::TileGrid>& grids,
                                           double& seconds)
{
    // Only where the network runs as a graph on GPUs (where it was measured; a CPU's batch is
    // small already).
    if (!pol.useCuda || !graph)
        return batch;
    const int fits = detail::splitBatchOf(grids, batch);
    if (fits == batch)
        return batch;
    // The half batch prepared at create() where it fits (what was measured: 21 on bands of 22
    // to 24 tile columns), else the batch that fits, captured now.
    const int prepared = bandGraphBatch;
    const int b = prepared > 0 && prepared <= fits ? prepared : fits;
    bool captured = true;
    for (int k = 0; k < lanes(); ++k)
        captured = captured && lane(k).bandGraphBatch == b;
    if (captured)
        return b;
    const auto t0 = std::chrono::steady_clock::now();
    bool ok = true;
    for (int k = 0; k < lanes() && ok; ++k) // one device at a time, as addReplicas
        ok = lane(k).captureBandGraph(b);
    seconds = detail::secondsSince(t0);
    return ok ? b : batch;
}

Status TiledInference::Impl::runSplit(const detail::ScanSource& src,
                                      detail::MapWriter::RowSink sink, const detail::TileGrid& grid,
                                      std::chrono::steady_clock::time_point started,
                                      const CancelToken& cancel, ProgressTracker& tracker,
                                      InferStats& stats)
{
    const std::vector<detail::TileGrid> grids = detail::columnBands(grid, lanes());
    const int n = int(grids.size());
    const int bandBatch = prepareBandBatch(grids, stats.bandGraphSeconds);
    stats.batchSize = bandBatch;
    detail::StopFlag stop(cancel);
    detail::MemoryMeter meter;
    // The bands read neighbouring parts of the same rows, not always in step: room for more.
    src.cacheTileRow(tile + tile / 2, opt.cacheBytes);

    int64_t total = 0;
    std::vector<std::unique_ptr<Band>> bands;
    std::vector<detail::RowQueue*> bandRows;
    std::vector<int> x0s;
    for (int k = 0; k < n; ++k) {
        bands.push_back(makeBand(k, grids[size_t(k)], bandBatch, src, stop, meter));
        total += int64_t(bands.back()->grid.tiles.size());
        bandRows.push_back(bands.back()->rows.get());
        x0s.push_back(bands.back()->grid.x0);
    }

    const int readers = readersPerBand(n);
    for (auto& b : bands)
        if (Status s = b->readers->start(readers); !s)
            stop.fail(s); // the shutdown below joins what did start

    // Progress: tiles of every band, in image rows, reported by one device thread at a time.
    std::mutex progressMu;
    auto report = [&](Band& b, int64_t tilesDone) {
        b.done.store(tilesDone);
        std::unique_lock<std::mutex> l(progressMu, std::try_to_lock);
        if (!l.owns_lock())
            return; // another band is reporting: the next batch will
        int64_t sum = 0;
        for (const auto& o : bands)
            sum += o->done.load();
        const double done = double(grid.height) * double(sum) / double(std::max<int64_t>(1, total));
        const double mps = done * grid.width / 1e6 / std::max(1e-6, detail::secondsSince(started));
        char msg[112];
        std::snprintf(msg, sizeof msg, "tile %lld/%lld on %d devices, %.1f MP/s", (long long)sum,
                      (long long)total, n, mps);
        tracker.update(done, msg);
    };
    for (auto& bp : bands) {
        Band& b = *bp;
        b.stage =
            std::make_unique<detail::DeviceStage>(b.setup, b.grid, *b.batches, *b.rows, stop, meter,
                                                  [&report, &b](int64_t done) { report(b, done); });
        const Status started =
            util::startThread(b.thread, "fisura-gpu", "a device", [this, &b, &stop] {
                c10::OptionalDeviceGuard guard;
                if (b.setup.device.is_cuda())
                    guard.reset_device(b.setup.device);
                else
                    applyCpuSettings(pol); // this thread's OpenMP team
                try {
                    if (Status s = b.stage->run(); !s)
                        stop.fail(s);
                } catch (const std::exception& e) {
                    stop.fail(Status(ErrorCode::Internal, std::string("column band: ") + e.what()));
                }
                b.rows->close();
            });
        if (!started) {
            stop.fail(started);
            b.rows->close();
        }
    }

    // This thread hands the bands' rows to the map (the writer's appending thread).
    detail::RowAssembler assembler(bandRows, x0s, grid.width, std::move(sink), stop);
    if (Status s = assembler.run(); !s)
        stop.fail(s);

    // Shutdown in pipeline order: the device threads (done, or stopped), then readers still
    // waiting for room.
    for (auto& b : bands) {
        b->batches->wake();
        b->rows->wake();
    }
    for (auto& b : bands)
        if (b->thread.joinable())
            b->thread.join();
    for (auto& b : bands) {
        b->batches->close();
        b->readers->join();
    }

    stats.peakPipelineBytes = meter.peak();
    stats.joinSeconds = assembler.busySeconds();
    stats.joinWaitSeconds = assembler.inputWaitSeconds();
    for (auto& b : bands) { // per device thread: the one that waited most
        stats.inputWaitSeconds = std::max(stats.inputWaitSeconds, b->stage->inputWaitSeconds());
        stats.outputWaitSeconds = std::max(stats.outputWaitSeconds, b->stage->outputWaitSeconds());
        stats.deviceWaitSeconds = std::max(stats.deviceWaitSeconds, b->stage->deviceWaitSeconds());
        stats.readSeconds += b->readers->busySeconds();
        stats.readCpuSeconds += b->readers->cpuSeconds();
        stats.devices.push_back(
            b->setup.device.is_cuda() ? "cuda:" + std::to_string(b->setup.device.index()) : "cpu");
    }
    stats.tilesComputed = total;
    return stop.status();
}

} // namespace fisura
