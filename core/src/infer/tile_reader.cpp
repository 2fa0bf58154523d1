// Reader stage of a tiled inference; see tile_reader.h.
#include "tile_reader.h"

#include <new>
#include <string>

#include "util/cpu_time.h"
#include "util/thread_start.h"

namespace fisura::detail
{

TileReader::TileReader(const ScanSource& source, const TileGrid& grid, BatchQueue& queue,
                       StopFlag& stop, int channels)
    : source_(source), grid_(grid), queue_(queue), stop_(stop), channels_(channels)
{
}

Status TileReader::start(int threads)
{
    try {
        threads_.reserve(size_t(std::max(threads, 1)));
    } catch (const std::bad_alloc&) {
        return util::threadStartFailure("reading tiles", "out of memory");
    }
    Status failed;
    for (int i = 0; i < threads; ++i) {
        std::thread t;
        failed = util::startThread(t, "fisura-read", "reading tiles", [this] { loop(); });
        if (!failed)
            break;
        threads_.push_back(std::move(t));
    }
    // Short of memory or threads, fewer readers do the same work, only slower.
    return threads_.empty() ? failed : Status::ok();
}

void TileReader::join()
{
    for (auto& t : threads_)
        t.join();
    threads_.clear();
}

void TileReader::loop()
{
    TileSlot slot;
    while (queue_.claimTile(slot)) {
        const auto t0 = PipelineClock::now();
        const int64_t c0 = util::threadCpuNanos();
        readTile(grid_.tiles[size_t(slot.index)], slot.pixels);
        cpuNanos_ += util::threadCpuNanos() - c0;
        busyNanos_ +=
            std::chrono::duration_cast<std::chrono::nanoseconds>(PipelineClock::now() - t0).count();
        queue_.tileFilled(slot); // also after a failure: the batch must not wait for it forever
    }
}

void TileReader::readTile(const TileRef& t, uint8_t* dst)
{
    try {
        if (Status s = source_.readTile(t.x, t.y, t.w, t.h, grid_.tile, channels_, dst); !s)
            stop_.fail(s);
    } catch (const std::bad_alloc&) {
        stop_.fail(Status(ErrorCode::OutOfMemory, "host memory exhausted reading tiles"));
    } catch (const std::exception& e) {
        stop_.fail(Status(ErrorCode::Internal, std::string("reading tiles: ") + e.what()));
    }
}

} // namespace fisura::detail
