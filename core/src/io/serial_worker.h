// A thread that runs jobs one after another, in the order they were queued, while the thread
// that queues them goes on (the tiled writer: compressing band k+1 while band k is written, and
// taking rows while a band is compressed). Bounded: push() waits while `maxQueued` jobs wait.
// The first job that fails ends the work: later jobs are dropped and push() returns the failure.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "fisura/status.h"

namespace fisura::io
{

class SerialWorker
{
public:
    using Job = std::function<Status()>;

    /// When its thread cannot start, every push() and drain() returns that failure.
    explicit SerialWorker(size_t maxQueued = 2);
    /// Stops (dropping what is still queued) and joins.
    ~SerialWorker();
    SerialWorker(const SerialWorker&) = delete;
    SerialWorker& operator=(const SerialWorker&) = delete;

    /// Queues a job, waiting for room (the wait is added to `waitSeconds`; `waited`, if given,
    /// says whether the queue was full). Returns the first failure instead once a job failed
    /// (the job is not queued then).
    Status push(Job job, double& waitSeconds, bool* waited = nullptr);
    /// Waits until every queued job ran; the first failure, if any.
    Status drain();
    /// Stops at once: queued jobs are dropped, a running one finishes, the thread ends. Safe to
    /// call twice.
    void stop();

    /// Time the thread spent running jobs (read after drain()).
    double busySeconds() const { return busy_; }

private:
    void loop();

    const size_t maxQueued_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<Job> queue_;
    bool running_ = false; // a job is out of the queue and running
    bool stopping_ = false;
    Status failure_;
    double busy_ = 0.0;
    std::thread thread_;
};

} // namespace fisura::io
