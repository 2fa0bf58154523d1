// The viewer's tile-load scheduler and its tile cache, alone: requests of a new view replace the
// queued ones, the nearest tile loads first, results for views that moved on are dropped, and
// the tiles a view wants are never evicted, whatever the budget.
#include <QtTest>

#include <QSemaphore>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "viewer/tileloadscheduler.h"
#include "viewer/viewtilecache.h"

using namespace fisura::ui;

namespace
{
constexpr int kSide = 16;
constexpr qint64 kTileBytes = kSide * kSide * 4; // what the scheduler accounts for an RGB tile

ViewTileKey key(int x, int y = 0)
{
    return ViewTileKey{1, 0, x, y};
}

QImage rgbTile()
{
    QImage im(kSide, kSide, QImage::Format_RGB32);
    im.fill(Qt::darkGray);
    return im;
}

// Records which tiles were decoded, in order; a tile can be made to wait at a gate.
struct Decodes {
    std::mutex m;
    std::vector<int> order;
    std::atomic<int> started{0};
    QSemaphore gate;

    TileRequest request(const ViewTileKey& k, double priority, bool waits = false,
                        bool fails = false, int sleepMs = 0)
    {
        return TileRequest{k, priority, [this, k, waits, fails, sleepMs] {
                               ++started;
                               if (waits)
                                   gate.acquire();
                               QThread::msleep(sleepMs);
                               {
                                   std::lock_guard<std::mutex> lock(m);
                                   order.push_back(k.x);
                               }
                               return fails ? QImage() : rgbTile();
                           }};
    }
    std::vector<int> decoded()
    {
        std::lock_guard<std::mutex> lock(m);
        return order;
    }
};

QSet<ViewTileKey> keys(std::initializer_list<int> xs)
{
    QSet<ViewTileKey> s;
    for (int x : xs)
        s.insert(key(x));
    return s;
}
} // namespace

class TstTileLoadScheduler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cacheEvictsLeastRecentlyUsedFirst()
    {
        ViewTileCache c(3 * kTileBytes);
        for (int x = 0; x < 3; ++x)
            c.insert(key(x), LoadedTile{}, kTileBytes);
        QVERIFY(c.find(key(0))); // 0 is now the most recently used: 1 goes first
        c.insert(key(3), LoadedTile{}, kTileBytes);
        QCOMPARE(c.count(), 3);
        QVERIFY(c.contains(key(0)));
        QVERIFY(!c.contains(key(1)));
        QVERIFY(c.contains(key(2)) && c.contains(key(3)));
        QCOMPARE(c.bytes(), 3 * kTileBytes);
        QCOMPARE(c.evictions(), quint64(1));
    }

    void cacheNeverEvictsVisibleTiles()
    {
        ViewTileCache c(kTileBytes); // room for one tile
        c.setVisible(keys({0, 1, 2}));
        for (int x = 0; x < 3; ++x)
            c.insert(key(x), LoadedTile{}, kTileBytes);
        QCOMPARE(c.count(), 3); // over budget, but all three are in view
        QCOMPARE(c.evictions(), quint64(0));
        c.insert(key(7), LoadedTile{}, kTileBytes); // not in view: it is the one that goes
        QVERIFY(!c.contains(key(7)));
        QCOMPARE(c.count(), 3);
        c.setVisible(keys({2})); // the view moved: the budget holds again
        QCOMPARE(c.count(), 1);
        QVERIFY(c.contains(key(2)));
        QCOMPARE(c.bytes(), kTileBytes);
        c.setBudget(0); // shrinking evicts at once, still not the visible tile
        QVERIFY(c.contains(key(2)));
    }

    void nearestRequestLoadsFirst()
    {
        TileLoadScheduler s;
        s.setWorkerCount(1);
        Decodes d;
        s.beginView();
        // The worker waits in tile 9 while the others queue behind it.
        s.request(keys({9}), {d.request(key(9), 0, true)});
        QTRY_COMPARE(d.started.load(), 1);
        s.request(keys({9, 1, 2, 3, 4}), {d.request(key(3), 30), d.request(key(1), 10),
                                          d.request(key(4), 40), d.request(key(2), 20)});
        d.gate.release();
        QTRY_VERIFY(s.frameComplete());
        QCOMPARE(d.decoded(), std::vector<int>({9, 1, 2, 3, 4}));
    }

    void staleRequestsAreReplaced()
    {
        TileLoadScheduler s;
        s.setWorkerCount(1);
        Decodes d;
        s.beginView();
        s.request(keys({0, 1, 2, 3}), {d.request(key(0), 0, true), d.request(key(1), 1),
                                       d.request(key(2), 2), d.request(key(3), 3)});
        QTRY_COMPARE(d.started.load(), 1); // tile 0 decoding, 1..3 queued
        QCOMPARE(s.stats().pending, 3);
        // The user panned on: a view that wants 3, 5 and 6 replaces the queue.
        s.beginView();
        s.request(keys({3, 5, 6}),
                  {d.request(key(3), 0), d.request(key(5), 1), d.request(key(6), 2)});
        const TileLoadStats mid = s.stats();
        QCOMPARE(mid.droppedStale, quint64(2)); // 1 and 2; 3 is still wanted
        QCOMPARE(mid.requested, quint64(6));    // 0..3, then 5 and 6 (3 was queued already)
        QCOMPARE(mid.pending, 3);
        d.gate.release();
        QTRY_VERIFY(s.frameComplete());
        QTRY_COMPARE(int(d.decoded().size()), 4);
        // Replaced requests were never decoded.
        QCOMPARE(d.decoded(), std::vector<int>({0, 3, 5, 6}));
        QCOMPARE(s.stats().pending, 0);
    }

    void lateResultsAreDropped()
    {
        TileLoadScheduler s;
        s.setWorkerCount(1);
        Decodes d;
        int loaded = 0;
        connect(&s, &TileLoadScheduler::tileLoaded, this, [&loaded] { ++loaded; });
        QSignalSpy complete(&s, &TileLoadScheduler::frameCompleted);
        s.beginView();
        s.request(keys({0}), {d.request(key(0), 0, true)});
        QTRY_COMPARE(d.started.load(), 1);
        s.beginView(); // tile 0 is being decoded for a view that is gone
        s.request(keys({1}), {d.request(key(1), 0)});
        d.gate.release();
        QTRY_COMPARE(complete.count(), 1);
        QCOMPARE(complete.at(0).at(0).toULongLong(), s.generation());
        QTRY_COMPARE(s.stats().droppedLate, quint64(1));
        QVERIFY(!s.isLoaded(key(0)));
        QVERIFY(s.isLoaded(key(1)));
        QCOMPARE(loaded, 1);
    }

    void lateResultStillWantedIsKept()
    {
        TileLoadScheduler s;
        s.setWorkerCount(1);
        Decodes d;
        s.beginView();
        s.request(keys({0}), {d.request(key(0), 0, true)});
        QTRY_COMPARE(d.started.load(), 1);
        s.beginView(); // a small pan: tile 0 is still in view
        s.request(keys({0, 1}), {d.request(key(0), 0), d.request(key(1), 1)});
        QCOMPARE(s.stats().pending, 1); // tile 0 is not decoded twice
        d.gate.release();
        QTRY_VERIFY(s.frameComplete());
        QVERIFY(s.isLoaded(key(0)));
        QCOMPARE(s.stats().droppedLate, quint64(0));
        QCOMPARE(d.decoded(), std::vector<int>({0, 1}));
    }

    void viewCompletesWithABudgetSmallerThanTheView()
    {
        TileLoadScheduler s;
        s.setBudget(kTileBytes); // one tile; the view wants twelve
        Decodes d;
        QSignalSpy complete(&s, &TileLoadScheduler::frameCompleted);
        std::vector<TileRequest> reqs;
        QSet<ViewTileKey> wanted;
        for (int x = 0; x < 12; ++x) {
            wanted.insert(key(x));
            reqs.push_back(d.request(key(x), x));
        }
        s.beginView();
        s.request(wanted, std::move(reqs));
        QTRY_COMPARE(complete.count(), 1);
        for (int x = 0; x < 12; ++x)
            QVERIFY(s.isLoaded(key(x)));
        QCOMPARE(s.stats().bytes, 12 * kTileBytes);
        QCOMPARE(int(d.decoded().size()), 12); // each decoded once, none evicted and reloaded
        // The next view: the old tiles go as the new ones arrive.
        s.beginView();
        s.request(keys({20}), {d.request(key(20), 0)});
        QTRY_VERIFY(s.isLoaded(key(20)));
        QCOMPARE(s.stats().bytes, kTileBytes);
    }

    void undecodableTilesCompleteTheFrameAndAreNotAskedAgain()
    {
        TileLoadScheduler s;
        Decodes d;
        s.beginView();
        s.request(keys({0, 1}), {d.request(key(0), 0, false, true), d.request(key(1), 1)});
        QTRY_VERIFY(s.frameComplete());
        QVERIFY(s.hasFailed(key(0)));
        QVERIFY(!s.isLoaded(key(0)));
        s.beginView();
        s.request(keys({0, 1}), {d.request(key(0), 0, false, true)});
        QCOMPARE(s.stats().pending, 0);
        QVERIFY(s.frameComplete());
        QTRY_COMPARE(int(d.decoded().size()), 2);
    }

    void resetForgetsEverything()
    {
        TileLoadScheduler s;
        s.setWorkerCount(1);
        Decodes d;
        s.beginView();
        s.request(keys({0, 1, 2}),
                  {d.request(key(0), 0, true), d.request(key(1), 1), d.request(key(2), 2)});
        QTRY_COMPARE(d.started.load(), 1);
        const quint64 before = s.generation();
        s.reset(); // the image closed
        QVERIFY(s.generation() > before);
        QCOMPARE(s.stats().pending, 0);
        QCOMPARE(s.stats().droppedStale, quint64(2));
        d.gate.release();
        QTRY_COMPARE(s.stats().droppedLate, quint64(1)); // tile 0 arrives for nothing
        QVERIFY(!s.isLoaded(key(0)));
        QCOMPARE(s.stats().bytes, qint64(0));
    }

    void destructionWaitsForTheWorkers()
    {
        Decodes d;
        {
            TileLoadScheduler s;
            s.setWorkerCount(1);
            s.beginView();
            s.request(keys({0, 1, 2, 3}),
                      {d.request(key(0), 0, false, false, 300), d.request(key(1), 1),
                       d.request(key(2), 2), d.request(key(3), 3)});
            QTRY_VERIFY(d.started.load() > 0);
            QCOMPARE(d.started.load(), 1); // tile 0 is being decoded, 1..3 wait
        }
        // The decode under way finished before the scheduler went; the queued ones never ran.
        QCOMPARE(d.decoded(), std::vector<int>({0}));
        QTest::qWait(20);
        QCOMPARE(d.started.load(), 1);
    }
};

QTEST_MAIN(TstTileLoadScheduler)
#include "tst_tileloadscheduler.moc"
