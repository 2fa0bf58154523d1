// The map writer's adaptive ZSTD level (io::AdaptiveLevel): it steps down while the writer waits,
// but keeps a lower level only where it compresses faster. Rates per level are the ones
// bench_map_levels measured (tests/bench/RESULTS.md, "A hard-to-compress map").
#include <QtTest>

#include <map>

#include "fisura/tiledwriter.h"
#include "io/adaptive_level.h"

using fisura::io::AdaptiveLevel;

namespace
{

/// `bands` level-0 bands, the appending thread waiting for every one; each band compressed at
/// the level chosen, at `rates` (MB/s per core). How many bands went to each level.
std::map<int, int> waitingRun(AdaptiveLevel& a, const std::map<int, double>& rates, int bands)
{
    std::map<int, int> used;
    for (int b = 0; b < bands; ++b) {
        const int level = a.next(true);
        ++used[level];
        a.measured(level, rates.at(level) * 1e6, 1.0);
    }
    return used;
}

/// waitingRun, each lowered band's sample tile `sizes` (level -> size increase over the level
/// asked for: 0.3 = 30 % larger) larger than at the level asked for.
std::map<int, int> waitingRunSized(AdaptiveLevel& a, const std::map<int, double>& rates,
                                   const std::map<int, double>& sizes, int bands)
{
    std::map<int, int> used;
    for (int b = 0; b < bands; ++b) {
        const int level = a.next(true);
        ++used[level];
        a.measured(level, rates.at(level) * 1e6, 1.0);
        if (sizes.count(level) > 0)
            a.sized(level, 1000.0 * (1.0 + sizes.at(level)), 1000.0);
    }
    return used;
}

} // namespace

class TstAdaptiveLevel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A 4.5:1 map (a DeepCrack-trained U-Net's): fast levels are no faster; only level 1 pays.
    void hardMapSettlesWhereALevelPays()
    {
        const std::map<int, double> rates{{3, 317}, {2, 338}, {1, 359}, {-1, 321}, {-2, 330}};
        AdaptiveLevel a(3, -2);
        const auto used = waitingRun(a, rates, 40);
        QCOMPARE(a.level(), 1);
        QVERIFY(a.pays(1));
        QVERIFY(!a.pays(2) && !a.pays(-1) && !a.pays(-2));
        // The levels that do not pay were tried once each.
        QCOMPARE(used.at(2), 1);
        QCOMPARE(used.at(-1), 1);
        QCOMPARE(used.at(-2), 1);
        QVERIFY(used.at(1) >= 30);
    }

    // The starter model's maps of CrackConglomerate (19:1): 2 is 1.11x level 3, -1 1.12x level
    // 2, -2 only 1.05x -1.
    void easyMapGoesAsLowAsPays()
    {
        const std::map<int, double> rates{{3, 1470}, {2, 1625}, {1, 1572}, {-1, 1823}, {-2, 1913}};
        AdaptiveLevel a(3, -2);
        const auto used = waitingRun(a, rates, 40);
        QCOMPARE(a.level(), -1);
        QVERIFY(a.pays(2) && a.pays(-1));
        QVERIFY(!a.pays(1) && !a.pays(-2));
        QCOMPARE(used.at(1), 1);
        QCOMPARE(used.at(-2), 1);
    }

    // No level faster than the one asked for: back to it, and it stays.
    void noGainKeepsTheLevelAsked()
    {
        const std::map<int, double> rates{{3, 300}, {2, 300}, {1, 300}, {-1, 300}, {-2, 300}};
        AdaptiveLevel a(3, -2);
        const auto used = waitingRun(a, rates, 30);
        QCOMPARE(a.level(), 3);
        QCOMPARE(used.at(3), 30 - 4);
    }

    // Once the writer keeps up, the level climbs back through the levels that pay (here neither
    // 1 nor 2 is 10 % faster than 3).
    void calmBandsClimbBack()
    {
        const std::map<int, double> rates{{3, 1517}, {2, 1646}, {1, 1601}, {-1, 1849}, {-2, 1907}};
        AdaptiveLevel a(3, -2);
        waitingRun(a, rates, 20);
        QCOMPARE(a.level(), -1);
        int level = a.level();
        for (int b = 0; b < AdaptiveLevel::kCalmBands; ++b)
            level = a.next(false);
        QCOMPARE(level, 3); // 1 and 2 do not pay: straight back to the level asked for
        QCOMPARE(a.next(true), -1);
    }

    // Where the cores limit the job, the writer waits at every level above -1 and keeps up at
    // -1: each climb that brings the waits back doubles the calm bands the next one needs, so
    // few bands go back up (a fixed 8 sent one band in nine up: 17 of 157); a climb that holds
    // halves them again.
    void climbsThatBringWaitsBackBackOff()
    {
        const std::map<int, double> rates{{3, 100}, {2, 130}, {1, 169}, {-1, 220}, {-2, 240}};
        AdaptiveLevel a(3, -2);
        std::map<int, int> used;
        for (int b = 0; b < 157; ++b) {
            const int level = a.next(a.level() > -1);
            ++used[level];
            a.measured(level, rates.at(level) * 1e6, 1.0);
        }
        QCOMPARE(a.level(), -1); // -2 is not 10 % faster than -1
        QVERIFY2(used[-1] >= 145, qPrintable(QString::number(used[-1])));
        QVERIFY2(used[1] + used[2] <= 8, qPrintable(QString::number(used[1] + used[2])));
        QVERIFY(a.calmNeeded() >= 4 * AdaptiveLevel::kCalmBands);
        // Now the writer keeps up at every level: the climbs hold, and the wait shrinks back.
        for (int b = 0; b < 400; ++b)
            a.next(false);
        QCOMPARE(a.level(), 3);
        QCOMPARE(a.calmNeeded(), AdaptiveLevel::kCalmBands);
    }

    // The size cost: the lowered bands' bytes against what the bands at the level asked for
    // made of as many bytes.
    void sizeIncreaseIsEstimatedFromTheBandsAtTheLevelAsked()
    {
        fisura::TiledWriteStats s;
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.0);
        s.askedBytesIn = 100;
        s.askedBytesOut = 20;
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.0); // nothing lowered
        s.lowerBytesIn = 100;
        s.lowerBytesOut = 30; // 20 at the level asked for: 50 bytes instead of 40
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.25);
        s.lowerBytesOut = 15; // smaller anyway (other content): no cost
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.0);
    }

    // A map of real photographs (a DeepCrack-trained U-Net's, 3.3:1): every lower level is
    // faster, but -2 writes 30 % more than level 3, past the budget of 25 %: tried for one band,
    // then the writer stays at -1 (+20 %).
    void sizeBudgetKeepsTooCostlyLevelsOut()
    {
        const std::map<int, double> rates{{3, 188}, {2, 257}, {1, 304}, {-1, 374}, {-2, 420}};
        const std::map<int, double> sizes{{2, 0.005}, {1, -0.03}, {-1, 0.20}, {-2, 0.30}};
        AdaptiveLevel a(3, -2);
        const auto used = waitingRunSized(a, rates, sizes, 40);
        QCOMPARE(a.level(), -1);
        QCOMPARE(used.at(-2), 1);
        QVERIFY(!a.pays(-2));
        QVERIFY(a.fitsSize(-1) && !a.fitsSize(-2));
        QCOMPARE(a.sizeIncrease(-2), 0.30);
        QCOMPARE(a.sizeIncrease(-3), 0.0); // never measured
        QVERIFY(!a.fitsSize(-3));          // below a fast level over the budget
        QVERIFY(a.fitsSize(1));
    }

    // A fast level over the budget rules out the faster ones below it without trying them; the
    // writer goes back up to the lowest level within it.
    void levelsBelowAnOverBudgetFastLevelAreNotTried()
    {
        const std::map<int, double> rates{{3, 100}, {2, 130}, {1, 169}, {-1, 220}, {-2, 240}};
        const std::map<int, double> sizes{{2, 0.05}, {1, 0.10}, {-1, 0.40}, {-2, 0.60}};
        AdaptiveLevel a(3, -2);
        const auto used = waitingRunSized(a, rates, sizes, 40);
        QCOMPARE(a.level(), 1);
        QCOMPARE(used.at(-1), 1);
        QVERIFY(used.find(-2) == used.end());
        QVERIFY(!a.pays(-2));
    }

    // With sample tiles compressed at both levels, the size cost is the lowered bands' bytes
    // against what they would have been at the level asked for, at the samples' ratio.
    void sizeIncreaseIsEstimatedFromTheSampleTiles()
    {
        fisura::TiledWriteStats s;
        s.askedBytesIn = 100;
        s.askedBytesOut = 100; // content that compresses 1:1 where the level was as asked
        s.lowerBytesIn = 1000;
        s.lowerBytesOut = 130;
        s.sampleBytesOut = 13;
        s.sampleBytesAsked = 10; // the lowered bands: 100 bytes at the level asked for
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.15); // 30 more than 200
        s.sampleBytesAsked = 14; // smaller at the lower level (real maps at level 1): no cost
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.0);
        s.askedBytesIn = s.askedBytesOut = 0; // every band lowered
        s.sampleBytesAsked = 10;
        QCOMPARE(fisura::adaptiveSizeIncrease(s), 0.3);
    }

    // Each level faster than the one above: down to the floor, never past it, never at zstd's
    // 0 (its default level). Before the current level's rate is known, a wait does not step.
    void fasterLevelsGoDownToTheFloor()
    {
        AdaptiveLevel a(3, fisura::kAdaptiveFloorLevel);
        QCOMPARE(a.next(true), 3); // level 3 not measured yet
        std::map<int, double> rates;
        double r = 100;
        for (int level = 3; level >= fisura::kAdaptiveFloorLevel; --level, r *= 1.3)
            rates[level] = r;
        const auto used = waitingRun(a, rates, 20);
        QCOMPARE(a.level(), fisura::kAdaptiveFloorLevel);
        QVERIFY(used.find(0) == used.end());
        QCOMPARE(used.begin()->first, fisura::kAdaptiveFloorLevel);
    }
};

QTEST_GUILESS_MAIN(TstAdaptiveLevel)
#include "tst_adaptivelevel.moc"
