// ProgressTracker on a fake clock: ETAs stay honest when work arrives in bursts (the CPU infer
// run that printed "ETA 0 s" from 3 % on), follow a job that slows down, and the reporting
// contract (first and last reports, throttling) holds.
#include <QtTest>

#include <random>
#include <vector>

#include "fisura/job.h"

using namespace fisura;
using Clock = ProgressTracker::Clock;

namespace
{

/// Time only moves when the test says so.
struct FakeClock {
    Clock::time_point now{};
    ProgressTracker::ClockFunction function()
    {
        return [this] { return now; };
    }
    void setSeconds(double s)
    {
        now = Clock::time_point(
            std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)));
    }
    double seconds() const { return std::chrono::duration<double>(now.time_since_epoch()).count(); }
};

/// One update: at `time` seconds, `done` units are complete.
struct Event {
    double time;
    double done;
};

/// Bursts of `perBurst` units, `updates` updates each, one microsecond apart; burst k arrives at
/// the k-th entry of `times`.
std::vector<Event> bursts(const std::vector<double>& times, int perBurst, int updates)
{
    std::vector<Event> out;
    double done = 0;
    for (double t : times)
        for (int u = 0; u < updates; ++u) {
            done += double(perBurst) / updates;
            out.push_back({t + u * 1e-6, done});
        }
    return out;
}

std::vector<double> every(double period, int count, double start = 0)
{
    std::vector<double> t;
    for (int i = 1; i <= count; ++i)
        t.push_back(start + i * period);
    return t;
}

struct Seen {
    Progress progress;
    double trueRemaining;
};

/// Replays `events` through a tracker (default throttling) and returns every report with the true
/// remaining time at that moment.
std::vector<Seen> replay(const std::vector<Event>& events)
{
    FakeClock clock;
    const double end = events.back().time;
    std::vector<Seen> seen;
    CallbackProgressSink sink([&](const Progress& p) {
        seen.push_back({p, std::max(0.0, end - clock.seconds())});
    });
    ProgressTracker tracker(&sink, events.back().done, std::chrono::milliseconds(100),
                            clock.function());
    for (const Event& e : events) {
        clock.setSeconds(e.time);
        tracker.update(e.done);
    }
    tracker.finish();
    return seen;
}

} // namespace

class TstProgress : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void burstyWorkGivesHonestEta_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("64 rows one by one every 4 s") << 0;
        QTest::newRow("4 chunks of 64 rows every 16 s") << 1;
        QTest::newRow("one chunk of 64 rows every 4 s") << 2;
        QTest::newRow("64 rows one by one, irregular bursts") << 3;
    }

    void burstyWorkGivesHonestEta()
    {
        QFETCH(int, kind);
        // A 16-minute job of 15360 rows (16 rows/s on average).
        std::vector<Event> events;
        if (kind == 0)
            events = bursts(every(4, 240), 64, 64);
        else if (kind == 1)
            events = bursts(every(16, 60), 256, 4);
        else if (kind == 2)
            events = bursts(every(4, 240), 64, 1);
        else {
            std::mt19937 rng(7);
            std::uniform_real_distribution<double> gap(1.0, 7.0);
            std::vector<double> times;
            double t = 0;
            for (int i = 0; i < 240; ++i)
                times.push_back(t += gap(rng));
            events = bursts(times, 64, 64);
        }
        const std::vector<Seen> seen = replay(events);
        int checked = 0;
        for (const Seen& s : seen) {
            if (s.progress.fraction < 0.05 || s.progress.fraction > 0.95)
                continue;
            ++checked;
            const double ratio = s.progress.etaSeconds / s.trueRemaining;
            QVERIFY2(ratio > 0.5 && ratio < 2.0,
                     qPrintable(QStringLiteral("at %1 %: ETA %2 s, truly %3 s")
                                    .arg(s.progress.fraction * 100)
                                    .arg(s.progress.etaSeconds)
                                    .arg(s.trueRemaining)));
        }
        QVERIFY2(checked >= 50, qPrintable(QString::number(checked)));
        QCOMPARE(seen.back().progress.fraction, 1.0);
        QCOMPARE(seen.back().progress.etaSeconds, 0.0);
    }

    void etaFollowsAJobThatSlowsDown()
    {
        // Half the rows at 16 rows/s, the other half at 8 rows/s, in bursts of 64 rows.
        std::vector<double> times = every(4, 120);
        for (double t : every(8, 120, 480))
            times.push_back(t);
        const std::vector<Seen> seen = replay(bursts(times, 64, 64));
        int checked = 0;
        for (const Seen& s : seen) {
            if (s.progress.fraction < 0.75 || s.progress.fraction > 0.95)
                continue;
            ++checked;
            const double ratio = s.progress.etaSeconds / s.trueRemaining;
            QVERIFY2(ratio > 0.85 && ratio < 1.15,
                     qPrintable(QStringLiteral("at %1 %: ETA %2 s, truly %3 s")
                                    .arg(s.progress.fraction * 100)
                                    .arg(s.progress.etaSeconds)
                                    .arg(s.trueRemaining)));
        }
        QVERIFY(checked >= 20);
    }

    void firstAndLastReportsGoOutOthersAreThrottled()
    {
        FakeClock clock;
        std::vector<Progress> seen;
        CallbackProgressSink sink([&](const Progress& p) { seen.push_back(p); });
        ProgressTracker t(&sink, 100.0, std::chrono::milliseconds(100), clock.function());
        for (int k = 1; k <= 100; ++k) { // one unit every 10 ms
            clock.now += std::chrono::milliseconds(10);
            t.update(k, "unit");
        }
        QCOMPARE(seen.size(), size_t(10)); // at 10 ms, then every 100 ms
        QCOMPARE(seen.front().fraction, 0.01);
        QCOMPARE(seen.front().message, std::string("unit"));
        // Before a rate window closes the ETA is the plain average: 99 units at 100 units/s.
        QVERIFY(std::abs(seen.front().etaSeconds - 0.99) < 1e-6);
        QVERIFY(std::abs(seen.back().etaSeconds - 0.09) < 0.01);
        QCOMPARE(t.last().fraction, 1.0);
        clock.now += std::chrono::milliseconds(5);
        t.finish("done");
        QCOMPARE(seen.size(), size_t(11));
        QCOMPARE(seen.back().fraction, 1.0);
        QCOMPARE(seen.back().etaSeconds, 0.0);
        QVERIFY(std::abs(seen.back().elapsedSeconds - 1.005) < 1e-9);
    }

    void noWorkYetAndUnknownTotalHaveNoEta()
    {
        FakeClock clock;
        ProgressTracker t(nullptr, 10.0, std::chrono::milliseconds(0), clock.function());
        clock.setSeconds(2);
        t.update(0);
        QVERIFY(t.last().etaSeconds < 0);
        QCOMPARE(t.last().elapsedSeconds, 2.0);
        ProgressTracker unknown(nullptr, 0.0, std::chrono::milliseconds(0), clock.function());
        clock.setSeconds(3);
        unknown.update(5);
        QVERIFY(unknown.last().fraction < 0);
        QVERIFY(unknown.last().etaSeconds < 0);
    }
};

QTEST_GUILESS_MAIN(TstProgress)
#include "tst_progress.moc"
