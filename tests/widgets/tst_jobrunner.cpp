#include <QtTest>

#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

#include "common/jobrunner.h"
#include "fisura/policy.h"
#include "fisura/process.h"

using namespace fisura;
using namespace fisura::ui;

class TstJobRunner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runsOffTheGuiThreadAndFinishesOnIt()
    {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        std::thread::id jobThread;
        QVERIFY(r.start([&](const CancelToken&, ProgressSink*) {
            jobThread = std::this_thread::get_id();
            return Status::ok();
        }));
        QVERIFY(r.isRunning());
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(jobThread != std::this_thread::get_id());
        QVERIFY(done.at(0).at(0).value<Status>().isOk());
        QVERIFY(!r.isRunning());
    }

    void refusesASecondJobWhileBusy()
    {
        JobRunner r;
        std::atomic<bool> release{false};
        QVERIFY(r.start([&](const CancelToken&, ProgressSink*) {
            while (!release)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return Status::ok();
        }));
        QVERIFY(!r.start([](const CancelToken&, ProgressSink*) { return Status::ok(); }));
        release = true;
        QSignalSpy done(&r, &JobRunner::finished);
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(r.start([](const CancelToken&, ProgressSink*) { return Status::ok(); }));
        QTRY_COMPARE(done.count(), 2);
    }

    void cancelIsAnsweredQuickly()
    {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        r.start([](const CancelToken& c, ProgressSink*) {
            for (int i = 0; i < 100000; ++i) {
                if (c.isCancelled())
                    return Status(ErrorCode::Cancelled, "stopped");
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            return Status::ok();
        });
        QElapsedTimer t;
        t.start();
        r.cancel();
        QTRY_COMPARE(done.count(), 1);
        QVERIFY2(t.elapsed() < 500, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(done.at(0).at(0).value<Status>().code(), ErrorCode::Cancelled);
    }

    void progressIsCoalescedAndDelivered()
    {
        JobRunner r;
        QSignalSpy prog(&r, &JobRunner::progress);
        QSignalSpy done(&r, &JobRunner::finished);
        r.start([](const CancelToken&, ProgressSink* sink) {
            for (int i = 1; i <= 10000; ++i)
                sink->report(Progress{i / 10000.0, -1, 0, "step"});
            return Status::ok();
        });
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(prog.count() >= 1);
        QVERIFY(prog.count() < 10000);               // coalesced, not one queued event per report
        QCOMPARE(prog.last().at(0).toDouble(), 1.0); // the last report is never lost
    }

    void exceptionsBecomeInternalErrors()
    {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        r.start(
            [](const CancelToken&, ProgressSink*) -> Status { throw std::runtime_error("boom"); });
        QTRY_COMPARE(done.count(), 1);
        const Status s = done.at(0).at(0).value<Status>();
        QCOMPARE(s.code(), ErrorCode::Internal);
        QCOMPARE(QString::fromStdString(s.detail()), QStringLiteral("boom"));
    }

    void typedStartDeliversTheValueOnTheGuiThread()
    {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        std::thread::id workThread, doneThread;
        std::optional<Result<std::vector<int>>> got;
        bool finishedBeforeValue = false;
        QVERIFY(r.start<std::vector<int>>(
            [&](const CancelToken&, ProgressSink*) -> Result<std::vector<int>> {
                workThread = std::this_thread::get_id();
                return std::vector<int>{1, 2, 3};
            },
            [&](Result<std::vector<int>> v) {
                doneThread = std::this_thread::get_id();
                finishedBeforeValue = done.count() > 0;
                QVERIFY(!r.isRunning()); // the handler may start the next job
                got.emplace(std::move(v));
            }));
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(got && got->isOk());
        QCOMPARE(**got, std::vector<int>({1, 2, 3}));
        QVERIFY(workThread != std::this_thread::get_id());
        QCOMPARE(doneThread, std::this_thread::get_id());
        QVERIFY(!finishedBeforeValue); // the value first, then finished()
        QVERIFY(done.at(0).at(0).value<Status>().isOk());
    }

    void typedStartDeliversErrors_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("code");
        QTest::newRow("error result") << 0 << int(ErrorCode::NotFound);
        QTest::newRow("exception") << 1 << int(ErrorCode::Internal);
    }

    void typedStartDeliversErrors()
    {
        QFETCH(int, kind);
        QFETCH(int, code);
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        std::optional<Result<QString>> got;
        r.start<QString>(
            [kind](const CancelToken&, ProgressSink*) -> Result<QString> {
                if (kind == 1)
                    throw std::runtime_error("boom");
                return Status(ErrorCode::NotFound, "x.tif");
            },
            [&](Result<QString> v) { got.emplace(std::move(v)); });
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(got && !got->isOk());
        QCOMPARE(int(got->status().code()), code);
        QCOMPARE(int(done.at(0).at(0).value<Status>().code()), code);
    }

    void typedStartHonoursCancel()
    {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        std::optional<Result<int>> got;
        r.start<int>(
            [](const CancelToken& c, ProgressSink* sink) -> Result<int> {
                for (int i = 0; i < 100000; ++i) {
                    if (c.isCancelled())
                        return Status(ErrorCode::Cancelled, "stopped");
                    sink->report(Progress{i / 100000.0, -1, 0, "step"});
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
                return 42;
            },
            [&](Result<int> v) { got.emplace(std::move(v)); });
        r.cancel();
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(got);
        QCOMPARE(got->status().code(), ErrorCode::Cancelled);
    }

    void discardForgetsTheValueButFinishes()
    {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        bool delivered = false;
        std::atomic<bool> sawCancel{false};
        r.start<int>(
            [&](const CancelToken& c, ProgressSink*) -> Result<int> {
                while (!c.isCancelled())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                sawCancel = true;
                return 7; // a value for inputs that changed meanwhile
            },
            [&](Result<int>) { delivered = true; });
        r.discard();
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(sawCancel);
        QVERIFY(!delivered);
        // The next job's handler runs as usual.
        std::optional<Result<int>> got;
        QVERIFY(r.start<int>([](const CancelToken&, ProgressSink*) -> Result<int> { return 8; },
                             [&](Result<int> v) { got.emplace(std::move(v)); }));
        QTRY_VERIFY(got.has_value());
        QCOMPARE(**got, 8);
    }

    // A finished job's memory goes back to the system. Under the heap settings every tensor job
    // applies (freed blocks stay in the heap, which is trimmed only above 1 GiB free), what a job
    // allocated and freed would otherwise stay resident for as long as the window stays open.
    void finishedJobGivesItsMemoryBack()
    {
        applyCpuSettings(ExecutionPolicy{}); // the malloc settings of a training or a scan
        constexpr size_t kBlock = 4u << 20, kBlocks = 64; // 256 MiB in blocks a tensor may take
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        const uint64_t before = processMemory().resident;
        uint64_t during = 0;
        QVERIFY(r.start([&](const CancelToken&, ProgressSink*) {
            std::vector<char*> blocks;
            for (size_t i = 0; i < kBlocks; ++i) {
                auto* b = static_cast<volatile char*>(std::malloc(kBlock));
                for (size_t k = 0; k < kBlock; k += 4096)
                    b[k] = 1; // resident, not just reserved
                blocks.push_back(const_cast<char*>(b));
            }
            during = processMemory().resident;
            for (char* b : blocks)
                std::free(b);
            return Status::ok();
        }));
        QTRY_COMPARE(done.count(), 1);
        QVERIFY2(during >= before + kBlock * kBlocks * 3 / 4, "the job's blocks were not resident");
        const uint64_t after = processMemory().resident;
        QVERIFY2(after < before + (64u << 20),
                 qPrintable(QStringLiteral("%1 MiB still resident after the job, %2 before")
                                .arg(after >> 20)
                                .arg(before >> 20)));
    }

    void destructorCancelsAndJoins()
    {
        std::atomic<bool> sawCancel{false};
        {
            JobRunner r;
            r.start([&](const CancelToken& c, ProgressSink*) {
                while (!c.isCancelled())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                sawCancel = true;
                return Status(ErrorCode::Cancelled, {});
            });
        }
        QVERIFY(sawCancel);
    }
};

QTEST_MAIN(TstJobRunner)
#include "tst_jobrunner.moc"
