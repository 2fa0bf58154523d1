// Device stage of a tiled inference; see device_stage.h.
#include "device_stage.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "device/copy_stream.h"
#include "device/torch_step.h"

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

    const DeviceSetup& setup_;
    const TileGrid& grid_;
    RowQueue& out_;
    StopFlag& stop_;
    double& outputWait_;
    const int tile_, width_;
    torch::Tensor wxAll_, wyAll_, invX_, invY_; // windows [tiles, tile], 1 / sums [length]
    // Per tile of the grid, its column and row index; the ring's slots twice over. On the
    // device, so that no batch copies an index from the host: a copy from pageable memory
    // waits for the device, and the thread could no longer run ahead of it.
    torch::Tensor tileCols_, tileRows_, slots_;
    torch::Tensor band_; // ring: row y in slot y % tile
    int emitted_ = 0;    // rows queued so far
};

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
      width_(grid.width)
{
    const torch::Device device = setup.device;
    const AxisWeights x = axisWeights(grid.width, tile_, setup.overlap, setup.window, grid.xs);
    const AxisWeights y = axisWeights(grid.height, tile_, setup.overlap, setup.window, grid.ys);
    wxAll_ = onDevice(x.windows, int64_t(grid.xs.size()), device);
    wyAll_ = onDevice(y.windows, int64_t(grid.ys.size()), device);
    invX_ = onDevice(x.invSum, 0, device);
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
    const auto fdev = torch::TensorOptions().dtype(torch::kFloat).device(device);
    band_ = torch::zeros({tile_, width_}, fdev);
}

void RowRing::addTiles(torch::Tensor m, int64_t first, int64_t count)
{
    // Windows of these tiles: wy[row] (x) wx[col].
    const auto wx = wxAll_.index_select(0, tileCols_.narrow(0, first, count));
    const auto wy = wyAll_.index_select(0, tileRows_.narrow(0, first, count));
    m = m * wy.unsqueeze(2) * wx.unsqueeze(1);
    for (int64_t i = 0; i < count; ++i) {
        const TileRef& t = grid_.tiles[size_t(first + i)];
        addTile(t, m[i]);
        if (grid_.lastInRow(t))
            emitRows(grid_.nextRowStart(t.row));
    }
}

void RowRing::addTile(const TileRef& t, const torch::Tensor& v)
{
    // The tile's rows may wrap around the end of the ring: add them in up to two parts.
    const int s = t.y % tile_;
    const int h1 = std::min(t.h, tile_ - s);
    band_.narrow(0, s, h1).narrow(1, t.x, t.w).add_(v.narrow(0, 0, h1).narrow(1, 0, t.w));
    if (h1 < t.h)
        band_.narrow(0, 0, t.h - h1)
            .narrow(1, t.x, t.w)
            .add_(v.narrow(0, h1, t.h - h1).narrow(1, 0, t.w));
}

void RowRing::emitRows(int end)
{
    while (emitted_ < end && !stop_.stopped())
        emitChunk(std::min(end, emitted_ + std::min(kChunkRows, tile_)));
}

void RowRing::emitChunk(int end)
{
    const torch::Device device = setup_.device;
    const int n = end - emitted_; // at most the ring: one window of slots_
    const auto idx = slots_.narrow(0, emitted_ % tile_, n);
    torch::Tensor rows = band_.index_select(0, idx);
    rows.mul_(invY_.narrow(0, emitted_, n).unsqueeze(1)).mul_(invX_.unsqueeze(0));
    rows.mul_(setup_.scale).round_().clamp_(0, 255);
    torch::Tensor u8 = rows.to(torch::kUInt8);
    band_.index_fill_(0, idx, 0.f); // the slots start the rows one ring further down
    OutRows o;
    o.y0 = emitted_;
    o.rows = n;
    o.size = uint64_t(n) * uint64_t(width_);
    o.bytes = torch::empty(
        {n, width_}, torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(setup_.pinned));
    o.bytes.copy_(u8, /*non_blocking=*/setup_.pinned);
    o.ready = std::make_shared<detail::StreamMark>(device);
    emitted_ = end;
    out_.push(std::move(o), outputWait_);
}

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
        device.is_cpu() ? uint64_t(grid_.tile) * uint64_t(grid_.width) * 4 : 0;
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
