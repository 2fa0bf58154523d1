// The state of one TiledInference (internal): the model placed on its device, the geometry and
// policy chosen by create(), the network as the pipeline calls it, and the steps of create()
// (infer_setup.cpp) and of a run (infer.cpp).
#pragma once

#include "compat/torch_compat.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device_stage.h"
#include "fisura/infer.h"
#include "fisura/job.h"
#include "map_writer.h"
#include "models/model_impl.h"
#include "network_graph.h"
#include "scan_source.h"

namespace fisura
{

namespace detail
{
struct Band; // multi_device.cpp
} // namespace detail

namespace infer_detail
{
/// Set (or replace) the policy's choice `what`.
void addChoice(ExecutionPolicy& p, const std::string& what, const std::string& value,
               const std::string& reason, const std::string& id, const std::string& arg = {});
} // namespace infer_detail

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
    torch::Tensor mean, stdv;         // [1, C, 1, 1] on the device
    float scale = 255.f;              // map value -> byte
    double prepareSeconds = 0;        // create(): device set-up, batch probe, warm-up
    double networkTilesPerSecond = 0; // this device's network, timed by warmUp()
    // forecast()'s last answer, for the run over the same scan that usually follows it (the
    // blocks are then not sampled twice); taken by that run.
    std::mutex forecastMu;
    std::string forecastPath;
    PaceForecast forecastMade;

    torch::Tensor inScale, inShift; // 1 / (255 std), -mean / std: [1, C, 1, 1] on the device
    std::unique_ptr<detail::NetworkGraph> graph; // the tile batch's network, captured (GPU)
    std::atomic<int64_t> graphBatches{0};        // networkOf() calls that replayed it
    // Split runs over narrow bands: the network captured at their smaller batch, in `graph`'s
    // memory pool (a split run and a run of this lane alone never overlap: ScanQueue).
    std::unique_ptr<detail::NetworkGraph> bandGraph;
    int bandGraphBatch = 0;

    /// uint8 NHWC tiles -> the network's input: normalised NCHW (channels-last when the policy
    /// says so). With CUDA autocast it is one pass straight into the autocast type (the first
    /// convolution would cast it anyway); anomaly scores compare with the float input.
    torch::Tensor inputOf(const torch::Tensor& u8) const
    {
        const auto nchw = u8.permute({0, 3, 1, 2}); // NHWC memory: already channels-last
        const auto format =
            pol.channelsLast ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
        if (amp && kind != MapKind::Score && !model.isTorchScript()) {
            auto x = torch::empty(
                nchw.sizes(), torch::TensorOptions().dtype(ampType).device(u8.device()), format);
            return at::addcmul_out(x, inShift, nchw, inScale);
        }
        torch::Tensor x = nchw.to(torch::kFloat).div_(255.f);
        x = (x - mean) / stdv;
        return x.contiguous(format);
    }

    /// uint8 NHWC tiles on the device -> per-pixel map [n, tile, tile] (float).
    torch::Tensor mapOf(const torch::Tensor& u8)
    {
        const torch::Tensor x = inputOf(u8);
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

    /// mapOf through the captured graph when there is one for this batch shape.
    torch::Tensor networkOf(const torch::Tensor& u8)
    {
        if (graph && graph->takes(u8)) {
            ++graphBatches;
            return graph->run(u8);
        }
        if (bandGraph && bandGraph->takes(u8)) {
            ++graphBatches;
            return bandGraph->run(u8);
        }
        return mapOf(u8);
    }

    // create(), step by step.
    // (`m` is the model being prepared; it becomes the member `model` in placeModel().)
    Status chooseGeometry(const Model& m, const InferOptions& o);
    void chooseExecution(const Model& m, const InferOptions& o);
    Status placeModel(Model m);
    Status chooseBatch(const InferOptions& o, const CancelToken& cancel, ProgressSink* progress);
    Status warmUp();
    void captureGraph(const torch::Tensor& example);
    /// Address space a run over a scan `width` px wide will map beyond what is mapped now
    /// (pipeline buffers, thread stacks, LibTorch's workspaces); width 0: what create() will.
    uint64_t roomNeeded(int width) const;

    /// `split`: over every device (column bands) when there are several; else this one alone.
    Result<InferStats> run(const std::string& in, const std::string& out, const CancelToken& cancel,
                           ProgressSink* progress, bool split = true);
    /// The three stages over an open source, writing into `writer`; the StopFlag's status.
    Status runStages(const detail::ScanSource& src, detail::MapWriter::RowSink sink,
                     const detail::TileGrid& grid, std::chrono::steady_clock::time_point started,
                     const CancelToken& cancel, ProgressTracker& tracker, InferStats& stats,
                     bool split = true);
    detail::DeviceSetup deviceSetup();
    /// Reader threads for each of `bands` column bands (1: a run on one device): the policy's
    /// loader threads, at most 32, shared between the bands.
    int readersPerBand(int bands) const
    {
        return std::max(1, std::clamp(pol.loaderThreads, 1, 32) / std::max(1, bands));
    }
    /// What a run over a scan of W x H px stored as `compression` is expected to be limited by:
    /// a sample of `tiled`'s blocks decoded now (none for a file decoded whole) against the
    /// network's rate on the devices a run (`split` or not) uses.
    PaceForecast forecastFor(const TiledImage* tiled, const std::string& compression, int W, int H,
                             bool split) const;

    // Several devices (multi_device.cpp, multi_device.h).
    std::vector<int> gpuIndices;                 // the GPUs used; the first is `device`
    std::vector<std::unique_ptr<Impl>> replicas; // the model on the others
    int cpuBands = 1;                            // the CPU acting as several devices (tests)
    int lanes() const { return pol.useCuda ? 1 + int(replicas.size()) : cpuBands; }
    /// Device k's replica (the CPU's devices all share this one).
    Impl& lane(int k) { return k == 0 || !pol.useCuda ? *this : *replicas[size_t(k) - 1]; }
    void chooseDevices(const MachineInfo& machine, const InferOptions& o);
    Status addReplicas(const CancelToken& cancel);
    std::unique_ptr<detail::Band> makeBand(int k, const detail::TileGrid& grid, int bandBatch,
                                           const detail::ScanSource& src, detail::StopFlag& stop,
                                           detail::MemoryMeter& meter);
    /// Several GPUs: every device's network also captured at half the batch, the band batch of
    /// split runs whose bands are narrower than the batch (captured by the run instead, it took
    /// about 60 ms per GPU, and the rest of that run was slower too: tests/bench/RESULTS.md).
    void prepareHalfBatch();
    /// The pinned host batches of a run allocated once, for LibTorch's cache (infer_setup.cpp).
    void warmPinnedBatches();
    /// The batch a split run over `grids` uses, its graphs captured on every device where they
    /// are new (`seconds` spent on that); the engine's batch where a capture fails.
    int prepareBandBatch(const std::vector<detail::TileGrid>& grids, double& seconds);
    /// This lane's network captured at `b` tiles (bandGraph), unless it already is. False if
    /// the capture failed.
    bool captureBandGraph(int b);
    /// runStages over column bands, one per device.
    Status runSplit(const detail::ScanSource& src, detail::MapWriter::RowSink sink,
                    const detail::TileGrid& grid, std::chrono::steady_clock::time_point started,
                    const CancelToken& cancel, ProgressTracker& tracker, InferStats& stats);
};

} // namespace fisura
