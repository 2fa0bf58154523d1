// What travels between the stages of a tiled inference, and the bounded queues it travels in
// (LibTorch side; include after compat/torch_compat.h).
//
//   TileReader --BatchQueue--> DeviceStage --RowQueue--> MapWriter
//
// Both queues are bounded, so host memory depends on the image width and the batch size, never
// on its height. They share a StopFlag: the first failure (or the job's cancel) stops every
// stage; waits poll it, since a CancelToken is only a flag nobody notifies. The queues also keep
// the MemoryMeter: a batch counts from its allocation until the device has its copy, a block of
// rows from its download until the writer has copied it out.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "compat/torch_compat.h"
#include "device/copy_stream.h"
#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura::detail
{

using PipelineClock = std::chrono::steady_clock;

inline double secondsSince(PipelineClock::time_point t)
{
    return std::chrono::duration<double>(PipelineClock::now() - t).count();
}

/// Host memory the pipeline holds right now, and the most it ever held.
class MemoryMeter
{
public:
    void add(uint64_t b)
    {
        const uint64_t now = live_.fetch_add(b) + b;
        uint64_t p = peak_.load();
        while (now > p && !peak_.compare_exchange_weak(p, now)) {
        }
    }
    void sub(uint64_t b) { live_.fetch_sub(b); }
    uint64_t peak() const { return peak_.load(); }

private:
    std::atomic<uint64_t> live_{0}, peak_{0};
};

/// First error wins; every stage stops when one is set or the job is cancelled.
class StopFlag
{
public:
    explicit StopFlag(const CancelToken& c) : cancel_(c) {}
    void fail(const Status& s)
    {
        std::lock_guard<std::mutex> l(mu_);
        if (error_.isOk())
            error_ = s;
        failed_ = true;
    }
    bool stopped() const { return failed_.load() || cancel_.isCancelled(); }
    Status status() const
    {
        std::lock_guard<std::mutex> l(mu_);
        if (!error_.isOk())
            return error_;
        if (cancel_.isCancelled())
            return Status(ErrorCode::Cancelled, "inference cancelled");
        return Status::ok();
    }

private:
    CancelToken cancel_;
    mutable std::mutex mu_;
    Status error_;
    std::atomic<bool> failed_{false};
};

/// A condition wait that also notices a cancel nobody notified (the token is only a flag).
template <class Pred>
void waitFor(std::condition_variable& cv, std::unique_lock<std::mutex>& l, Pred pred)
{
    while (!pred())
        cv.wait_for(l, std::chrono::milliseconds(20));
}

/// A batch of decoded tiles on the host.
struct InBatch {
    torch::Tensor pixels; // uint8 [batch, tile, tile, channels], pinned on a GPU
    uint64_t bytes = 0;
};

/// Where a reader puts one tile: tile `index` of the grid goes to `pixels` in batch `batch`.
struct TileSlot {
    int64_t index = 0, batch = 0;
    uint8_t* pixels = nullptr;
};

/// Tiles -> batches, in raster order: readers claim tiles one by one (all threads work on the
/// same few batches, so neighbouring tiles share decoded input blocks), at most `prefetch`
/// batches ahead of the device; a batch is ready when its last tile is in.
class BatchQueue
{
public:
    struct Shape {
        int64_t tiles = 0; ///< in the whole grid
        int batch = 1, tile = 0, channels = 3;
        int prefetch = 2;
        bool pinned = false; ///< allocate batches in page-locked memory (asynchronous uploads)
    };
    BatchQueue(const Shape& shape, StopFlag& stop, MemoryMeter& meter);

    int64_t batchCount() const { return (shape_.tiles + shape_.batch - 1) / shape_.batch; }

    /// Reader side: waits for room, then hands out the next tile (allocating its batch when it
    /// is the first). False when every tile is claimed, the pipeline stopped or no memory.
    bool claimTile(TileSlot& slot);
    /// Reader side: the tile of `slot` is filled (or failed, with the StopFlag set).
    void tileFilled(const TileSlot& slot);

    /// Device side: waits until batch `b` is complete and takes it; the time waited is added to
    /// `waitSeconds`. False when the pipeline stopped.
    bool take(int64_t b, InBatch& out, double& waitSeconds);
    /// Device side: the device has its own copy of `batch`; the host buffer goes.
    void release(InBatch& batch);

    /// No more tiles to claim: readers still waiting for room return.
    void close();
    /// Wakes every waiter so it looks at the StopFlag now rather than at its next poll.
    void wake();

private:
    struct Filling {
        InBatch batch;
        int64_t remaining = 0;
        bool allocated = false; // batch.pixels is set (undefined if the allocation failed)
    };
    /// Batch `b`'s host buffer (padding zeroed); false, with the StopFlag set, without memory.
    bool allocate(int64_t b, InBatch& out);

    Shape shape_;
    StopFlag& stop_;
    MemoryMeter& meter_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::map<int64_t, Filling> filling_;
    std::map<int64_t, InBatch> ready_;
    int64_t nextTile_ = 0, consumed_ = 0;
};

/// Finished map rows on their way back from the device (uint8, full width).
struct OutRows {
    int y0 = 0, rows = 0;
    torch::Tensor bytes; // uint8 [rows, width] on the host
    std::shared_ptr<detail::StreamMark> ready;
    uint64_t size = 0;
};

/// Device -> writer, in order, at most `capacity` blocks of rows waiting.
class RowQueue
{
public:
    RowQueue(size_t capacity, StopFlag& stop, MemoryMeter& meter)
        : capacity_(capacity), stop_(stop), meter_(meter)
    {
    }

    /// Device side: counts `rows` as held, waits for room and queues them; the time waited is
    /// added to `waitSeconds`. False when the pipeline stopped.
    bool push(OutRows&& rows, double& waitSeconds)
    {
        meter_.add(rows.size);
        std::unique_lock<std::mutex> l(mu_);
        const auto w0 = PipelineClock::now();
        waitFor(cv_, l, [&] { return queue_.size() < capacity_ || stop_.stopped(); });
        waitSeconds += secondsSince(w0);
        if (stop_.stopped())
            return false;
        queue_.push_back(std::move(rows));
        cv_.notify_all();
        return true;
    }
    /// Writer side: the next block of rows; false when the pipeline stopped or the device
    /// closed the queue and it is empty.
    bool pop(OutRows& rows)
    {
        std::unique_lock<std::mutex> l(mu_);
        waitFor(cv_, l, [&] { return !queue_.empty() || closed_ || stop_.stopped(); });
        if (stop_.stopped() || queue_.empty())
            return false;
        rows = std::move(queue_.front());
        queue_.pop_front();
        cv_.notify_all();
        return true;
    }
    /// Writer side: the host copy of `rows` is no longer needed.
    void release(OutRows& rows)
    {
        rows.bytes = torch::Tensor();
        meter_.sub(rows.size);
    }
    /// Writer side: writing failed; stops the pipeline and wakes the device if it waits.
    void fail(const Status& s)
    {
        stop_.fail(s);
        cv_.notify_all();
    }
    /// Device side: nothing more will be pushed.
    void close()
    {
        {
            std::lock_guard<std::mutex> l(mu_);
            closed_ = true;
        }
        cv_.notify_all();
    }
    void wake()
    {
        {
            std::lock_guard<std::mutex> l(mu_);
        }
        cv_.notify_all();
    }

private:
    const size_t capacity_;
    StopFlag& stop_;
    MemoryMeter& meter_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<OutRows> queue_;
    bool closed_ = false;
};

} // namespace fisura::detail
