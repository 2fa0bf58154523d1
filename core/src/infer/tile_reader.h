// Reader stage of a tiled inference: threads that decode tiles in raster order into the batches
// of a BatchQueue (LibTorch side; include after compat/torch_compat.h).
#pragma once

#include <atomic>
#include <thread>
#include <vector>

#include "blend.h"
#include "pipeline_queues.h"
#include "scan_source.h"

namespace fisura::detail
{

class TileReader
{
public:
    /// Tiles of the grid's size with `channels` channels (the source's are converted); every
    /// argument must outlive join().
    TileReader(const ScanSource& source, const TileGrid& grid, BatchQueue& queue, StopFlag& stop,
               int channels);

    /// Starts `threads` reader threads; they return once every tile is claimed (or the queue
    /// is closed) or the pipeline stopped. When the process is short of memory or threads, as
    /// many as it can (OutOfMemory when not even one starts).
    Status start(int threads);
    void join();
    /// Time the threads spent reading and converting tiles, summed over threads.
    double busySeconds() const { return double(busyNanos_.load()) / 1e9; }
    /// The CPU time of that reading (util::threadCpuNanos).
    double cpuSeconds() const { return double(cpuNanos_.load()) / 1e9; }

private:
    void loop();
    void readTile(const TileRef& t, uint8_t* dst);

    const ScanSource& source_;
    const TileGrid& grid_;
    BatchQueue& queue_;
    StopFlag& stop_;
    const int channels_;
    std::vector<std::thread> threads_;
    std::atomic<int64_t> busyNanos_{0};
    std::atomic<int64_t> cpuNanos_{0};
};

} // namespace fisura::detail
