// Threads that run queued tasks in any order, and a parallel loop on them that never waits
// behind earlier tasks (the tiled writer: every band's tiles are compressed as tasks, so the
// next band starts while the last tiles of this one are still being compressed, instead of
// every band waiting for its slowest tile).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fisura::io
{

class TaskPool
{
public:
    /// `threads` workers; 0 = one per core (at most 64).
    explicit TaskPool(int threads);
    /// Runs what is still queued, then joins.
    ~TaskPool();
    TaskPool(const TaskPool&) = delete;
    TaskPool& operator=(const TaskPool&) = delete;

    /// Queues a task for any worker.
    void submit(std::function<void()> task);
    /// fn(0) .. fn(n - 1) on the workers and on this thread; returns when all have run. What no
    /// worker has taken yet, this thread runs itself, so queued tasks never hold it up.
    void parallelFor(int n, const std::function<void(int)>& fn);
    int threads() const { return int(workers_.size()); }

    /// threads <= 0: one per hardware thread (at most 64); else at most 64.
    static int resolveThreads(int threads);

private:
    void loop();

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

} // namespace fisura::io
