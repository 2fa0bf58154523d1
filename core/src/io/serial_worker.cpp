// A thread that runs queued jobs in order; see serial_worker.h.
#include "io/serial_worker.h"

#include <chrono>

#include "util/thread_start.h"

namespace fisura::io
{

SerialWorker::SerialWorker(size_t maxQueued) : maxQueued_(maxQueued < 1 ? 1 : maxQueued)
{
    // Without its thread (short of memory or threads) the worker is failed from the start:
    // push() and drain() return why.
    failure_ = util::startThread(thread_, "fisura-file", "writing the file", [this] { loop(); });
}

SerialWorker::~SerialWorker()
{
    stop();
}

void SerialWorker::stop()
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

Status SerialWorker::push(Job job, double& waitSeconds, bool* waited)
{
    std::unique_lock<std::mutex> l(mu_);
    const auto t0 = std::chrono::steady_clock::now();
    const auto room = [&] { return queue_.size() < maxQueued_ || !failure_.isOk() || stopping_; };
    if (waited)
        *waited = !room();
    cv_.wait(l, room);
    waitSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!failure_.isOk())
        return failure_;
    if (stopping_)
        return Status(ErrorCode::Cancelled, "the writer was stopped");
    queue_.push_back(std::move(job));
    cv_.notify_all();
    return Status::ok();
}

Status SerialWorker::drain()
{
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return (queue_.empty() && !running_) || stopping_; });
    return failure_;
}

void SerialWorker::loop()
{
    std::unique_lock<std::mutex> l(mu_);
    for (;;) {
        cv_.wait(l, [&] { return !queue_.empty() || stopping_; });
        if (stopping_)
            return;
        Job job = std::move(queue_.front());
        queue_.pop_front();
        running_ = true;
        cv_.notify_all(); // room for the producer
        l.unlock();
        const auto t0 = std::chrono::steady_clock::now();
        Status s = job();
        const double spent =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        l.lock();
        busy_ += spent;
        if (!s && failure_.isOk()) {
            failure_ = s;
            queue_.clear(); // nothing runs after a failure
        }
        job = nullptr; // what it held goes, once a failure is visible to push()
        running_ = false;
        cv_.notify_all();
    }
}

} // namespace fisura::io
