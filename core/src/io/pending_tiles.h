// The map writer's bookkeeping for one band whose tiles are being compressed on the task pool
// (tiled_writer_bands.h): the compressed tiles, the band's rows (`Band`, given back to the spares
// when the last tile is done), the times, and what the adaptive level measures.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace fisura::io
{

/// One band's tiles being compressed on the pool; the file thread waits for all of them.
template <class Band> struct PendingTiles {
    std::vector<std::vector<uint8_t>> tiles;
    std::vector<char> ok;
    std::shared_ptr<Band> band; // released when the last tile is compressed
    std::mutex mu;
    std::condition_variable cv;
    int remaining = 0;
    int unhalved = 0; // tasks yet to halve their columns into the next level
    int codecLevel = 0;
    double seconds = 0;    // predicting, halving, compressing: summed over the pool's threads
    double cpuSeconds = 0; // the same, CPU time
    // A lowered level-0 band: one tile's compressed bytes, at the band's level and again at
    // the level asked for (what the lower level costs in size; not in seconds above).
    uint64_t sampleBytes = 0, sampleAskedBytes = 0;

    void finishOne(double s, double cpu)
    {
        std::shared_ptr<Band> release;
        bool last = false;
        {
            std::lock_guard<std::mutex> lock(mu);
            seconds += s;
            cpuSeconds += cpu;
            last = --remaining == 0;
            if (last)
                release = std::move(band);
        }
        if (last) {
            release.reset(); // the buffer back to the spares, outside the lock
            cv.notify_all();
        }
    }
    void halvedOne()
    {
        bool last = false;
        {
            std::lock_guard<std::mutex> lock(mu);
            last = --unhalved == 0;
        }
        if (last)
            cv.notify_all();
    }
    void wait()
    {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return remaining == 0; });
    }
    // The next level's rows are written (the tiles may still be compressing).
    void waitHalved()
    {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return unhalved == 0; });
    }
};

} // namespace fisura::io
