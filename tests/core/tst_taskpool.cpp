// io::TaskPool, the tiled writer's compression threads: every submitted task runs (also those
// still queued when the pool goes); parallelFor runs each index once, on several threads, and
// returns without waiting behind tasks queued before it.
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "io/task_pool.h"

using namespace fisura;

class TstTaskPool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everySubmittedTaskRuns()
    {
        std::atomic<int> ran{0};
        {
            io::TaskPool pool(3);
            QCOMPARE(pool.threads(), 3);
            for (int i = 0; i < 1000; ++i)
                pool.submit([&] { ++ran; });
        } // the destructor runs what is still queued
        QCOMPARE(ran.load(), 1000);
    }

    void tasksRunOffTheSubmittingThread()
    {
        io::TaskPool pool(2);
        std::mutex mu;
        std::set<std::thread::id> ids;
        std::atomic<int> left{200};
        for (int i = 0; i < 200; ++i)
            pool.submit([&] {
                {
                    std::lock_guard<std::mutex> g(mu);
                    ids.insert(std::this_thread::get_id());
                }
                --left;
            });
        QTRY_COMPARE(left.load(), 0);
        QVERIFY(!ids.count(std::this_thread::get_id()));
    }

    void parallelForRunsEachIndexOnce()
    {
        io::TaskPool pool(4);
        std::vector<std::atomic<int>> hits(5000);
        pool.parallelFor(5000, [&](int i) { ++hits[size_t(i)]; });
        for (const auto& h : hits)
            QCOMPARE(h.load(), 1);
        pool.parallelFor(0, [&](int) { QFAIL("no index"); });
        pool.parallelFor(1, [&](int i) { ++hits[size_t(i)]; });
        QCOMPARE(hits[0].load(), 2);
    }

    void parallelForDoesNotWaitBehindQueuedTasks()
    {
        io::TaskPool pool(2);
        std::mutex gate;
        std::unique_lock<std::mutex> closed(gate);
        std::atomic<int> blocked{0};
        for (int i = 0; i < 2; ++i) // both workers held at the gate
            pool.submit([&] {
                ++blocked;
                std::lock_guard<std::mutex> g(gate);
            });
        QTRY_COMPARE(blocked.load(), 2);
        std::atomic<int> ran{0};
        pool.parallelFor(100, [&](int) { ++ran; }); // the caller runs them all
        QCOMPARE(ran.load(), 100);
        closed.unlock();
    }
};

QTEST_GUILESS_MAIN(TstTaskPool)
#include "tst_taskpool.moc"
