#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <fstream>
#include <numeric>
#include <set>
#include <thread>

#include "fisura/dataset.h"
#include "fisura/image.h"
#include "fisura/synth.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// A small synthetic scene written as TIFF: image, and its mask next to it when maskPath is set.
void writeScene(const std::string& path, uint64_t seed, int size = 64, int cracks = 1,
                const std::string& maskPath = {})
{
    synth::SceneOptions o;
    o.width = o.height = size;
    o.seed = seed;
    o.cracks = cracks;
    auto sc = synth::generateScene(o);
    QVERIFY(sc);
    QVERIFY(writeTiff(path, sc->image));
    if (!maskPath.empty())
        QVERIFY(writeTiff(maskPath, sc->mask));
}

void writeGarbage(const std::string& path)
{
    std::ofstream(path) << "this is not a TIFF";
}

/// One epoch of a segmentation loader as bytes: every sample's pixels, mask and item index, in
/// order (at most `batches` batches).
std::vector<uint8_t> epochBytes(BatchLoader& l, int epoch, int size, int batches = 1 << 30)
{
    std::vector<uint8_t> all;
    l.startEpoch(epoch);
    BatchView b;
    const size_t pixels = size_t(size) * size;
    for (int k = 0; k < batches && l.next(b); ++k) {
        all.insert(all.end(), b.pixels, b.pixels + size_t(b.count) * pixels * 3);
        all.insert(all.end(), b.masks, b.masks + size_t(b.count) * pixels);
        for (int it : b.items)
            all.push_back(uint8_t(it));
    }
    return all;
}

long rssKiB()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

} // namespace

class TstDataset : public QObject
{
    Q_OBJECT
    /// The demo generator's segmentation / classification patches (no scan) into `dir`.
    static bool writeDemo(const QTemporaryDir& dir, int segmentation, int classification, int patch)
    {
        synth::DemoDatasetOptions demo;
        demo.segmentationImages = segmentation;
        demo.classificationImages = classification;
        demo.patchSize = patch;
        demo.scanSize = 0;
        return bool(synth::writeDemoDataset(s(dir.path()), demo));
    }

    /// `n` demo segmentation pairs of `patch` px written into `dir` and scanned.
    static Result<Dataset> demoSegmentation(const QTemporaryDir& dir, int n, int patch)
    {
        if (!writeDemo(dir, n, 0, patch))
            return Status(ErrorCode::IoError, "demo dataset not written");
        return scanDataset(s(dir.path()) + "/segmentation", TaskKind::Segment);
    }
    static std::vector<int> allItems(const Dataset& d)
    {
        std::vector<int> idx(d.items.size());
        std::iota(idx.begin(), idx.end(), 0);
        return idx;
    }

private Q_SLOTS:
    void classificationFolders()
    {
        QTemporaryDir tmp;
        const QDir d(tmp.path());
        d.mkpath(QStringLiteral("cracked"));
        d.mkpath(QStringLiteral("uncracked"));
        for (int i = 0; i < 5; ++i)
            writeScene(s(d.filePath(QStringLiteral("cracked/c%1.tif").arg(i))), 10 + i);
        for (int i = 0; i < 3; ++i)
            writeScene(s(d.filePath(QStringLiteral("uncracked/u%1.tif").arg(i))), 20 + i, 48, 0);
        writeGarbage(s(d.filePath(QStringLiteral("cracked/broken.tif"))));
        writeGarbage(s(d.filePath(QStringLiteral("stray.tif")))); // no class folder

        auto r = scanDataset(s(tmp.path()), TaskKind::Classify);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->classes, (std::vector<std::string>{"cracked", "uncracked"}));
        QCOMPARE(r->classCounts, (std::vector<int>{5, 3}));
        QCOMPARE(r->positiveClass(), 0);
        QCOMPARE(int(r->problems.size()), 2);
        QCOMPARE(r->sizes.count, 8);
        QCOMPARE(r->sizes.minWidth, 48);
        QCOMPARE(r->sizes.maxWidth, 64);
        QVERIFY(datasetSummaryJson(*r).find("\"problem_count\":2") != std::string::npos);
    }

    void sdnetRules_data()
    {
        QTest::addColumn<bool>("custom");
        QTest::newRow("detected") << false;
        QTest::newRow("custom rules") << true;
    }
    void sdnetRules()
    {
        QFETCH(bool, custom);
        QTemporaryDir tmp;
        const QDir d(tmp.path());
        const char* folders[] = {"D/CD", "D/UD", "P/CP", "P/UP", "W/UW"};
        int seed = 1;
        for (const char* f : folders) {
            d.mkpath(QString::fromLatin1(f));
            for (int i = 0; i < 2; ++i)
                writeScene(
                    s(d.filePath(QStringLiteral("%1/%2.tif").arg(QString::fromLatin1(f)).arg(i))),
                    seed++, 32);
        }
        ScanOptions o;
        if (custom) // only decks: everything else is listed as unmatched, not fatal
            o.rules = {{"D/CD", "crack"}, {"D/UD", "sound"}};
        auto r = scanDataset(s(tmp.path()), TaskKind::Classify, o);
        QVERIFY2(r, r.status().toString().c_str());
        if (custom) {
            QCOMPARE(r->classes, (std::vector<std::string>{"crack", "sound"}));
            QCOMPARE(r->classCounts, (std::vector<int>{2, 2}));
            QCOMPARE(int(r->problems.size()), 6);
        } else {
            QCOMPARE(r->classes, (std::vector<std::string>{"cracked", "uncracked"}));
            QCOMPARE(r->classCounts, (std::vector<int>{4, 6}));
            QVERIFY(r->problems.empty());
        }
    }

    void segmentationPairs()
    {
        QTemporaryDir tmp;
        const QDir d(tmp.path());
        d.mkpath(QStringLiteral("images"));
        d.mkpath(QStringLiteral("masks"));
        auto img = [&](const char* n) {
            return s(d.filePath(QStringLiteral("images/") + QString::fromLatin1(n)));
        };
        auto msk = [&](const char* n) {
            return s(d.filePath(QStringLiteral("masks/") + QString::fromLatin1(n)));
        };
        writeScene(img("a.tif"), 1, 64, 1, msk("a.tif"));
        writeScene(img("b.tif"), 2, 64, 1, msk("b.tif"));
        writeScene(img("c.tif"), 3); // no mask
        writeScene(msk("d.tif"), 4); // no image
        writeScene(img("e.tif"), 5, 64);
        writeScene(msk("e.tif"), 5, 48); // wrong size
        auto r = scanDataset(s(tmp.path()), TaskKind::Segment);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(int(r->items.size()), 2);
        QCOMPARE(int(r->problems.size()), 3);
        std::string reasons;
        for (const auto& p : r->problems)
            reasons += p.reason + ";";
        QVERIFY(reasons.find("image without mask") != std::string::npos);
        QVERIFY(reasons.find("mask without image") != std::string::npos);
        QVERIFY(reasons.find("differs") != std::string::npos);

        auto missing = scanDataset(s(tmp.path() + QStringLiteral("/nope")), TaskKind::Segment);
        QCOMPARE(missing.status().code(), ErrorCode::NotFound);
        auto noMasks = scanDataset(s(d.filePath(QStringLiteral("images"))), TaskKind::Segment);
        QCOMPARE(noMasks.status().code(), ErrorCode::NotFound);
    }

    void splitIsStratifiedSeededAndReusable()
    {
        Dataset d;
        d.task = TaskKind::Classify;
        d.root = "/data";
        d.classes = {"cracked", "uncracked"};
        for (int i = 0; i < 100; ++i)
            d.items.push_back({"/data/x/" + std::to_string(i) + ".tif", {}, i < 30 ? 0 : 1, 8, 8});
        const auto a = makeSplit(d, 0.2, 0.1, 7);
        const auto b = makeSplit(d, 0.2, 0.1, 7);
        const auto c = makeSplit(d, 0.2, 0.1, 8);
        QCOMPARE(a.val, b.val);
        QVERIFY(a.val != c.val);
        QCOMPARE(int(a.train.size() + a.val.size() + a.test.size()), 100);
        std::set<int> all(a.train.begin(), a.train.end());
        all.insert(a.val.begin(), a.val.end());
        all.insert(a.test.begin(), a.test.end());
        QCOMPARE(int(all.size()), 100); // disjoint and complete
        const int valCracked = int(std::count_if(
            a.val.begin(), a.val.end(), [&](int i) { return d.items[size_t(i)].label == 0; }));
        QCOMPARE(valCracked, 6); // 20 % of 30
        QCOMPARE(int(a.val.size()), 20);
        QCOMPARE(int(a.test.size()), 10);

        QTemporaryDir tmp;
        const std::string path = s(tmp.filePath(QStringLiteral("split.json")));
        QVERIFY(saveSplit(path, d, a));
        auto loaded = loadSplit(path, d);
        QVERIFY2(loaded, loaded.status().toString().c_str());
        QCOMPARE(loaded->train, a.train);
        QCOMPARE(loaded->val, a.val);
        QCOMPARE(loaded->test, a.test);
        d.items.pop_back(); // the split now names a file the dataset lacks
        d.items.erase(d.items.begin());
        auto stale = loadSplit(path, d);
        QCOMPARE(stale.status().code(), ErrorCode::Corrupt);
        QCOMPARE(loadSplit(path + ".missing", d).status().code(), ErrorCode::NotFound);
    }

    void loaderShapesAndLabels_data()
    {
        QTest::addColumn<bool>("augment");
        QTest::newRow("plain") << false;
        QTest::newRow("augmented") << true;
    }
    // Batches are decoded in chunks by several workers: the bytes must not depend on how many
    // there are, and a restart while chunks are in flight must neither hang nor mix epochs.
    void loaderChunksAreThreadIndependent()
    {
        QTemporaryDir tmp;
        auto seg = demoSegmentation(tmp, 23, 48);
        QVERIFY(seg);
        const std::vector<int> idx = allItems(*seg);
        auto bytesWith = [&](int threads, bool restartMidway) {
            LoaderOptions o;
            o.inputSize = 32;
            o.batchSize = 10; // chunks of 4: 4 + 4 + 2 samples, a partial last batch of 3
            o.threads = threads;
            o.prefetch = 2 * threads;
            o.augment = o.shuffle = true;
            BatchLoader loader(*seg, idx, o);
            BatchView b;
            if (restartMidway) {
                loader.startEpoch(0);
                if (!loader.next(b))
                    return std::vector<uint8_t>{};
            }
            auto all = epochBytes(loader, 1, 32);
            return loader.status() ? all : std::vector<uint8_t>{};
        };
        const auto one = bytesWith(1, false);
        QCOMPARE(one.size(), size_t(23) * (32 * 32 * 4 + 1));
        QVERIFY(bytesWith(4, false) == one);
        QVERIFY(bytesWith(3, true) == one);
    }

    // The look-ahead decodes the next epoch's first batches while this one ends: the batches are
    // the ones a fresh start would give, no sample is decoded twice, memory stays bounded, a
    // start it did not foresee begins afresh, and a failure ahead belongs to the next epoch.
    void loaderLooksAhead()
    {
        QTemporaryDir tmp;
        auto seg = demoSegmentation(tmp, 23, 48);
        QVERIFY(seg);
        const std::vector<int> idx = allItems(*seg);
        LoaderOptions o;
        o.inputSize = 32;
        o.batchSize = 5; // 4 full batches and one of 3
        o.threads = 2;
        o.prefetch = 3;
        o.augment = o.shuffle = true;
        BatchLoader plain(*seg, idx, o);
        std::vector<std::vector<uint8_t>> ref;
        for (int e = 0; e < 4; ++e)
            ref.push_back(epochBytes(plain, e, 32));
        QVERIFY(ref[0] != ref[1]);

        o.lookAhead = LookAhead::NextEpoch;
        BatchLoader ahead(*seg, idx, o);
        const uint64_t aheadSamples = 3 * 5; // prefetch batches of the next epoch
        QVERIFY(epochBytes(ahead, 0, 32) == ref[0]);
        QTRY_COMPARE(ahead.samplesDecoded(), 23 + aheadSamples); // decoded before it is asked
        QVERIFY(epochBytes(ahead, 1, 32) == ref[1]);
        QTRY_COMPARE(ahead.samplesDecoded(), 2 * 23 + aheadSamples);
        QVERIFY(epochBytes(ahead, 3, 32) == ref[3]); // not the epoch it expected: afresh
        QTRY_COMPARE(ahead.samplesDecoded(), 3 * 23 + 2 * aheadSamples);
        QVERIFY(ahead.status());
        QVERIFY(ahead.peakBatchBytes() <= uint64_t(o.prefetch + 1) * ahead.batchBytes());

        // The same start twice before anything is taken keeps what was decoded.
        BatchLoader twice(*seg, idx, o);
        twice.startEpoch(2);
        QTRY_COMPARE(twice.samplesDecoded(), aheadSamples);
        QVERIFY(epochBytes(twice, 2, 32) == ref[2]);
        QTRY_COMPARE(twice.samplesDecoded(), 23 + aheadSamples);

        // Validation repeats one epoch: its next pass starts from batches already decoded.
        o.lookAhead = LookAhead::SameEpoch;
        o.augment = o.shuffle = false;
        BatchLoader val(*seg, idx, o);
        const auto first = epochBytes(val, 0, 32);
        const uint64_t crops = first.size() / (32 * 32 * 4 + 1); // a grid of crops per image
        QCOMPARE(crops, uint64_t(4 * 23));
        QTRY_COMPARE(val.samplesDecoded(), crops + aheadSamples);
        QVERIFY(epochBytes(val, 0, 32) == first);
        QTRY_COMPARE(val.samplesDecoded(), 2 * crops + aheadSamples);

        // Files that break once this epoch is decoded: this epoch ends well, the next one fails.
        o.lookAhead = LookAhead::NextEpoch;
        o.augment = o.shuffle = true; // random crops: one sample per image
        o.prefetch = 1;               // the look-ahead begins only when the last batch is taken
        BatchLoader breaks(*seg, idx, o);
        QCOMPARE(epochBytes(breaks, 0, 32, 4).size(), size_t(20) * (32 * 32 * 4 + 1));
        QTRY_COMPARE(breaks.samplesDecoded(), uint64_t(23)); // the last batch is decoded
        for (const auto& it : seg->items) {
            writeGarbage(it.image);
            writeGarbage(it.mask);
        }
        BatchView b;
        QVERIFY(breaks.next(b));
        QCOMPARE(b.count, 3);
        QVERIFY(!breaks.next(b));
        QVERIFY(breaks.status()); // the failure ahead is not this epoch's
        QTRY_VERIFY(breaks.samplesDecoded() > 23);
        breaks.startEpoch(1);
        QVERIFY(!breaks.next(b));
        QVERIFY(!breaks.status());
    }

    void loaderShapesAndLabels()
    {
        QFETCH(bool, augment);
        QTemporaryDir tmp;
        QVERIFY(writeDemo(tmp, 6, 5, 64));

        auto cls = scanDataset(s(tmp.path()) + "/classification", TaskKind::Classify);
        QVERIFY(cls);
        LoaderOptions o;
        o.inputSize = 32;
        o.batchSize = 4;
        o.augment = augment;
        o.shuffle = true;
        std::vector<int> idx(cls->items.size());
        std::iota(idx.begin(), idx.end(), 0);
        BatchLoader loader(*cls, idx, o);
        loader.startEpoch(0);
        QCOMPARE(loader.batchesPerEpoch(), 3);
        BatchView b;
        std::multiset<int> seen;
        int batches = 0;
        while (loader.next(b)) {
            ++batches;
            QCOMPARE(b.size, 32);
            QVERIFY(b.labels != nullptr);
            QVERIFY(b.masks == nullptr);
            for (int i = 0; i < b.count; ++i) {
                QCOMPARE(int(b.labels[i]), cls->items[size_t(b.items[size_t(i)])].label);
                seen.insert(b.items[size_t(i)]);
            }
        }
        QVERIFY(loader.status());
        QCOMPARE(batches, 3);
        QCOMPARE(int(seen.size()), 10); // each item exactly once per epoch
        QCOMPARE(int(std::set<int>(seen.begin(), seen.end()).size()), 10);

        // Segmentation: masks are 0/1 and stay aligned with the (augmented) pixels.
        auto seg = scanDataset(s(tmp.path()) + "/segmentation", TaskKind::Segment);
        QVERIFY(seg);
        std::vector<int> sidx(seg->items.size());
        std::iota(sidx.begin(), sidx.end(), 0);
        o.inputSize = 48;
        BatchLoader sl(*seg, sidx, o);
        sl.startEpoch(1);
        double crackSum = 0, bgSum = 0;
        long crackN = 0, bgN = 0;
        while (sl.next(b)) {
            QVERIFY(b.masks != nullptr);
            for (int i = 0; i < b.count * 48 * 48; ++i) {
                QVERIFY(b.masks[i] <= 1);
                const double v =
                    (b.pixels[3 * i] + b.pixels[3 * i + 1] + b.pixels[3 * i + 2]) / 3.0;
                (b.masks[i] ? crackSum : bgSum) += v;
                ++(b.masks[i] ? crackN : bgN);
            }
        }
        QVERIFY(crackN > 0 && bgN > 0);
        QVERIFY2(crackSum / crackN + 15 < bgSum / bgN,
                 "crack pixels are not darker: masks misaligned");
    }

    void loaderMemoryIsBounded()
    {
        QTemporaryDir tmp;
        std::vector<std::string> files;
        for (int i = 0; i < 4; ++i) {
            files.push_back(s(tmp.filePath(QStringLiteral("f%1.tif").arg(i))));
            writeScene(files.back(), uint64_t(i) + 1, 64);
        }
        // A "large" dataset: 4000 items (paths only) over the same few files.
        Dataset d;
        d.task = TaskKind::Anomaly;
        d.root = s(tmp.path());
        for (int i = 0; i < 4000; ++i)
            d.items.push_back({files[size_t(i) % files.size()], {}, -1, 64, 64});
        std::vector<int> idx(d.items.size());
        std::iota(idx.begin(), idx.end(), 0);
        LoaderOptions o;
        o.inputSize = 64;
        o.batchSize = 16;
        o.threads = 2;
        o.prefetch = 3;
        BatchLoader loader(d, idx, o);
        loader.startEpoch(0);
        BatchView b;
        long rssAfterFirst = -1, rssPeak = 0;
        int n = 0;
        while (loader.next(b)) {
            if (++n == 10)
                rssAfterFirst = rssKiB();
            if (n > 10)
                rssPeak = std::max(rssPeak, rssKiB());
            if (n % 50 == 0) // a slow consumer now and then: workers must wait, not pile up
                std::this_thread::sleep_for(std::chrono::milliseconds(30));
        }
        QCOMPARE(n, 250);
        const uint64_t bound = uint64_t(o.prefetch + 1) * loader.batchBytes();
        QVERIFY2(loader.peakBatchBytes() <= bound,
                 qPrintable(
                     QStringLiteral("peak %1 > bound %2").arg(loader.peakBatchBytes()).arg(bound)));
        QVERIFY(loader.peakBatchBytes() >= loader.batchBytes());
        // The whole epoch would be 4000 x 12 KiB = 47 MiB if it were held; RSS must not grow so.
        QVERIFY2(rssPeak - rssAfterFirst < 16 * 1024,
                 qPrintable(QStringLiteral("RSS grew by %1 KiB").arg(rssPeak - rssAfterFirst)));
    }

    void realDataScans_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("pairs");
        QTest::newRow("DeepCrack train") << QStringLiteral("DeepCrack/train") << 80;
        QTest::newRow("DeepCrack test") << QStringLiteral("DeepCrack/test") << 20;
        QTest::newRow("UAV75") << QStringLiteral("UAV75") << 30;
    }
    void realDataScans()
    {
        QFETCH(QString, folder);
        QFETCH(int, pairs);
        const QString dir = QStringLiteral(FISURA_SHARED_DATA "/") + folder;
        if (!QDir(dir).exists())
            QSKIP("shared real data not present");
        if (!hasImageCodecs())
            QSKIP("this build cannot decode JPEG/PNG");
        auto r = scanDataset(s(dir), TaskKind::Segment);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(int(r->items.size()), pairs);
        QVERIFY(r->problems.empty());
        QVERIFY(r->sizes.minWidth >= 384 && r->sizes.maxWidth <= 544);
    }

    void loaderCancels()
    {
        QTemporaryDir tmp;
        const std::string f = s(tmp.filePath(QStringLiteral("f.tif")));
        writeScene(f, 1, 64);
        Dataset d;
        d.task = TaskKind::Anomaly;
        for (int i = 0; i < 64; ++i)
            d.items.push_back({f, {}, -1, 64, 64});
        std::vector<int> idx(64);
        std::iota(idx.begin(), idx.end(), 0);
        BatchLoader loader(d, idx, {});
        loader.startEpoch(0);
        CancelToken cancel;
        cancel.cancel();
        BatchView b;
        QVERIFY(!loader.next(b, cancel));
    }
};

QTEST_GUILESS_MAIN(TstDataset)
#include "tst_dataset.moc"
