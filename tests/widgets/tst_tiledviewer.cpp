#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QSlider>

#include "../core/tiff_kinds.h"
#include "fisura/image.h"
#include "fisura/synth.h"
#include "fisura/tilecache.h"
#include "fisura/tiledwriter.h"
#include "inspect/inspectpane.h"
#include "viewer/overviewmap.h"
#include "viewer/tiledviewer.h"
#include "viewer/viewerbudgets.h"

using namespace fisura;
using fisura::ui::OverlayStyle;
using fisura::ui::TiledViewer;
using fisura::ui::ViewerStats;

namespace
{
constexpr int kW = 2048, kH = 1536, kBlock = 64;
// Bottom-left corner of a 400 x 300 view: the scale bar (the scan has a pixel size).
const QRect kScaleBarArea(0, 300 - 42, 260, 42);

// A 64-px checkerboard whose every block has its own colour: a misplaced tile shows.
QRgb patternAt(int x, int y)
{
    const int bx = x / kBlock, by = y / kBlock;
    return qRgb((bx * 37 + 20) % 256, (by * 53 + 30) % 256, ((bx + by) * 11 + 40) % 256);
}
bool maskAt(int x, int y)
{
    return ((x / kBlock) + (y / kBlock)) % 3 == 0;
}

Image makePattern(int w, int h)
{
    Image im = Image::make(w, h, 3);
    for (int y = 0; y < h; ++y) {
        uint8_t* r = im.row(y);
        for (int x = 0; x < w; ++x) {
            const QRgb c = patternAt(x, y);
            r[3 * x] = uint8_t(qRed(c));
            r[3 * x + 1] = uint8_t(qGreen(c));
            r[3 * x + 2] = uint8_t(qBlue(c));
        }
    }
    return im;
}
Image makeMask(int w, int h)
{
    Image im = Image::make(w, h, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            im.row(y)[x] = maskAt(x, y) ? 255 : 0;
    return im;
}
// Horizontal ramp 0..255 across the image: a probability map with known values.
Image makeRamp(int w, int h)
{
    Image im = Image::make(w, h, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            im.row(y)[x] = uint8_t(x * 256 / w);
    return im;
}

QString writePyramid(const QString& path, const Image& im, double pixelMm = 0)
{
    TiledWriteOptions o;
    o.tileSize = 256;
    o.maxOverviewSide = 200;
    o.pixelSizeXmm = o.pixelSizeYmm = pixelMm;
    auto w = TiledTiffWriter::create(path.toStdString(), im.width, im.height, im.channels, o);
    if (!w)
        return QString::fromStdString(w.status().detail());
    if (Status s = (*w)->appendRows(im); !s)
        return QString::fromStdString(s.detail());
    if (Status s = (*w)->finish(); !s)
        return QString::fromStdString(s.detail());
    return {};
}

bool near(QRgb a, QRgb b, int tol)
{
    return std::abs(qRed(a) - qRed(b)) <= tol && std::abs(qGreen(a) - qGreen(b)) <= tol &&
           std::abs(qBlue(a) - qBlue(b)) <= tol;
}
// Distance from (x, y) to the nearest 64-px block edge, in image pixels.
double edgeDistance(QPointF p)
{
    const double fx = std::fmod(p.x(), kBlock), fy = std::fmod(p.y(), kBlock);
    return std::min({fx, kBlock - fx, fy, kBlock - fy});
}
} // namespace

class TstTiledViewer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        scan_ = dir_.filePath(QStringLiteral("pattern.tif"));
        QCOMPARE(writePyramid(scan_, makePattern(kW, kH), 0.1), QString());
        maskStriped_ = dir_.filePath(QStringLiteral("mask_striped.tif"));
        QVERIFY(writeTiff(maskStriped_.toStdString(), makeMask(kW, kH)).isOk());
        maskPyramid_ = dir_.filePath(QStringLiteral("mask_pyramid.tif"));
        QCOMPARE(writePyramid(maskPyramid_, makeMask(kW, kH)), QString());
        ramp_ = dir_.filePath(QStringLiteral("ramp.tif"));
        TiffWriteOptions t;
        t.tileSize = 128;
        QVERIFY(writeTiff(ramp_.toStdString(), makeRamp(kW, kH), t).isOk());
    }

    void openAndFit()
    {
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        QCOMPARE(v.imageSize(), QSize(kW, kH));
        QVERIFY(v.overviewReady()); // a pyramid's overview comes from its small levels at once
        QCOMPARE(v.zoom(), v.fitZoom());
        QVERIFY(v.viewportRect().contains(QRectF(0, 0, kW, kH).adjusted(1, 1, -1, -1)));
        QVERIFY(v.currentLevel() > 0);
        QTRY_VERIFY(v.frameComplete());
    }

    void refusesBadInput()
    {
        TiledViewer v;
        QCOMPARE(v.openImage(dir_.filePath(QStringLiteral("missing.tif"))).code(),
                 ErrorCode::NotFound);
        QFile junk(dir_.filePath(QStringLiteral("junk.tif")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("II*\0garbage", 11);
        junk.close();
        QVERIFY(!v.openImage(junk.fileName()).isOk());
        QVERIFY(!v.hasImage());
        QCOMPARE(v.addOverlay(maskStriped_, {}).code(), ErrorCode::InvalidArgument);
        // An overlay of another size is refused and the view keeps working.
        QVERIFY(v.openImage(scan_).isOk());
        const QString small = dir_.filePath(QStringLiteral("small.tif"));
        QVERIFY(writeTiff(small.toStdString(), makeMask(100, 100)).isOk());
        const Status s = v.addOverlay(small, {});
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QVERIFY(QString::fromStdString(s.detail()).contains(QStringLiteral("100x100")));
        QCOMPARE(v.overlayCount(), 0);
    }

    void patternLandsOnRightPixels_data()
    {
        QTest::addColumn<double>("zoom");
        QTest::addColumn<QPointF>("centre");
        QTest::addColumn<int>("level");
        QTest::newRow("1:1") << 1.0 << QPointF(700, 500) << 0;
        QTest::newRow("2:1") << 2.0 << QPointF(1333, 777) << 0;
        QTest::newRow("4:1 at the edge") << 4.0 << QPointF(2000, 1500) << 0;
        QTest::newRow("1:2") << 0.5 << QPointF(1024, 768) << 1;
        QTest::newRow("1:4") << 0.25 << QPointF(1024, 768) << 2;
        QTest::newRow("1:3 between levels") << 1.0 / 3 << QPointF(900, 700) << 1;
    }
    void patternLandsOnRightPixels()
    {
        QFETCH(double, zoom);
        QFETCH(QPointF, centre);
        QFETCH(int, level);
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        v.setZoom(zoom);
        v.centerOn(centre);
        QCOMPARE(v.zoom(), zoom);
        QCOMPARE(v.currentLevel(), level);
        QTRY_VERIFY(v.frameComplete());
        const QImage img = v.snapshot().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(img.size(), QSize(400, 300));
        // Every sampled screen pixel well inside a pattern block shows that block's colour;
        // pixels outside the image show the background.
        const double margin = 2.0 / zoom + (1 << level) + 1;
        int checked = 0;
        for (int y = 2; y < 300; y += 7)
            for (int x = 2; x < 400; x += 7) {
                if (kScaleBarArea.contains(x, y))
                    continue;
                const QPointF ip = v.mapToImage(QPointF(x + 0.5, y + 0.5));
                const QRgb got = img.pixel(x, y);
                if (ip.x() < 0 || ip.y() < 0 || ip.x() >= kW || ip.y() >= kH) {
                    if (ip.x() < -2 || ip.y() < -2 || ip.x() > kW + 2 || ip.y() > kH + 2)
                        QVERIFY2(near(got, qRgb(48, 48, 48), 0),
                                 qPrintable(QStringLiteral("background at %1,%2").arg(x).arg(y)));
                    continue;
                }
                if (edgeDistance(ip) < margin)
                    continue;
                const QRgb want = patternAt(int(ip.x()), int(ip.y()));
                QVERIFY2(near(got, want, 3),
                         qPrintable(QStringLiteral("screen %1,%2 image %3,%4: got %5 want %6")
                                        .arg(x)
                                        .arg(y)
                                        .arg(ip.x())
                                        .arg(ip.y())
                                        .arg(got, 0, 16)
                                        .arg(want, 0, 16)));
                ++checked;
            }
        QVERIFY2(checked > 300, qPrintable(QString::number(checked)));
    }

    void overlaysAlignAtEveryLevel_data()
    {
        QTest::addColumn<QString>("mask");
        QTest::addColumn<double>("zoom");
        QTest::addColumn<bool>("outline");
        for (double z : {2.0, 1.0, 0.5, 0.25, 0.125}) {
            const QByteArray zs = QByteArray::number(z);
            QTest::newRow("striped " + zs) << QStringLiteral("striped") << z << false;
            QTest::newRow("pyramid " + zs) << QStringLiteral("pyramid") << z << false;
        }
        QTest::newRow("outline 1:1") << QStringLiteral("pyramid") << 1.0 << true;
    }
    void overlaysAlignAtEveryLevel()
    {
        QFETCH(QString, mask);
        QFETCH(double, zoom);
        QFETCH(bool, outline);
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        OverlayStyle st;
        st.colorMap = ui::ColorMap::Magenta;
        st.opacity = 1.0;
        st.outline = outline;
        QVERIFY(v.addOverlay(mask == QLatin1String("striped") ? maskStriped_ : maskPyramid_,
                             QStringLiteral("truth"), st)
                    .isOk());
        v.setZoom(zoom);
        v.centerOn(QPointF(1100, 700));
        QTRY_VERIFY(v.frameComplete());
        const QImage img = v.snapshot().convertToFormat(QImage::Format_RGB32);
        const QRgb magenta = qRgb(255, 0, 220);
        // A screen pixel covers 1/zoom image pixels; a mask level may be 8 times coarser.
        const double margin = 1.0 / zoom + 8 + 1;
        const int step = zoom < 0.5 ? 2 : 5;
        int inMask = 0, outMask = 0;
        for (int y = 1; y < 300; y += step)
            for (int x = 1; x < 400; x += step) {
                const QPointF ip = v.mapToImage(QPointF(x + 0.5, y + 0.5));
                if (kScaleBarArea.contains(x, y) || ip.x() < 0 || ip.y() < 0 || ip.x() >= kW ||
                    ip.y() >= kH || edgeDistance(ip) < margin)
                    continue;
                const QRgb got = img.pixel(x, y);
                const bool m = maskAt(int(ip.x()), int(ip.y()));
                // Outline mode leaves the inside of each block unpainted.
                const QRgb want = m && !outline ? magenta : patternAt(int(ip.x()), int(ip.y()));
                QVERIFY2(near(got, want, 3),
                         qPrintable(QStringLiteral("screen %1,%2: got %3 want %4")
                                        .arg(x)
                                        .arg(y)
                                        .arg(got, 0, 16)
                                        .arg(want, 0, 16)));
                ++(m ? inMask : outMask);
            }
        QVERIFY(inMask > 20);
        QVERIFY(outMask > 20);
        if (outline) {
            // The boundary itself is painted: a screen pixel just inside a masked block's edge.
            int painted = 0;
            for (int y = 0; y < 300; ++y)
                for (int x = 0; x < 400; ++x)
                    painted += img.pixel(x, y) == magenta;
            QVERIFY(painted > 100);
        }
    }

    void thresholdLut_data()
    {
        QTest::addColumn<int>("threshold");
        QTest::addColumn<double>("opacity");
        QTest::newRow("0") << 0 << 1.0;
        QTest::newRow("100") << 100 << 0.5;
        QTest::newRow("255") << 255 << 1.0;
        QTest::newRow("256 hides all") << 256 << 1.0;
    }
    void thresholdLut()
    {
        QFETCH(int, threshold);
        QFETCH(double, opacity);
        OverlayStyle st;
        st.threshold = threshold;
        st.opacity = opacity;
        st.colorMap = ui::ColorMap::Heat;
        const QVector<QRgb> lut = ui::overlayLut(st);
        QCOMPARE(lut.size(), 256);
        for (int v = 0; v < 256; ++v) {
            QCOMPARE(lut[v] != 0, v >= threshold);
            if (v >= threshold)
                QCOMPARE(qAlpha(lut[v]), int(opacity * 255 + 0.5));
        }
        // Heat rises with the value.
        if (threshold == 0)
            QVERIFY(qRed(lut[200]) + qGreen(lut[200]) > qRed(lut[50]) + qGreen(lut[50]));
    }

    void thresholdChangeIsInstant()
    {
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        OverlayStyle st;
        st.colorMap = ui::ColorMap::Blue;
        st.opacity = 1.0;
        st.threshold = 200;
        QVERIFY(v.addOverlay(ramp_, QStringLiteral("p"), st).isOk());
        v.setZoom(0.125); // the whole width on screen
        v.centerOn(QPointF(kW / 2.0, kH / 2.0));
        QTRY_VERIFY(v.frameComplete());
        const auto countBlue = [&v] {
            const QImage img = v.snapshot().convertToFormat(QImage::Format_RGB32);
            int n = 0;
            for (int x = 0; x < img.width(); ++x)
                n += img.pixel(x, 150) == qRgb(40, 120, 255);
            return n;
        };
        const int at200 = countBlue();
        const quint64 decoded = v.stats().decoded;
        st.threshold = 50;
        v.setOverlayStyle(0, st);
        const int at50 = countBlue(); // no waiting: only the table changed
        QCOMPARE(v.stats().decoded, decoded);
        // Ramp value = x * 256 / W: the shown share of the image width follows the threshold.
        const double imgPx = kW * v.zoom();
        QVERIFY2(std::abs(at200 - imgPx * (256 - 200) / 256) < 4,
                 qPrintable(QString::number(at200)));
        QVERIFY2(std::abs(at50 - imgPx * (256 - 50) / 256) < 4, qPrintable(QString::number(at50)));
        st.visible = false;
        v.setOverlayStyle(0, st);
        QCOMPARE(countBlue(), 0);
    }

    void staleRequestsDropped()
    {
        TiledViewer v;
        v.setWorkerCount(1);
        v.resize(600, 400);
        v.show();
        QVERIFY(v.openImage(ramp_).isOk()); // flat, 128-px tiles: many requests per view
        v.setZoom(1.0);
        QTRY_VERIFY(v.frameComplete());
        const ViewerStats before = v.stats();
        // Pan through ten views without letting a frame finish: each view replaces the queue.
        for (int i = 0; i < 10; ++i)
            v.centerOn(QPointF(150 + i * 170, 200 + (i % 2) * 1100));
        const ViewerStats mid = v.stats();
        QVERIFY(mid.generation >= before.generation + 10);
        QVERIFY2(mid.droppedStale > before.droppedStale, "queued requests were not replaced");
        QTRY_VERIFY(v.frameComplete());
        const ViewerStats after = v.stats();
        QCOMPARE(after.pending, 0);
        // Replaced requests were never decoded.
        QVERIFY(after.decoded - before.decoded < after.requested - before.requested);
        // The last view is the one shown.
        const QImage img = v.snapshot().convertToFormat(QImage::Format_Grayscale8);
        const QPointF ip = v.mapToImage(QPointF(300.5, 200.5));
        QVERIFY(std::abs(img.pixelColor(300, 200).red() - int(ip.x()) * 256 / kW) <= 1);
    }

    void lateResultsDropped()
    {
        // Flat striped file and a cache that keeps nothing: every tile decodes strips (ms).
        const QString flat = dir_.filePath(QStringLiteral("late.tif"));
        QVERIFY(writeTiff(flat.toStdString(), makeRamp(8192, 4096)).isOk());
        TiledViewer v(nullptr, std::make_shared<TileCache>(1));
        v.setWorkerCount(1);
        v.resize(600, 400);
        v.show();
        QVERIFY(v.openImage(flat).isOk());
        for (int round = 0; round < 5 && v.stats().droppedLate == 0; ++round) {
            v.showAt(QPointF(1000 + round * 1200, 1000), 1.0);
            // Wait (without delivering results) until the worker has taken a tile of this
            // view, then jump far away: that tile arrives for a view that no longer wants it.
            const int queued = v.stats().pending;
            QVERIFY(queued > 1);
            QElapsedTimer t;
            t.start();
            while (v.stats().pending == queued && t.elapsed() < 5000) {
            }
            v.showAt(QPointF(7000 - round * 1200, 3500), 1.0);
            QTRY_VERIFY(v.frameComplete());
            QTRY_VERIFY_WITH_TIMEOUT(
                v.stats().decoded == v.stats().requested - v.stats().droppedStale, 2000);
        }
        QVERIFY(v.stats().droppedLate > 0);
    }

    void cacheBudgetRespected()
    {
        const size_t budget = 4u << 20;
        auto cache = std::make_shared<TileCache>(budget);
        TiledViewer v(nullptr, cache);
        v.setPixmapBudget(16 << 20); // less than the whole image's tiles: eviction must work
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        QVERIFY(v.addOverlay(maskStriped_, {}).isOk());
        v.setZoom(1.0);
        for (int y = 150; y < kH; y += 300)
            for (int x = 200; x < kW; x += 400) {
                v.centerOn(QPointF(x, y));
                QTRY_VERIFY(v.frameComplete());
                const ViewerStats st = v.stats();
                QVERIFY2(st.pixmapBytes <= st.pixmapBudget,
                         qPrintable(QString::number(st.pixmapBytes)));
                const TileCacheStats cs = cache->stats();
                QVERIFY2(cs.bytes <= budget, qPrintable(QString::number(cs.bytes)));
            }
        QVERIFY(cache->stats().evictions > 0);
    }

    // A viewer made as the panes make it runs under the budgets the README states.
    void defaultViewerHasTheStatedBudgets()
    {
        TiledViewer v;
        QCOMPARE(qint64(v.tileCache()->stats().budget), ui::kViewerBlockCacheBytes);
        QCOMPARE(v.stats().pixmapBudget, ui::kViewerPixmapBudgetBytes);
        TiledViewer second(nullptr, v.tileCache()); // Inspect's second viewer shares the blocks
        QCOMPARE(second.tileCache().get(), v.tileCache().get());
    }

    void flatScanOverviewBuiltAndCached()
    {
        const QString flat = dir_.filePath(QStringLiteral("flat.tif"));
        QVERIFY(writeTiff(flat.toStdString(), makePattern(2600, 2600)).isOk());
        QTemporaryDir cacheDir;
        {
            TiledViewer v;
            v.setOverviewCacheDir(cacheDir.path());
            v.resize(400, 300);
            v.show();
            QSignalSpy built(&v, &TiledViewer::overviewBuilt);
            QVERIFY(v.openImage(flat).isOk());
            QVERIFY(!v.overviewReady()); // too large to build on the GUI thread
            QTRY_VERIFY_WITH_TIMEOUT(v.overviewReady(), 20000);
            QCOMPARE(built.count(), 1);
            const QImage ov = v.overview();
            QCOMPARE(ov.size(), QSize(2048, 2048));
            // Block centres keep their colour after the box filter.
            const double k = 2048.0 / 2600;
            QVERIFY(near(ov.pixel(int(96 * k), int(160 * k)), patternAt(96, 160), 2));
        }
        QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.png")}).size(), 1);
        TiledViewer again;
        again.setOverviewCacheDir(cacheDir.path());
        QVERIFY(again.openImage(flat).isOk());
        QVERIFY(again.overviewReady()); // from the cache file, at once
    }

    void scaleBarAndSnapshot()
    {
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        QCOMPARE(v.pixelSizeMm(), 0.1);
        v.setZoom(1.0);
        QTRY_VERIFY(v.frameComplete());
        const QString png = dir_.filePath(QStringLiteral("view.png"));
        QVERIFY(v.saveSnapshot(png).isOk());
        const QImage img(png);
        QCOMPARE(img.size(), QSize(400, 300));
        // Scale bar: 10 mm at 0.1 mm/px and 1:1 is 100 px of black on a light box.
        int black = 0;
        for (int x = 0; x < 200; ++x)
            black += img.pixelColor(x, 300 - 38 + 27 - 8 + 1).lightness() < 30;
        QCOMPARE(black, 100);
        QCOMPARE(v.saveSnapshot(dir_.filePath(QStringLiteral("no/such/dir/v.png"))).code(),
                 ErrorCode::IoError);
    }

    void cursorReportsPositionAndValue()
    {
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        v.setZoom(1.0);
        v.centerOn(QPointF(300, 300));
        QTRY_VERIFY(v.frameComplete());
        QSignalSpy spy(&v, &TiledViewer::cursorInfo);
        const QPoint at(123, 77);
        QTest::mouseMove(&v, at);
        QTRY_VERIFY(!spy.isEmpty());
        const QPoint ip = spy.last().at(0).toPoint();
        const QPointF want = v.mapToImage(QPointF(at));
        QCOMPARE(ip, QPoint(int(want.x()), int(want.y())));
        const QRgb c = patternAt(ip.x(), ip.y());
        QCOMPARE(spy.last().at(1).toString(),
                 QStringLiteral("%1,%2,%3").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)));
    }

    // Scans whose samples are not 8-bit: once the cursor rests, the readout adds the values the
    // file stores (here int16 elevation-like values), not only the stretched 8-bit display.
    void cursorReportsStoredValuesOfDeepScans()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("int16.tif"));
        auto im = Image::make(96, 64, 1);
        for (int y = 0; y < im.height; ++y)
            for (int x = 0; x < im.width; ++x)
                im.row(y)[x] = uint8_t((x * 3 + y) & 0xff);
        QVERIFY(kinds::write(path, im, kinds::Kind::Int16));
        TiledViewer v;
        v.resize(200, 150);
        v.show();
        QVERIFY(v.openImage(path).isOk());
        v.setZoom(1.0);
        v.centerOn(QPointF(48, 32));
        QTRY_VERIFY(v.frameComplete());
        QSignalSpy spy(&v, &TiledViewer::cursorInfo);
        QTest::mouseMove(&v, QPoint(100, 75));
        QTRY_VERIFY(!spy.isEmpty() &&
                    spy.last().at(1).toString().contains(QStringLiteral("stored")));
        const QPoint ip = spy.last().at(0).toPoint();
        const size_t i = size_t(ip.y()) * im.width + ip.x();
        const double want = kinds::storedValue(kinds::Kind::Int16, im.row(ip.y())[ip.x()], i);
        QVERIFY2(spy.last().at(1).toString().endsWith(QLocale().toString(want, 'g', 6)),
                 qPrintable(spy.last().at(1).toString()));
    }

    void zoomAtCursorAndKeys()
    {
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        v.setZoom(1.0);
        const QPointF anchor(100, 50);
        const QPointF before = v.mapToImage(anchor);
        v.setZoom(2.0, anchor);
        QVERIFY((v.mapToImage(anchor) - before).manhattanLength() < 1e-9);
        const double z = v.zoom();
        QTest::keyClick(&v, Qt::Key_Plus);
        QCOMPARE(v.zoom(), z * 1.25);
        const QRectF r = v.viewportRect();
        QTest::keyClick(&v, Qt::Key_Right);
        QVERIFY(v.viewportRect().left() > r.left());
        QTest::keyClick(&v, Qt::Key_Home);
        QCOMPARE(v.zoom(), v.fitZoom());
        QTest::keyClick(&v, Qt::Key_1);
        QCOMPARE(v.zoom(), 1.0);
        // Drag pans by the mouse distance.
        const QRectF r2 = v.viewportRect();
        QTest::mousePress(&v, Qt::LeftButton, {}, QPoint(200, 150));
        QMouseEvent move(QEvent::MouseMove, QPointF(150, 120), v.mapToGlobal(QPointF(150, 120)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&v, &move);
        QTest::mouseRelease(&v, Qt::LeftButton, {}, QPoint(150, 120));
        QCOMPARE(v.viewportRect().topLeft() - r2.topLeft(), QPointF(50, 30));
    }

    void overviewMapJumps()
    {
        TiledViewer v;
        v.resize(400, 300);
        v.show();
        QVERIFY(v.openImage(scan_).isOk());
        v.setZoom(1.0);
        ui::OverviewMap map(&v);
        map.resize(220, 180);
        map.show();
        const QRectF area = map.imageArea();
        QTest::mouseClick(
            &map, Qt::LeftButton, {},
            (area.topLeft() + QPointF(area.width() * 0.75, area.height() * 0.25)).toPoint());
        const QPointF c = v.viewportRect().center();
        QVERIFY2(std::abs(c.x() - kW * 0.75) < 16 && std::abs(c.y() - kH * 0.25) < 16,
                 qPrintable(QStringLiteral("%1,%2").arg(c.x()).arg(c.y())));
    }

    void inspectPaneOpensScanWithMask()
    {
        // The demo dataset layout: <name>.tif with <name>_mask.tif beside it.
        QTemporaryDir d;
        const QString scan = d.filePath(QStringLiteral("demo_scan.tif"));
        QVERIFY(QFile::copy(scan_, scan));
        QVERIFY(QFile::copy(maskStriped_, d.filePath(QStringLiteral("demo_scan_mask.tif"))));
        ui::InspectPane pane;
        pane.resize(900, 600);
        pane.show();
        QCOMPARE(pane.paneId(), QStringLiteral("inspect"));
        QVERIFY(pane.openScan(scan).isOk());
        QCOMPARE(pane.viewer()->overlayCount(), 1);
        QCOMPARE(pane.layerList()->count(), 1);
        QCOMPARE(pane.layerList()->currentRow(), 0);
        pane.thresholdSlider()->setValue(10);
        QCOMPARE(pane.viewer()->overlayStyle(0).threshold, 10);
        pane.opacitySlider()->setValue(30);
        QCOMPARE(pane.viewer()->overlayStyle(0).opacity, 0.3);
        pane.outlineBox()->setChecked(true);
        QVERIFY(pane.viewer()->overlayStyle(0).outline);
        pane.layerList()->item(0)->setCheckState(Qt::Unchecked);
        QVERIFY(!pane.viewer()->overlayStyle(0).visible);
        QVERIFY(pane.addOverlay(ramp_).isOk());
        QCOMPARE(pane.layerList()->count(), 2);
        QCOMPARE(pane.layerList()->item(1)->text(), QStringLiteral("ramp"));
        pane.compareAction()->setChecked(true);
        QVERIFY(pane.viewer()->swipeEnabled());
        // Side by side: the right view shows the second layer alone and follows the left one.
        pane.compareModeBox()->setCurrentIndex(1);
        QVERIFY(!pane.viewer()->swipeEnabled());
        ui::TiledViewer* second = pane.secondViewer();
        QVERIFY(second->isVisible());
        QCOMPARE(second->overlayCount(), 2);
        QCOMPARE(pane.viewer()->soloOverlay(), 0);
        QCOMPARE(second->soloOverlay(), 1);
        pane.viewer()->showAt(QPointF(700, 400), 2.0);
        QCOMPARE(second->zoom(), 2.0);
        QVERIFY((second->viewportRect().center() - QPointF(700, 400)).manhattanLength() < 1);
        second->panBy(QPointF(-40, 0));
        QVERIFY((pane.viewer()->viewportRect().center() - QPointF(720, 400)).manhattanLength() < 1);
        pane.thresholdSlider()->setValue(99); // styles reach both views
        QCOMPARE(second->overlayStyle(pane.layerList()->currentRow()).threshold, 99);
        pane.compareAction()->setChecked(false);
        QVERIFY(!second->isVisible());
        QCOMPARE(pane.viewer()->soloOverlay(), -1);
        QVERIFY(pane.saveSnapshot(d.filePath(QStringLiteral("s.png"))).isOk());
        QVERIFY(!QImage(d.filePath(QStringLiteral("s.png"))).isNull());
    }

    void demoScanOpensWithItsMask()
    {
        // What `fisura-cli demo-data` writes (smaller scan, no training images).
        QTemporaryDir d;
        synth::DemoDatasetOptions o;
        o.segmentationImages = 1;
        o.classificationImages = 1;
        o.scanSize = 1024;
        auto r = synth::writeDemoDataset(d.path().toStdString(), o, {}, nullptr);
        QVERIFY2(r.isOk(), r.status().detail().c_str());
        ui::InspectPane pane;
        pane.resize(900, 600);
        pane.show();
        QVERIFY(pane.openScan(QString::fromStdString(r->scanPath)).isOk());
        QCOMPARE(pane.viewer()->overlayCount(), 1);
        QVERIFY(pane.viewer()->pixelSizeMm() > 0);
        QTRY_VERIFY(pane.viewer()->frameComplete());
        // The crack mask shows in green over the scan.
        OverlayStyle st = pane.viewer()->overlayStyle(0);
        st.opacity = 1.0;
        pane.viewer()->setOverlayStyle(0, st);
        const QImage img = pane.viewer()->snapshot().convertToFormat(QImage::Format_RGB32);
        int green = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                green += img.pixel(x, y) == qRgb(32, 230, 64);
        QVERIFY2(green > 100, qPrintable(QString::number(green)));
    }

private:
    QTemporaryDir dir_;
    QString scan_, maskStriped_, maskPyramid_, ramp_;
};

QTEST_MAIN(TstTiledViewer)
#include "tst_tiledviewer.moc"
