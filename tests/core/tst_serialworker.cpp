// io::SerialWorker, the tiled writer's band and file threads: jobs run in order on one thread
// while the producer goes on; the queue is bounded; the first failure stops the work, drops what
// waits (releasing what those jobs hold) and is returned by push() and drain(); stop() drops the
// rest at once.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "io/serial_worker.h"

using namespace fisura;

class TstSerialWorker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runsInOrderOnOneThread()
    {
        io::SerialWorker w(2);
        std::vector<int> order;
        std::thread::id runner;
        bool oneThread = true;
        double wait = 0;
        for (int i = 0; i < 50; ++i)
            QVERIFY(w.push(
                [&, i] {
                    if (runner == std::thread::id())
                        runner = std::this_thread::get_id();
                    oneThread = oneThread && runner == std::this_thread::get_id();
                    order.push_back(i);
                    return Status::ok();
                },
                wait));
        QVERIFY(w.drain());
        QCOMPARE(int(order.size()), 50);
        for (int i = 0; i < 50; ++i)
            QCOMPARE(order[size_t(i)], i);
        QVERIFY(oneThread);
        QVERIFY(runner != std::this_thread::get_id());
    }

    void pushWaitsForRoom()
    {
        io::SerialWorker w(1);
        std::mutex gate;
        std::unique_lock<std::mutex> closed(gate);
        std::atomic<int> ran{0};
        double wait = 0;
        auto blocked = [&] {
            std::lock_guard<std::mutex> g(gate);
            ++ran;
            return Status::ok();
        };
        QVERIFY(w.push(blocked, wait)); // runs, waits at the gate
        QVERIFY(w.push(blocked, wait)); // queued: the one place
        std::atomic<bool> third{false};
        std::thread producer([&] {
            double w3 = 0;
            (void)w.push(blocked, w3); // no room until the gate opens
            third = true;
        });
        QTest::qWait(100);
        QVERIFY(!third); // still waiting for room
        closed.unlock();
        producer.join();
        QVERIFY(w.drain());
        QCOMPARE(ran.load(), 3);
    }

    void failureDropsTheRestAndIsReturned()
    {
        io::SerialWorker w(4);
        std::mutex gate;
        std::unique_lock<std::mutex> closed(gate);
        std::atomic<int> ran{0};
        auto held = std::make_shared<int>(7); // released when the jobs holding it are dropped
        double wait = 0;
        QVERIFY(w.push(
            [&] {
                std::lock_guard<std::mutex> g(gate);
                return Status(ErrorCode::IoError, "disk full");
            },
            wait));
        for (int i = 0; i < 3; ++i)
            QVERIFY(w.push(
                [&ran, held] {
                    ++ran;
                    return Status::ok();
                },
                wait));
        QCOMPARE(held.use_count(), 4L);
        closed.unlock();
        const Status s = w.drain();
        QCOMPARE(int(s.code()), int(ErrorCode::IoError));
        QCOMPARE(ran.load(), 0);        // nothing ran after the failure
        QCOMPARE(held.use_count(), 1L); // and what the dropped jobs held is released
        const Status again = w.push([] { return Status::ok(); }, wait);
        QCOMPARE(int(again.code()), int(ErrorCode::IoError));
    }

    void stopDropsWhatWaits()
    {
        std::atomic<int> ran{0};
        std::atomic<bool> open{false};
        auto held = std::make_shared<int>(1);
        {
            io::SerialWorker w(8);
            double wait = 0;
            QVERIFY(w.push(
                [&] {
                    while (!open)
                        std::this_thread::yield();
                    return Status::ok();
                },
                wait));
            for (int i = 0; i < 5; ++i)
                QVERIFY(w.push(
                    [&ran, held] {
                        ++ran;
                        return Status::ok();
                    },
                    wait));
            std::thread opener([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                open = true;
            });
            w.stop(); // the running job ends when it is let go; the queued ones never run
            opener.join();
            QCOMPARE(int(w.push([] { return Status::ok(); }, wait).code()),
                     int(ErrorCode::Cancelled));
        }
        QCOMPARE(ran.load(), 0);
        QCOMPARE(held.use_count(), 1L);
    }
};

QTEST_GUILESS_MAIN(TstSerialWorker)
#include "tst_serialworker.moc"
