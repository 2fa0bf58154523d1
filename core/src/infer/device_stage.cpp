// Device stage of a tiled inference; see device_stage.h.
#include "device_stage.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <vector>

#include "device/copy_stream.h"
#include "device/torch_step.h"
#include "fisura/infer.h"
#include "fisura/testing.h"

#ifdef FISURA_BNRELU_KERNELS
#include <c10/cuda/CUDAStream.h>

#include "infer/blend_cuda.h"

static_assert(fisura::detail::cuda::kBlendScale == fisura::detail::kBlendScale,
              "the blending kernels and LibTorch's path use the same fixed point");
#endif

namespace fisura
{
namespace
{
std::atomic<bool> g_blendKernels{true};
} // namespace

void testing::setBlendKernels(bool enabled)
{
    g_blendKernels.store(enabled);
}
} // namespace fisura

namespace fisura::detail
{

namespace
{

/// The blending band: `tile` rows of the map as a ring on the device, with the windows of the
/// grid and the reciprocals of their sums along each axis.
class RowRing
{
public:
    RowRing(const DeviceSetup& setup, const TileGrid& grid, RowQueue& out, StopFlag& stop,
            double& outputWait);

    /// Weights the maps `m` [count, tile, tile] of tiles first.. first + count - 1 by their
    /// windows, adds them to the band and queues the rows each finished tile row completes.
    void addTiles(torch::Tensor m, int64_t first, int64_t count);

private:
    void addTile(const TileRef& t, const torch::Tensor& v);
    void emitRows(int end);
    void emitChunk(int end);
    // Fisura's blending kernels (CUDA builds, on a GPU): a few launches per batch instead of a
    // few per tile, and one per chunk of rows instead of eight.
    void makeKernelTables();
    void addTilesWithKernels(const torch::Tensor& m, int64_t first, int64_t count);
    void blendSegment(const torch::Tensor& m, int64_t first, int64_t a, int64_t b);
    torch::Tensor bytesWithKernel(int n);

    const DeviceSetup& setup_;
    const TileGrid& grid_;
    RowQueue& out_;
    StopFlag& stop_;
    double& outputWait_;
    const int tile_, x0_, width_;               // the band holds map columns [x0_, x0_ + width_)
    torch::Tensor wxAll_, wyAll_, invX_, invY_; // windows [tiles, tile], 1 / sums [length]
    // Per tile of the grid, its column and row index; the ring's slots twice over. On the
    // device, so that no batch copies an index from the host: a copy from pageable memory
    // waits for the device, and the thread could no longer run ahead of it.
    torch::Tensor tileCols_, tileRows_, slots_;
    // Ring: row y in slot y % tile. Fixed point (kBlendScale units, int64): integer sums do not
    // depend on the order of the additions, so how tiles fall into batches and launches (one
    // GPU or a column band of several) cannot change a pixel.
    torch::Tensor band_;
    int emitted_ = 0;      // rows queued so far
    CopyStream downloads_; // finished rows to the host, off the compute stream
    bool kernels_ = false;
    torch::Tensor tileTable_; // int32 [6, tiles]: x, y, w, h, col, row (kernels only)
};

/// Weighted predictions as blending units: float -> double (exact) x 2^32 (exact), rounded to
/// the nearest integer, ties to even (what the blending kernel's __double2ll_rn does).
torch::Tensor fixedPoint(const torch::Tensor& weighted)
{
    return weighted.to(torch::kDouble).mul_(kBlendScale).round_().to(torch::kLong);
}

torch::Tensor onDevice(const std::vector<float>& v, int64_t rows, torch::Device device)
{
    torch::Tensor t = torch::tensor(v, torch::kFloat);
    if (rows > 0)
        t = t.view({rows, -1});
    return t.to(device);
}

RowRing::RowRing(const DeviceSetup& setup, const TileGrid& grid, RowQueue& out, StopFlag& stop,
                 double& outputWait)
    : setup_(setup), grid_(grid), out_(out), stop_(stop), outputWait_(outputWait), tile_(grid.tile),
      x0_(grid.x0), width_(grid.x1 - grid.x0), downloads_(setup.device)
{
    const torch::Device device = setup.device;
    const AxisWeights x = axisWeights(grid.width, tile_, setup.overlap, setup.window, grid.xs);
    const AxisWeights y = axisWeights(grid.height, tile_, setup.overlap, setup.window, grid.ys);
    wxAll_ = onDevice(x.windows, int64_t(grid.xs.size()), device);
    wyAll_ = onDevice(y.windows, int64_t(grid.ys.size()), device);
    invX_ = onDevice({x.invSum.begin() + x0_, x.invSum.begin() + x0_ + width_}, 0, device);
    invY_ = onDevice(y.invSum, 0, device);
    std::vector<int64_t> cols, rows;
    cols.reserve(grid.tiles.size());
    rows.reserve(grid.tiles.size());
    for (const TileRef& t : grid.tiles) {
        cols.push_back(t.col);
        rows.push_back(t.row);
    }
    tileCols_ = torch::tensor(cols, torch::kLong).to(device);
    tileRows_ = torch::tensor(rows, torch::kLong).to(device);
    slots_ = (torch::arange(2 * int64_t(tile_), torch::kLong) % tile_).to(device);
    band_ =
        torch::zeros({tile_, width_}, torch::TensorOptions().dtype(torch::kLong).device(device));
    if (device.is_cuda() && g_blendKernels.load())
        makeKernelTables();
}

void RowRing::makeKernelTables()
{
#ifdef FISURA_BNRELU_KERNELS // otherwise no kernels in this build: kernels_ stays false
    std::vector<int32_t> table(6 * grid_.tiles.size());
    const size_t n = grid_.tiles.size();
    for (size_t i = 0; i < n; ++i) {
        const TileRef& t = grid_.tiles[i];
        const int32_t v[6] = {t.x, t.y, t.w, t.h, t.col, t.row};
        for (size_t k = 0; k < 6; ++k)
            table[k * n + i] = v[k];
    }
    tileTable_ = torch::tensor(table, torch::kInt).view({6, int64_t(n)}).to(setup_.device);
    kernels_ = true;
#endif
}

void RowRing::addTiles(torch::Tensor m, int64_t first, int64_t count)
{
    if (kernels_) {
        addTilesWithKernels(m.contiguous(), first, count);
        return;
    }
    // Windows of these tiles: wy[row] (x) wx[col].
    const auto wx = wxAll_.index_select(0, tileCols_.narrow(0, first, count));
    const auto wy = wyAll_.index_select(0, tileRows_.narrow(0, first, count));
    m = fixedPoint(m * wy.unsqueeze(2) * wx.unsqueeze(1));
    for (int64_t i = 0; i < count; ++i) {
        const TileRef& t = grid_.tiles[size_t(first + i)];
        addTile(t, m[i]);
        if (grid_.lastInRow(t))
            emitRows(grid_.nextRowStart(t.row));
    }
}

void RowRing::addTile(const TileRef& t, const torch::Tensor& v)
{
    // Only the tile's columns inside the band (a column band of a split run may start or end
    // inside a tile).
    const int c0 = std::max(t.x, x0_), c1 = std::min(t.x + t.w, x0_ + width_);
    if (c1 <= c0)
        return;
    // The tile's rows may wrap around the end of the ring: add them in up to two parts.
    const int s = t.y % tile_;
    const int h1 = std::min(t.h, tile_ - s);
    band_.narrow(0, s, h1)
        .narrow(1, c0 - x0_, c1 - c0)
        .add_(v.narrow(0, 0, h1).narrow(1, c0 - t.x, c1 - c0));
    if (h1 < t.h)
        band_.narrow(0, 0, t.h - h1)
            .narrow(1, c0 - x0_, c1 - c0)
            .add_(v.narrow(0, h1, t.h - h1).narrow(1, c0 - t.x, c1 - c0));
}

void RowRing::emitRows(int end)
{
    while (emitted_ < end && !stop_.stopped())
        emitChunk(std::min(end, emitted_ + std::min(kChunkRows, tile_)));
}

void RowRing::emitChunk(int end)
{
    const int n = end - emitted_; // at most the ring: one window of slots_
    torch::Tensor u8;
    if (kernels_) {
        u8 = bytesWithKernel(n);
    } else {
        const auto idx = slots_.narrow(0, emitted_ % tile_, n);
        torch::Tensor rows = band_.index_select(0, idx).to(torch::kDouble);
        rows = rows.mul_(1.0 / kBlendScale).to(torch::kFloat);
        rows.mul_(invY_.narrow(0, emitted_, n).unsqueeze(1)).mul_(invX_.unsqueeze(0));
        rows.mul_(setup_.scale).round_().clamp_(0, 255);
        u8 = rows.to(torch::kUInt8);
        band_.index_fill_(0, idx, 0); // the slots start the rows one ring further down
    }
    OutRows o;
    o.y0 = emitted_;
    o.rows = n;
    o.size = uint64_t(n) * uint64_t(width_);
    o.bytes = torch::empty(
        {n, width_}, torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(setup_.pinned));
    o.ready = downloads_.download(u8, o.bytes);
    emitted_ = end;
    out_.push(std::move(o), outputWait_);
}

#ifdef FISURA_BNRELU_KERNELS

/// The batch in segments that end with a tile row: each segment's tiles are added (one launch
/// per phase present), then the rows its finished tile row completes are emitted, before the
/// next tile row writes into their slots.
void RowRing::addTilesWithKernels(const torch::Tensor& m, int64_t first, int64_t count)
{
    int64_t a = 0;
    for (int64_t i = 0; i < count; ++i) {
        const TileRef& t = grid_.tiles[size_t(first + i)];
        const bool rowDone = grid_.lastInRow(t);
        if (!rowDone && i + 1 < count)
            continue;
        blendSegment(m, first, a, i + 1);
        a = i + 1;
        if (rowDone)
            emitRows(grid_.nextRowStart(t.row));
    }
}

void RowRing::blendSegment(const torch::Tensor& m, int64_t first, int64_t a, int64_t b)
{
    bool present[9] = {};
    for (int64_t i = a; i < b; ++i) {
        const TileRef& t = grid_.tiles[size_t(first + i)];
        present[(t.col % 3) * 3 + t.row % 3] = true;
    }
    const int64_t n = tileTable_.size(1);
    const int32_t* tt = tileTable_.data_ptr<int32_t>();
    const cuda::TileTable table{tt,
                                tt + n,
                                tt + 2 * n,
                                tt + 3 * n,
                                tt + 4 * n,
                                tt + 5 * n,
                                wxAll_.data_ptr<float>(),
                                wyAll_.data_ptr<float>()};
    const auto stream = c10::cuda::getCurrentCUDAStream(setup_.device.index()).stream();
    const float* maps = m.data_ptr<float>() + a * int64_t(tile_) * tile_;
    for (int phase = 0; phase < 9; ++phase) {
        if (!present[phase])
            continue;
        const int err = cuda::blendTiles(maps, first + a, int(b - a), tile_, x0_, width_, table,
                                         phase, band_.data_ptr<int64_t>(), stream);
        TORCH_CHECK(err == 0, "blending kernel: ", cuda::blendErrorString(err));
    }
}

torch::Tensor RowRing::bytesWithKernel(int n)
{
    auto u8 = torch::empty({n, width_},
                           torch::TensorOptions().dtype(torch::kUInt8).device(setup_.device));
    const int err = cuda::emitRows(band_.data_ptr<int64_t>(), tile_, width_, emitted_, n,
                                   invY_.data_ptr<float>(), invX_.data_ptr<float>(), setup_.scale,
                                   u8.data_ptr<uint8_t>(),
                                   c10::cuda::getCurrentCUDAStream(setup_.device.index()).stream());
    TORCH_CHECK(err == 0, "row kernel: ", cuda::blendErrorString(err));
    return u8;
}

#else

void RowRing::addTilesWithKernels(const torch::Tensor&, int64_t, int64_t) {}
torch::Tensor RowRing::bytesWithKernel(int)
{
    return {};
}

#endif

} // namespace

DeviceStage::DeviceStage(const DeviceSetup& setup, const TileGrid& grid, BatchQueue& in,
                         RowQueue& out, StopFlag& stop, MemoryMeter& meter, TileProgress progress)
    : setup_(setup), grid_(grid), in_(in), out_(out), stop_(stop), meter_(meter),
      progress_(std::move(progress))
{
}

Status DeviceStage::run()
{
    return detail::guardTorchStep([&] {
        c10::InferenceMode guard;
        runBatches();
    });
}

void DeviceStage::runBatches()
{
    const torch::Device device = setup_.device;
    const int64_t nTiles = int64_t(grid_.tiles.size());
    RowRing ring(setup_, grid_, out_, stop_, outputWait_);
    // On a GPU the band lives in device memory; on the CPU it is host memory of the pipeline.
    const uint64_t bandBytes =
        device.is_cpu() ? uint64_t(grid_.tile) * uint64_t(grid_.x1 - grid_.x0) * 8 : 0;
    meter_.add(bandBytes);
    detail::CopyStream copier(device);
    std::deque<std::shared_ptr<detail::StreamMark>> inFlight;

    for (int64_t b = 0; b < in_.batchCount() && !stop_.stopped(); ++b) {
        InBatch ib;
        if (!in_.take(b, ib, inputWait_))
            break;
        torch::Tensor x = copier.upload(ib.pixels);
        in_.release(ib);

        const int64_t first = b * setup_.batch;
        const int64_t count = std::min<int64_t>(setup_.batch, nTiles - first);
        ring.addTiles(setup_.network(x).narrow(0, 0, count).to(torch::kFloat), first, count);
        if (progress_)
            progress_(first + count);
        // Keep the device at most two batches ahead of this thread, so a cancel is
        // answered after the work already queued, not after minutes of it.
        inFlight.push_back(std::make_shared<detail::StreamMark>(device));
        if (inFlight.size() > 2) {
            const auto w0 = PipelineClock::now();
            inFlight.front()->wait();
            deviceWait_ += secondsSince(w0);
            inFlight.pop_front();
        }
    }
    for (auto& m : inFlight)
        m->wait();
    meter_.sub(bandBytes);
}

} // namespace fisura::detail
