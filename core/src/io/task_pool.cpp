// Task pool; see task_pool.h.
#include "io/task_pool.h"

#include "util/thread_start.h"

#include <algorithm>
#include <atomic>
#include <memory>

#ifdef __linux__
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace fisura::io
{

int TaskPool::resolveThreads(int threads)
{
    if (threads > 0)
        return std::min(threads, 64);
    return std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
}

TaskPool::TaskPool(int threads, Priority priority)
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
        if (!util::startThread(t, "fisura-pool", "a task pool",
                               [this, priority] { loop(priority); }))
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
    for (auto& r : queue_) // no workers: run the rest here
        for (; r->next < r->n; ++r->next)
            r->fn(r->next);
}

void TaskPool::queueRange(std::shared_ptr<Range> r, bool front)
{
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (front)
            queue_.push_front(std::move(r));
        else
            queue_.push_back(std::move(r));
    }
    // One worker; each worker that takes a task wakes another while tasks are left (loop()),
    // so the queueing thread (the map writer's band thread, which a multi-GPU inference can
    // wait for) makes one wake-up, not one per sleeping worker.
    cv_.notify_one();
}

void TaskPool::submit(std::function<void()> task)
{
    if (workers_.empty()) {
        task();
        return;
    }
    auto r = std::make_shared<Range>();
    r->fn = [t = std::move(task)](int) { t(); };
    r->n = 1;
    queueRange(std::move(r), false);
}

void TaskPool::submitRange(int n, std::function<void(int)> fn)
{
    if (n <= 0)
        return;
    if (workers_.empty()) {
        for (int i = 0; i < n; ++i)
            fn(i);
        return;
    }
    auto r = std::make_shared<Range>();
    r->fn = std::move(fn);
    r->n = n;
    queueRange(std::move(r), false);
}

void TaskPool::loop(Priority priority)
{
#ifdef __linux__
    // Niceness is per thread on Linux (PRIO_PROCESS with a thread id). On one 4-GPU host the
    // rows of an inference waited 0.24 s of a 1.18 s run for the map writer's band thread with
    // its 64 workers at the same priority, 0.06-0.10 s at +5; on another it made no difference
    // (tests/bench/RESULTS.md).
    if (priority == Priority::Background) {
        const pid_t tid = pid_t(syscall(SYS_gettid));
        errno = 0;
        const int now = getpriority(PRIO_PROCESS, id_t(tid));
        if (errno == 0)
            (void)setpriority(PRIO_PROCESS, id_t(tid), std::min(19, now + 5));
    }
#else
    (void)priority;
#endif
    for (;;) {
        std::shared_ptr<Range> r;
        int i = 0;
        bool wakeNext = false;
        {
            std::unique_lock<std::mutex> lock(mu_);
            ++sleeping_;
            cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            --sleeping_;
            if (queue_.empty())
                return; // stopping, and nothing left
            r = queue_.front();
            i = r->next++;
            if (r->next == r->n)
                queue_.pop_front();
            wakeNext = !queue_.empty() && sleeping_ > 0;
        }
        if (wakeNext)
            cv_.notify_one();
        r->fn(i);
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
    if (helpers > 0) { // ahead of queued tasks: idle workers help at once
        auto r = std::make_shared<Range>();
        r->fn = [loop](int) { loop->drain(); };
        r->n = helpers;
        queueRange(std::move(r), true);
    }
    loop->drain();
    std::unique_lock<std::mutex> lock(loop->mu);
    loop->cv.wait(lock, [&] { return loop->done == n; });
}

} // namespace fisura::io
