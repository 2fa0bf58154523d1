// The realistic procedural scenes (the starter model's training data): determinism, masks that
// hold exactly the cracks (never the distractors), crack widths from hairline to wide, the
// distribution randomTrainingScene draws from, JPEG's artefacts, and the multi-threaded
// training-data writer (same files whatever the thread count, refusal, rewrite, cancellation).
#include <QtTest>

#include <QDirIterator>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <set>

#include <opencv2/core.hpp>

#include "fisura/image.h"
#include "fisura/synth.h"
#include "synth/synth_impl.h"

using namespace fisura;
using namespace fisura::synth;

namespace
{

/// A realistic scene with nothing but surface and cracks (no distractors, stains, light or
/// camera), so that crack pixels can be compared with their neighbourhood.
SceneOptions plain(Surface surface, double minW, double maxW, uint64_t seed)
{
    SceneOptions o;
    o.style = SceneStyle::Realistic;
    o.surface = surface;
    o.seed = seed;
    o.cracks = 2;
    o.minWidthPx = minW;
    o.maxWidthPx = maxW;
    o.crackContrast = 1.0;
    return o;
}

size_t crackPixels(const Image& mask)
{
    return size_t(std::count(mask.pixels.begin(), mask.pixels.end(), uint8_t(255)));
}

double luminance(const Image& im, int x, int y)
{
    const uint8_t* p = im.row(y) + 3 * x;
    return (p[0] + p[1] + p[2]) / 3.0;
}

/// Mean luminance of the crack pixels and of the non-crack pixels within 4 px of a crack.
std::pair<double, double> crackAndSurround(const Scene& s)
{
    double in = 0, out = 0;
    int nin = 0, nout = 0;
    const int w = s.image.width, h = s.image.height;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (s.mask.row(y)[x]) {
                in += luminance(s.image, x, y);
                ++nin;
                continue;
            }
            bool near = false;
            for (int dy = -4; dy <= 4 && !near; ++dy)
                for (int dx = -4; dx <= 4 && !near; ++dx) {
                    const int xx = x + dx, yy = y + dy;
                    near = xx >= 0 && yy >= 0 && xx < w && yy < h && s.mask.row(yy)[xx];
                }
            if (near) {
                out += luminance(s.image, x, y);
                ++nout;
            }
        }
    return {nin ? in / nin : -1, nout ? out / nout : -1};
}

/// Share of mask pixels whose four neighbours are all crack: ~0 for 1 px lines.
double interiorShare(const Image& mask)
{
    int crack = 0, interior = 0;
    for (int y = 1; y + 1 < mask.height; ++y)
        for (int x = 1; x + 1 < mask.width; ++x) {
            if (!mask.row(y)[x])
                continue;
            ++crack;
            interior += mask.row(y - 1)[x] && mask.row(y + 1)[x] && mask.row(y)[x - 1] &&
                        mask.row(y)[x + 1];
        }
    return crack ? double(interior) / crack : 0;
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TstSynthRealistic : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deterministic()
    {
        const SceneOptions o = randomTrainingScene(42, 128, 96);
        QCOMPARE(o.style, SceneStyle::Realistic);
        QCOMPARE(o.width, 128);
        QCOMPARE(o.height, 96);
        auto a = generateScene(o), b = generateScene(randomTrainingScene(42, 128, 96));
        QVERIFY(a && b);
        QVERIFY(a->image.pixels == b->image.pixels);
        QVERIFY(a->mask.pixels == b->mask.pixels);
        QCOMPARE(a->image.width, 128);
        QCOMPARE(a->image.height, 96);
        auto c = generateScene(randomTrainingScene(43, 128, 96));
        QVERIFY(c && c->image.pixels != a->image.pixels);
    }

    void cracksAreMaskedAndDarker_data()
    {
        QTest::addColumn<int>("surface");
        QTest::addColumn<double>("minW");
        QTest::addColumn<double>("maxW");
        for (int s = 0; s < 3; ++s) {
            const QByteArray name = surfaceName(Surface(s));
            QTest::newRow(name + " hairline") << s << 0.8 << 1.2;
            QTest::newRow(name + " wide") << s << 4.0 << 10.0;
        }
    }
    void cracksAreMaskedAndDarker()
    {
        QFETCH(int, surface);
        QFETCH(double, minW);
        QFETCH(double, maxW);
        auto s = generateScene(plain(Surface(surface), minW, maxW, 5));
        QVERIFY(s);
        for (uint8_t v : s->mask.pixels)
            QVERIFY(v == 0 || v == 255);
        const double frac = double(crackPixels(s->mask)) / (256.0 * 256.0);
        QVERIFY2(frac > 0.002 && frac < 0.3, qPrintable(QString::number(frac)));
        const auto [in, around] = crackAndSurround(*s);
        QVERIFY2(in < 0.85 * around, qPrintable(QStringLiteral("%1 vs %2").arg(in).arg(around)));
    }

    void widthsRunFromHairlineToWide()
    {
        auto thin = generateScene(plain(Surface::Concrete, 1.0, 1.0, 9));
        auto wide = generateScene(plain(Surface::Concrete, 7.0, 12.0, 9));
        QVERIFY(thin && wide);
        QVERIFY(crackPixels(thin->mask) > 100);
        QVERIFY(crackPixels(wide->mask) > 3 * crackPixels(thin->mask));
        QVERIFY2(interiorShare(thin->mask) < 0.15,
                 qPrintable(QString::number(interiorShare(thin->mask))));
        QVERIFY2(interiorShare(wide->mask) > 0.5,
                 qPrintable(QString::number(interiorShare(wide->mask))));
    }

    void distractorsAreNeverCrack()
    {
        for (uint64_t seed = 1; seed <= 6; ++seed) {
            SceneOptions o = randomTrainingScene(seed, 128, 128);
            o.cracks = 0;
            o.distractors = 12;
            auto with = generateScene(o);
            o.distractors = 0;
            auto without = generateScene(o);
            QVERIFY(with && without);
            QCOMPARE(crackPixels(with->mask), size_t(0));
            QVERIFY(with->image.pixels != without->image.pixels); // something was drawn
        }
    }

    void trainingScenesCoverTheRange()
    {
        std::set<int> surfaces;
        int crackFree = 0, hairline = 0, wide = 0, jpeg = 0, distractors = 0;
        for (uint64_t seed = 0; seed < 300; ++seed) {
            const SceneOptions o = randomTrainingScene(seed, 64, 64);
            surfaces.insert(int(o.surface));
            crackFree += o.cracks == 0;
            hairline += o.cracks > 0 && o.maxWidthPx <= 2.2;
            wide += o.cracks > 0 && o.maxWidthPx >= 8;
            jpeg += o.jpegQuality > 0;
            distractors += o.distractors > 0;
            QVERIFY(o.minWidthPx > 0 && o.maxWidthPx >= o.minWidthPx);
            QVERIFY(o.scale >= 0.25 && o.scale <= 4);
        }
        QCOMPARE(int(surfaces.size()), 3);
        QVERIFY(crackFree > 15 && crackFree < 70);
        QVERIFY(hairline > 60);
        QVERIFY(wide > 15);
        QVERIFY(jpeg > 150 && jpeg < 290);
        QVERIFY(distractors > 150);
    }

    void invalidRealisticOptions_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("scale") << 0;
        QTest::newRow("jpeg") << 1;
        QTest::newRow("stains") << 2;
        QTest::newRow("distractors") << 3;
        QTest::newRow("blur") << 4;
    }
    void invalidRealisticOptions()
    {
        QFETCH(int, which);
        SceneOptions o = plain(Surface::Asphalt, 1, 2, 1);
        if (which == 0)
            o.scale = 0.1;
        else if (which == 1)
            o.jpegQuality = 101;
        else if (which == 2)
            o.stains = 1.5;
        else if (which == 3)
            o.distractors = -1;
        else
            o.blurSigma = -1;
        auto s = generateScene(o);
        QVERIFY(!s);
        QCOMPARE(s.status().code(), ErrorCode::InvalidArgument);
    }

    void jpegArtefactsFollowQuality()
    {
        // Grey texture: no colour for 4:2:0 chroma to lose, so only quantisation differs.
        cv::Mat grey8(64, 72, CV_8U), img;
        cv::RNG rng(3);
        rng.fill(grey8, cv::RNG::UNIFORM, 60, 200);
        cv::merge(std::vector<cv::Mat>{grey8, grey8, grey8}, img);
        const cv::Mat high = detail::jpegArtefacts(img, 100), low = detail::jpegArtefacts(img, 10);
        QCOMPARE(high.size(), img.size());
        QCOMPARE(high.type(), CV_8UC3);
        const double dHigh = cv::norm(high, img, cv::NORM_L1) / img.total();
        const double dLow = cv::norm(low, img, cv::NORM_L1) / img.total();
        QVERIFY2(dHigh < 0.4 * dLow, qPrintable(QStringLiteral("%1 %2").arg(dHigh).arg(dLow)));
        // A flat grey stays flat and grey at any quality; only its level moves by up to half a
        // step of the DC quantiser (160 / 8 / 2 = 10 grey levels at quality 5).
        cv::Mat grey(32, 32, CV_8UC3, cv::Scalar(120, 120, 120));
        for (int q : {5, 50, 95}) {
            double lo = 0, hi = 0;
            cv::minMaxLoc(detail::jpegArtefacts(grey, q).reshape(1), &lo, &hi);
            QVERIFY2(hi - lo <= 1 && std::abs(lo - 120) <= (q == 5 ? 10 : 2),
                     qPrintable(QStringLiteral("quality %1: %2..%3").arg(q).arg(lo).arg(hi)));
        }
    }

    void trainingDataIsTheSameOnAnyThreadCount()
    {
        QTemporaryDir tmp;
        TrainingDataOptions o;
        o.count = 6;
        o.size = 64;
        o.seed = 7;
        o.threads = 1;
        const QString one = tmp.filePath(QStringLiteral("one")),
                      two = tmp.filePath(QStringLiteral("two"));
        auto a = writeTrainingDataset(one.toStdString(), o);
        o.threads = 3;
        auto b = writeTrainingDataset(two.toStdString(), o);
        QVERIFY2(a && b, (a ? b : a).status().toString().c_str());
        QCOMPARE(a->pairs, 6);
        QCOMPARE(a->crackFree, b->crackFree);
        QVERIFY(a->crackFraction > 0 && a->crackFraction < 0.5);
        const QStringList files =
            QDir(one + QStringLiteral("/images")).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 6);
        QCOMPARE(QDir(one + QStringLiteral("/masks")).entryList(QDir::Files, QDir::Name), files);
        int empty = 0;
        for (const QString& f : files) {
            for (const char* sub : {"/images/", "/masks/"})
                QCOMPARE(fileBytes(one + QLatin1String(sub) + f),
                         fileBytes(two + QLatin1String(sub) + f));
            auto mask = readImage((one + QStringLiteral("/masks/") + f).toStdString());
            QVERIFY(mask);
            empty += crackPixels(*mask) == 0;
        }
        QCOMPARE(empty, a->crackFree);
        // The pixels are randomTrainingScene's, index by index.
        auto first = generateScene(randomTrainingScene(7 * 1000003ull, 64, 64));
        auto read = readImage((one + QStringLiteral("/images/") + files[0]).toStdString());
        QVERIFY(first && read && first->image.pixels == read->pixels);
        // Written again, smaller: nothing of the earlier set stays; no temporary files anywhere.
        o.count = 3;
        QVERIFY(writeTrainingDataset(one.toStdString(), o));
        QCOMPARE(QDir(one + QStringLiteral("/images")).entryList(QDir::Files).size(), 3);
        QCOMPARE(QDir(one + QStringLiteral("/masks")).entryList(QDir::Files).size(), 3);
        QDirIterator it(one, QDirIterator::Subdirectories);
        while (it.hasNext())
            QVERIFY2(!it.next().contains(QStringLiteral(".part")), qPrintable(it.filePath()));
    }

    void trainingDataRefusesAndCancels()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("notes.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
        f.close();
        TrainingDataOptions o;
        o.count = 2;
        o.size = 32;
        auto r = writeTrainingDataset(tmp.path().toStdString(), o);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 1);
        o.count = 0;
        QCOMPARE(writeTrainingDataset(tmp.filePath(QStringLiteral("z")).toStdString(), o)
                     .status()
                     .code(),
                 ErrorCode::InvalidArgument);

        CancelToken cancel;
        o.count = 400;
        o.threads = 2;
        CallbackProgressSink sink([&](const Progress&) { cancel.cancel(); });
        const QString root = tmp.filePath(QStringLiteral("c"));
        auto c = writeTrainingDataset(root.toStdString(), o, cancel, &sink);
        QVERIFY(!c);
        QCOMPARE(c.status().code(), ErrorCode::Cancelled);
        QVERIFY(!QFile::exists(root + QStringLiteral("/manifest.json")));
        QVERIFY(QDir(root + QStringLiteral("/images")).entryList(QDir::Files).size() < 50);
    }
};

QTEST_GUILESS_MAIN(TstSynthRealistic)
#include "tst_synth_realistic.moc"
