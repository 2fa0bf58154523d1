// Task pool; see task_pool.h.
#include "io/task_pool.h"

#include "util/thread_start.h"

#include <algorithm>
#include <atomic>
#include <memory>

namespace fisura::io
{

int TaskPool::resolveThreads(int threads)
{
    if (threads > 0)
        return std::min(threads, 64);
    return std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
}

TaskPool::TaskPool(int threads)
{
    const int n = resolveThreads(threads);
    // The submitting thread does not run tasks: one per core. Short of memory or threads, fewer
    // workers do the same work (none: submit() runs each task itself).
    try {
        workers_.reserve(size_t(n)); // push_back below cannot throw then
    } catch (const std::bad_alloc&) {
        return;
    }
    for (int i = 0; i < n; ++i) {
        std::thread t;
        if (!util::startThread(t, "a task pool", [this] { loop(); }))
            break;
        workers_.push_back(std::move(t));
    }
}

TaskPool::~TaskPool()
{
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_)
        t.join();
    for (auto& task : queue_) // no workers: run the rest here
        task();
}

void TaskPool::submit(std::function<void()> task)
{
    if (workers_.empty()) {
        task();
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mu_);
        queue_.push_back(std::move(task));
    }
    cv_.notify_one();
}

void TaskPool::loop()
{
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty())
                return; // stopping, and nothing left
            task = std::move(queue_.front());
            queue_.pop_front();
        }
        task();
    }
}

void TaskPool::parallelFor(int n, const std::function<void(int)>& fn)
{
    if (n <= 0)
        return;
    struct Loop {
        const std::function<void(int)>* fn = nullptr;
        int n = 0;
        std::atomic<int> next{0};
        std::mutex mu;
        std::condition_variable cv;
        int done = 0;
        // Runs indices until none is left; fn is only touched for an index taken here, and the
        // caller returns only after every taken index ran, so a late helper never sees it gone.
        void drain()
        {
            int ran = 0;
            for (int i = next.fetch_add(1); i < n; i = next.fetch_add(1), ++ran)
                (*fn)(i);
            if (ran == 0)
                return;
            std::lock_guard<std::mutex> lock(mu);
            done += ran;
            if (done == n)
                cv.notify_all();
        }
    };
    auto loop = std::make_shared<Loop>();
    loop->fn = &fn;
    loop->n = n;
    const int helpers = std::min(n - 1, int(workers_.size()));
    for (int i = 0; i < helpers; ++i)
        submit([loop] { loop->drain(); });
    loop->drain();
    std::unique_lock<std::mutex> lock(loop->mu);
    loop->cv.wait(lock, [&] { return loop->done == n; });
}

} // namespace fisura::io
