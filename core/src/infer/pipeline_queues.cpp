// The input queue of a tiled inference; see pipeline_queues.h.
#include "pipeline_queues.h"

#include <algorithm>
#include <string>

namespace fisura::detail
{

BatchQueue::BatchQueue(const Shape& shape, StopFlag& stop, MemoryMeter& meter)
    : shape_(shape), stop_(stop), meter_(meter)
{
}

bool BatchQueue::allocate(int64_t b, InBatch& out)
{
    const int batch = shape_.batch;
    const int64_t filled = std::min<int64_t>(batch, shape_.tiles - b * batch);
    out.bytes =
        uint64_t(batch) * uint64_t(shape_.tile) * uint64_t(shape_.tile) * uint64_t(shape_.channels);
    try {
        out.pixels =
            torch::empty({batch, shape_.tile, shape_.tile, shape_.channels},
                         torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(shape_.pinned));
    } catch (const std::exception& e) {
        stop_.fail(Status(ErrorCode::OutOfMemory,
                          std::string("no memory for a batch of tiles: ") + e.what()));
        return false;
    }
    if (filled < batch) // padding slots of the last batch
        out.pixels.narrow(0, filled, batch - filled).zero_();
    meter_.add(out.bytes);
    return true;
}

bool BatchQueue::claimTile(TileSlot& slot)
{
    std::unique_lock<std::mutex> l(mu_);
    waitFor(cv_, l, [&] {
        return stop_.stopped() || nextTile_ >= shape_.tiles ||
               nextTile_ / shape_.batch < consumed_ + shape_.prefetch;
    });
    if (stop_.stopped() || nextTile_ >= shape_.tiles)
        return false;
    slot.index = nextTile_++;
    slot.batch = slot.index / shape_.batch;
    auto it = filling_.find(slot.batch);
    if (it == filling_.end()) {
        // The batch's first tile: its buffer is allocated outside the lock (page-locked memory
        // takes milliseconds), so the readers of the batch before hand in their tiles meanwhile.
        it = filling_.emplace(slot.batch, Filling{}).first;
        it->second.remaining =
            std::min<int64_t>(shape_.batch, shape_.tiles - slot.batch * shape_.batch);
        l.unlock();
        InBatch fresh;
        const bool ok = allocate(slot.batch, fresh);
        l.lock();
        it->second.batch = std::move(fresh);
        it->second.allocated = true;
        cv_.notify_all();
        if (!ok)
            return false;
    } else {
        waitFor(cv_, l, [&] { return stop_.stopped() || it->second.allocated; });
        if (!it->second.allocated || !it->second.batch.pixels.defined())
            return false; // stopped, or the allocation failed (the StopFlag says why)
    }
    const size_t tileBytes = size_t(shape_.tile) * size_t(shape_.tile) * size_t(shape_.channels);
    slot.pixels = it->second.batch.pixels.data_ptr<uint8_t>() +
                  size_t(slot.index - slot.batch * shape_.batch) * tileBytes;
    return true;
}

void BatchQueue::tileFilled(const TileSlot& slot)
{
    std::lock_guard<std::mutex> l(mu_);
    auto it = filling_.find(slot.batch);
    if (--it->second.remaining == 0) {
        ready_.emplace(slot.batch, std::move(it->second.batch));
        filling_.erase(it);
        cv_.notify_all();
    }
}

bool BatchQueue::take(int64_t b, InBatch& out, double& waitSeconds)
{
    std::unique_lock<std::mutex> l(mu_);
    const auto w0 = PipelineClock::now();
    waitFor(cv_, l, [&] { return stop_.stopped() || ready_.count(b) > 0; });
    waitSeconds += secondsSince(w0);
    if (stop_.stopped())
        return false;
    out = std::move(ready_.at(b));
    ready_.erase(b);
    consumed_ = b + 1;
    cv_.notify_all();
    return true;
}

void BatchQueue::release(InBatch& batch)
{
    batch.pixels = torch::Tensor();
    meter_.sub(batch.bytes);
}

void BatchQueue::close()
{
    {
        std::lock_guard<std::mutex> l(mu_);
        nextTile_ = shape_.tiles;
    }
    cv_.notify_all();
}

void BatchQueue::wake()
{
    {
        std::lock_guard<std::mutex> l(mu_);
    }
    cv_.notify_all();
}

} // namespace fisura::detail
