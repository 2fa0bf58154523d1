#include "io/worker_pool.h"

#include <algorithm>

namespace fisura::io
{

int WorkerPool::resolveThreads(int threads)
{
    if (threads > 0)
        return std::min(threads, 64);
    return std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
}

WorkerPool::WorkerPool(int threads)
{
    const int n = resolveThreads(threads);
    for (int i = 1; i < n; ++i)
        workers_.emplace_back([this] { loop(); });
}

WorkerPool::~WorkerPool()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_)
        t.join();
}

void WorkerPool::drain(const std::function<void(int)>& fn, int n)
{
    for (int i = next_.fetch_add(1); i < n; i = next_.fetch_add(1))
        fn(i);
}

void WorkerPool::loop()
{
    uint64_t seen = 0;
    for (;;) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_)
            return;
        seen = generation_;
        // A late wake-up after the caller returned finds no job; taking one counts as active
        // under the same lock, so the caller cannot return while the job is in use.
        if (!job_)
            continue;
        const std::function<void(int)>* job = job_;
        const int n = n_;
        ++active_;
        lock.unlock();
        drain(*job, n);
        lock.lock();
        if (--active_ == 0)
            done_.notify_all();
    }
}

void WorkerPool::run(int n, const std::function<void(int)>& fn)
{
    if (n <= 0)
        return;
    if (workers_.empty() || n == 1) {
        for (int i = 0; i < n; ++i)
            fn(i);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &fn;
        n_ = n;
        next_.store(0);
        ++generation_;
        ++active_; // the caller
    }
    wake_.notify_all();
    drain(fn, n);
    std::unique_lock<std::mutex> lock(mutex_);
    --active_;
    done_.wait(lock, [&] { return active_ == 0; });
    job_ = nullptr;
}

} // namespace fisura::io
