#include <QtTest>

#include <QTemporaryDir>

#include "fisura/image.h"
#include "fisura/synth.h"

using namespace fisura;
using namespace fisura::synth;

namespace
{

double meanOver(const Scene& s, bool crack)
{
    double sum = 0;
    size_t n = 0;
    for (int y = 0; y < s.image.height; ++y)
        for (int x = 0; x < s.image.width; ++x)
            if ((s.mask.row(y)[x] != 0) == crack) {
                const uint8_t* p = s.image.row(y) + 3 * x;
                sum += (p[0] + p[1] + p[2]) / 3.0;
                ++n;
            }
    return n ? sum / n : -1;
}

size_t crackPixels(const Scene& s)
{
    return std::count(s.mask.pixels.begin(), s.mask.pixels.end(), uint8_t(255));
}

} // namespace

class TstSynth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sameSeedSamePixels()
    {
        SceneOptions o;
        o.seed = 7;
        auto a = generateScene(o);
        auto b = generateScene(o);
        QVERIFY(a && b);
        QVERIFY(a->image.pixels == b->image.pixels);
        QVERIFY(a->mask.pixels == b->mask.pixels);
        o.seed = 8;
        auto c = generateScene(o);
        QVERIFY(c->image.pixels != a->image.pixels);
    }

    void cracksAreDarkAndMaskIsBinary_data()
    {
        QTest::addColumn<int>("surface");
        QTest::newRow("concrete") << int(Surface::Concrete);
        QTest::newRow("asphalt") << int(Surface::Asphalt);
        QTest::newRow("masonry") << int(Surface::Masonry);
    }
    void cracksAreDarkAndMaskIsBinary()
    {
        QFETCH(int, surface);
        SceneOptions o;
        o.surface = static_cast<Surface>(surface);
        o.cracks = 2;
        o.seed = 11;
        auto s = generateScene(o);
        QVERIFY(s);
        QCOMPARE(s->image.channels, 3);
        QCOMPARE(s->mask.channels, 1);
        for (uint8_t v : s->mask.pixels)
            QVERIFY(v == 0 || v == 255);
        const double frac = double(crackPixels(*s)) / (o.width * o.height);
        QVERIFY2(frac > 0.003 && frac < 0.25, qPrintable(QString::number(frac)));
        // Crack pixels are clearly darker than the surface around them.
        QVERIFY(meanOver(*s, true) < 0.6 * meanOver(*s, false));
    }

    void crackFreeSceneHasEmptyMask()
    {
        SceneOptions o;
        o.cracks = 0;
        auto s = generateScene(o);
        QVERIFY(s);
        QCOMPARE(crackPixels(*s), size_t(0));
    }

    void widthRangeIsHonoured()
    {
        SceneOptions thin, thick;
        thin.seed = thick.seed = 3;
        thin.minWidthPx = thin.maxWidthPx = 1.0;
        thick.minWidthPx = thick.maxWidthPx = 6.0;
        auto a = generateScene(thin), b = generateScene(thick);
        QVERIFY(crackPixels(*b) > 2 * crackPixels(*a));
    }

    void invalidOptionsAreRejected_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("cracks");
        QTest::addColumn<double>("minW");
        QTest::addColumn<double>("maxW");
        QTest::newRow("tiny") << 8 << 1 << 1.0 << 2.0;
        QTest::newRow("huge") << 20000 << 1 << 1.0 << 2.0;
        QTest::newRow("negative cracks") << 64 << -1 << 1.0 << 2.0;
        QTest::newRow("inverted widths") << 64 << 1 << 3.0 << 2.0;
        QTest::newRow("zero width") << 64 << 1 << 0.0 << 2.0;
    }
    void invalidOptionsAreRejected()
    {
        QFETCH(int, width);
        QFETCH(int, cracks);
        QFETCH(double, minW);
        QFETCH(double, maxW);
        SceneOptions o;
        o.width = width;
        o.cracks = cracks;
        o.minWidthPx = minW;
        o.maxWidthPx = maxW;
        auto s = generateScene(o);
        QVERIFY(!s);
        QCOMPARE(s.status().code(), ErrorCode::InvalidArgument);
    }

    void demoDatasetIsWrittenAndReadable()
    {
        QTemporaryDir tmp;
        DemoDatasetOptions o;
        o.segmentationImages = 4;
        o.classificationImages = 3;
        o.patchSize = 64;
        o.scanSize = 512;
        int reports = 0;
        CallbackProgressSink sink([&](const Progress&) { ++reports; });
        const std::string root = (tmp.path() + QStringLiteral("/demo")).toStdString();
        auto r = writeDemoDataset(root, o, {}, &sink);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->segmentationPairs, 4);
        QCOMPARE(r->cracked, 3);
        QCOMPARE(r->uncracked, 3);
        QVERIFY(reports > 0);
        QDir d(QString::fromStdString(root));
        QCOMPARE(d.entryList({QStringLiteral("*.tif")}, QDir::Files, QDir::Name).size(), 0);
        const QStringList images =
            QDir(d.filePath(QStringLiteral("segmentation/images"))).entryList(QDir::Files);
        const QStringList masks =
            QDir(d.filePath(QStringLiteral("segmentation/masks"))).entryList(QDir::Files);
        QCOMPARE(images, masks); // paired by name
        QCOMPARE(images.size(), 4);
        // Read back: the image decodes and its mask is the generator's exact mask.
        auto img =
            readImage(d.filePath(QStringLiteral("segmentation/images/") + images[0]).toStdString());
        auto mask =
            readImage(d.filePath(QStringLiteral("segmentation/masks/") + images[0]).toStdString());
        QVERIFY(img && mask);
        QCOMPARE(img->width, 64);
        QCOMPARE(img->channels, 3);
        QCOMPARE(mask->channels, 1);
        SceneOptions so;
        so.width = so.height = 64;
        so.seed = o.seed * 1000003ull;
        so.surface = Surface::Concrete;
        so.cracks = 1;
        auto scene = generateScene(so);
        QVERIFY(scene->mask.pixels == mask->pixels);
        QVERIFY(scene->image.pixels == img->pixels);
        QVERIFY(QFile::exists(QString::fromStdString(r->scanPath)));
        // Writing again over our own dataset is allowed.
        QVERIFY(writeDemoDataset(root, o));
        // No temporary files are left behind.
        QDirIterator it(QString::fromStdString(root), QDirIterator::Subdirectories);
        while (it.hasNext())
            QVERIFY2(!it.next().contains(QStringLiteral(".part")), qPrintable(it.filePath()));
    }

    void demoDatasetRefusesForeignFolder()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("thesis.docx")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("precious");
        f.close();
        DemoDatasetOptions o;
        o.segmentationImages = 1;
        auto r = writeDemoDataset(tmp.path().toStdString(), o);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 1);
    }

    void demoDatasetCancels()
    {
        QTemporaryDir tmp;
        CancelToken cancel;
        DemoDatasetOptions o;
        o.segmentationImages = 50;
        o.classificationImages = 0;
        o.scanSize = 0;
        o.patchSize = 64;
        int seen = 0;
        CallbackProgressSink sink([&](const Progress&) {
            if (++seen == 1)
                cancel.cancel();
        });
        const std::string root = tmp.filePath(QStringLiteral("d")).toStdString();
        auto r = writeDemoDataset(root, o, cancel, &sink);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        const int written =
            QDir(QString::fromStdString(root) + QStringLiteral("/segmentation/images"))
                .entryList(QDir::Files)
                .size();
        QVERIFY2(written < 10, qPrintable(QString::number(written)));
        QVERIFY(!QFile::exists(QString::fromStdString(root) + QStringLiteral("/manifest.json")));
    }
};

QTEST_GUILESS_MAIN(TstSynth)
#include "tst_synth.moc"
