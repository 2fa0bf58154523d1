// The file side of the tiled writer: one thread that hands compressed bands of tiles to their
// level's file in the order they were queued, so that compressing the next band (on the writer's
// pool) overlaps with writing this one. Bounded: push() waits while `maxBands` are queued.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "fisura/status.h"
#include "io/tiff_handle.h"

namespace fisura::io
{

class TileWriteQueue
{
public:
    struct Band {
        TiffHandle* file = nullptr;
        uint32_t firstTile = 0; ///< index of the band's first tile in its file
        int bandIndex = 0;      ///< for messages
        std::vector<std::vector<uint8_t>> tiles;
    };

    explicit TileWriteQueue(size_t maxBands = 3);
    /// Stops (dropping what is still queued) and joins.
    ~TileWriteQueue();
    TileWriteQueue(const TileWriteQueue&) = delete;
    TileWriteQueue& operator=(const TileWriteQueue&) = delete;

    /// Queues a band, waiting for room (the wait is added to `waitSeconds`). Returns the first
    /// write failure instead once there was one (nothing is written after it).
    Status push(Band band, double& waitSeconds);
    /// Waits until everything queued is written; the first failure, if any.
    Status drain();
    /// Stops at once: queued bands are dropped, the thread ends. Safe to call twice.
    void stop();

    /// Time the thread spent writing, and the compressed bytes it wrote (read after drain()).
    double busySeconds() const { return busy_; }
    uint64_t bytesWritten() const { return bytes_; }

private:
    void loop();
    Status write(Band& band);

    const size_t maxBands_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<Band> queue_;
    bool writing_ = false; // the thread holds a band outside the queue
    bool stopping_ = false;
    Status failure_;
    double busy_ = 0.0;
    uint64_t bytes_ = 0;
    std::thread thread_;
};

} // namespace fisura::io
