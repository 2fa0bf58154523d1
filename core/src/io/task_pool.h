// Threads that run queued tasks in any order, and a parallel loop on them that never waits
// behind earlier tasks (the tiled writer: every band's tiles are compressed as tasks, so the
// next band starts while the last tiles of this one are still being compressed, instead of
// every band waiting for its slowest tile). A run of tasks (submitRange) is one entry of the
// queue, queued with one lock and one wake-up; a parallel loop's helpers go to the front of
// the queue, so idle workers help it before they take queued tasks.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fisura::io
{

class TaskPool
{
public:
    /// Background: the workers run at a lower priority than the process's other threads (Linux
    /// niceness +5), so that bulk work (a map's compression) takes the cores those leave rather
    /// than time from the threads a pipeline waits on.
    enum class Priority { Normal, Background };
    /// `threads` workers; 0 = one per core (at most 64).
    explicit TaskPool(int threads, Priority priority = Priority::Normal);
    /// Runs what is still queued, then joins.
    ~TaskPool();
    TaskPool(const TaskPool&) = delete;
    TaskPool& operator=(const TaskPool&) = delete;

    /// Queues a task for any worker.
    void submit(std::function<void()> task);
    /// Queues fn(0) .. fn(n - 1) for the workers, in that order, as one entry: one lock and one
    /// wake-up for all of them.
    void submitRange(int n, std::function<void(int)> fn);
    /// fn(0) .. fn(n - 1) on the workers and on this thread; returns when all have run. What no
    /// worker has taken yet, this thread runs itself, so queued tasks never hold it up.
    void parallelFor(int n, const std::function<void(int)>& fn);
    int threads() const { return int(workers_.size()); }

    /// threads <= 0: one per hardware thread (at most 64); else at most 64.
    static int resolveThreads(int threads);

private:
    /// Indices [next, n) of fn still to hand out (under mu_).
    struct Range {
        std::function<void(int)> fn;
        int n = 0, next = 0;
    };
    void queueRange(std::shared_ptr<Range> r, bool front);
    void loop(Priority priority);

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::shared_ptr<Range>> queue_;
    bool stopping_ = false;
    int sleeping_ = 0; // workers waiting for a task (under mu_)
    std::vector<std::thread> workers_;
};

} // namespace fisura::io
