// io::TaskPool, the tiled writer's compression threads: every submitted task runs (also those
// still queued when the pool goes), a range of tasks each index once; parallelFor runs each
// index once, on several threads, returns without waiting behind tasks queued before it, and
// its helpers go ahead of them.
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
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

    void submitRangeRunsEachIndexOnce()
    {
        std::vector<std::atomic<int>> hits(3000);
        std::atomic<int> offThread{0};
        const auto caller = std::this_thread::get_id();
        {
            io::TaskPool pool(3);
            for (int r = 0; r < 3; ++r)
                pool.submitRange(1000, [&, r](int i) {
                    ++hits[size_t(r * 1000 + i)];
                    if (std::this_thread::get_id() != caller)
                        ++offThread;
                });
            pool.submitRange(0, [](int) { QFAIL("no index"); });
        } // the destructor runs what is still queued
        for (const auto& h : hits)
            QCOMPARE(h.load(), 1);
        QVERIFY(offThread.load() > 0);
    }

    void parallelForHelpersGoAheadOfQueuedTasks()
    {
        io::TaskPool pool(1);
        std::mutex workerGate, callerGate, logMu;
        std::unique_lock<std::mutex> workerHeld(workerGate), callerHeld(callerGate);
        std::vector<std::string> log;
        auto note = [&](const std::string& s) {
            std::lock_guard<std::mutex> g(logMu);
            log.push_back(s);
        };
        std::atomic<bool> workerBusy{false};
        pool.submit([&] { // the only worker, held
            workerBusy = true;
            std::lock_guard<std::mutex> g(workerGate);
        });
        QTRY_VERIFY(workerBusy.load());
        pool.submit([&] { note("queued task"); });
        std::atomic<bool> callerIn{false};
        std::thread loopThread([&] {
            pool.parallelFor(2, [&](int i) {
                if (i == 0) { // the looping thread takes index 0 and waits at its gate
                    callerIn = true;
                    std::lock_guard<std::mutex> g(callerGate);
                }
                note("index " + std::to_string(i));
            });
        });
        QTRY_VERIFY(callerIn.load());
        workerHeld.unlock(); // the worker: the loop's helper first, then the queued task
        QTRY_COMPARE(int(log.size()), 2);
        callerHeld.unlock();
        loopThread.join();
        QCOMPARE(log.size(), size_t(3));
        QCOMPARE(log[0], std::string("index 1"));
        QCOMPARE(log[1], std::string("queued task"));
        QCOMPARE(log[2], std::string("index 0"));
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
