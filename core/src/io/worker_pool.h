// A small fixed pool of threads for data-parallel loops (decode or compress a band of tiles).
// The calling thread takes part, so a pool of 1 runs everything inline.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fisura::io
{

class WorkerPool
{
public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int size() const { return static_cast<int>(workers_.size()) + 1; }
    /// Calls fn(0..n-1), spread over the pool; returns when all calls returned.
    void run(int n, const std::function<void(int)>& fn);

    /// threads <= 0: one per hardware thread.
    static int resolveThreads(int threads);

private:
    void loop();
    void drain(const std::function<void(int)>& fn, int n);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* job_ = nullptr;
    int n_ = 0;
    std::atomic<int> next_{0};
    int active_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

} // namespace fisura::io
