// Device stage of a tiled inference (LibTorch side; include after compat/torch_compat.h): takes
// the batches of a BatchQueue in order, uploads each on a side copy stream, runs the network,
// blends the tiles' predictions into a ring of rows on the device and queues every row that is
// final as uint8 on the RowQueue.
//
// The ring is a band of `tile` rows (row y lives in slot y % tile). Once the last tile of a tile
// row is added, every row above the next tile row is final: it is normalised with the per-axis
// window sums (blend.h), turned into bytes on the device, and only those bytes travel back to
// the host, on a copy stream of their own while the compute stream goes on. Device memory is
// O(width x tile), whatever the image height.
#pragma once

#include <functional>

#include "blend.h"
#include "pipeline_queues.h"

namespace fisura::detail
{

/// The blending band's fixed point: a weighted prediction w is added as round(w * 2^32) in
/// int64 (exact for |w| < 2^31), so sums are exact and the same in any order.
constexpr double kBlendScale = 4294967296.0;

/// Finished rows go out in chunks of at most this many rows (small pinned blocks; the writer
/// starts compressing early).
constexpr int kChunkRows = 64;

/// Chunks of finished rows that may wait for the writer, at most. (A deeper queue, room for a
/// whole grid row of tiles, was measured: no faster on a 40k scan, 20 MB more at 50k wide; room
/// for two grid rows, measured again with the downloads on their own stream: no faster either.)
constexpr size_t kMaxOutQueue = 6;

struct DeviceSetup {
    torch::Device device{torch::kCPU};
    bool pinned = false; ///< host buffers are page-locked: downloads may be asynchronous
    float scale = 255.f; ///< map value -> byte
    int batch = 1;
    int overlap = 0;
    BlendWindow window = BlendWindow::Cosine;
    /// uint8 NHWC tiles on the device -> per-pixel map [n, tile, tile].
    std::function<torch::Tensor(const torch::Tensor&)> network;
};

class DeviceStage
{
public:
    /// Tiles computed so far, after every batch (on the thread that calls run()).
    using TileProgress = std::function<void(int64_t tilesDone)>;

    /// Every argument must outlive run().
    DeviceStage(const DeviceSetup& setup, const TileGrid& grid, BatchQueue& in, RowQueue& out,
                StopFlag& stop, MemoryMeter& meter, TileProgress progress = {});

    /// Runs on the calling thread until every batch is blended and its rows queued, or the
    /// pipeline stopped. A LibTorch error (device out of memory, ...) comes back as a Status;
    /// the caller sets the StopFlag with it.
    Status run();

    /// Time this stage waited for decoded batches, and for room in the row queue.
    double inputWaitSeconds() const { return inputWait_; }
    double outputWaitSeconds() const { return outputWait_; }
    double deviceWaitSeconds() const { return deviceWait_; }

private:
    void runBatches();

    const DeviceSetup& setup_;
    const TileGrid& grid_;
    BatchQueue& in_;
    RowQueue& out_;
    StopFlag& stop_;
    MemoryMeter& meter_;
    TileProgress progress_;
    double inputWait_ = 0, outputWait_ = 0, deviceWait_ = 0;
};

} // namespace fisura::detail
