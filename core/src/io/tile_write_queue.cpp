// The file side of the tiled writer; see tile_write_queue.h.
#include "io/tile_write_queue.h"

#include <chrono>
#include <string>

namespace fisura::io
{

TileWriteQueue::TileWriteQueue(size_t maxBands) : maxBands_(maxBands < 1 ? 1 : maxBands)
{
    thread_ = std::thread([this] { loop(); });
}

TileWriteQueue::~TileWriteQueue()
{
    stop();
}

void TileWriteQueue::stop()
{
    {
        std::lock_guard<std::mutex> l(mu_);
        stopping_ = true;
        queue_.clear();
    }
    cv_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

Status TileWriteQueue::push(Band band, double& waitSeconds)
{
    std::unique_lock<std::mutex> l(mu_);
    const auto t0 = std::chrono::steady_clock::now();
    cv_.wait(l, [&] { return queue_.size() < maxBands_ || !failure_.isOk() || stopping_; });
    waitSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!failure_.isOk())
        return failure_;
    if (stopping_)
        return Status(ErrorCode::Cancelled, "tile writing was stopped");
    queue_.push_back(std::move(band));
    cv_.notify_all();
    return Status::ok();
}

Status TileWriteQueue::drain()
{
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return (queue_.empty() && !writing_) || stopping_; });
    return failure_;
}

void TileWriteQueue::loop()
{
    std::unique_lock<std::mutex> l(mu_);
    for (;;) {
        cv_.wait(l, [&] { return !queue_.empty() || stopping_; });
        if (stopping_)
            return;
        Band band = std::move(queue_.front());
        queue_.pop_front();
        writing_ = true;
        cv_.notify_all(); // room for the producer
        l.unlock();
        const auto t0 = std::chrono::steady_clock::now();
        Status s = write(band);
        const double spent =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        l.lock();
        busy_ += spent;
        writing_ = false;
        if (!s && failure_.isOk()) {
            failure_ = s;
            queue_.clear(); // nothing is written after a failure
        }
        cv_.notify_all();
    }
}

Status TileWriteQueue::write(Band& band)
{
    TIFF* tif = band.file->get();
    for (size_t tx = 0; tx < band.tiles.size(); ++tx) {
        const std::vector<uint8_t>& t = band.tiles[tx];
        if (TIFFWriteRawTile(tif, band.firstTile + uint32_t(tx), const_cast<uint8_t*>(t.data()),
                             tmsize_t(t.size())) < 0)
            return band.file->error(ErrorCode::IoError,
                                    "cannot write tile row " + std::to_string(band.bandIndex));
        bytes_ += t.size();
    }
    return Status::ok();
}

} // namespace fisura::io
