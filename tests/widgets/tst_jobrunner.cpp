#include <QtTest>

#include <thread>

#include "common/jobrunner.h"

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
