// The Inspect pane's ground-truth comparison: a small scan, map and mask with known counts.
#include <QtTest>

#include <QLabel>
#include <QListWidget>
#include <QSlider>
#include <QSpinBox>

#include "common/statusmeta.h"
#include "viewer/tiledviewer.h"
#include "fisura/image.h"
#include "fisura/score.h"
#include "inspect/comparisonsummary.h"
#include "inspect/inspectpane.h"
#include "inspect/truthpanel.h"

using namespace fisura;
using fisura::ui::ComparisonSummary;
using fisura::ui::InspectPane;
using fisura::ui::OverlayStyle;

namespace
{

constexpr int kW = 96, kH = 64;
// Known pixels at threshold 150: a true positive, a false positive, a missed crack.
const QPoint kTp(20, 21), kFp(15, 42), kFn(60, 20);

// The crack: row 20, x 10..69 (60 px).
Image makeMask()
{
    Image m = Image::make(kW, kH, 1);
    for (int x = 10; x <= 69; ++x)
        m.row(20)[x] = 255;
    return m;
}

// 200 one row below the crack for x 10..39, 100 on the crack for x 40..49, and a false alarm
// of 180 at rows 40..44, x 10..19.
Image makeMap()
{
    Image m = Image::make(kW, kH, 1);
    for (int x = 10; x <= 39; ++x)
        m.row(21)[x] = 200;
    for (int x = 40; x <= 49; ++x)
        m.row(20)[x] = 100;
    for (int y = 40; y <= 44; ++y)
        for (int x = 10; x <= 19; ++x)
            m.row(y)[x] = 180;
    return m;
}

QString valueText(const InspectPane& pane, const char* name)
{
    auto* l = pane.findChild<QLabel*>(QString::fromLatin1(name));
    return l ? l->text() : QStringLiteral("<no %1>").arg(QString::fromLatin1(name));
}

QRgb pixelAt(ui::TiledViewer* v, QPoint imagePixel)
{
    const QImage img = v->snapshot().convertToFormat(QImage::Format_RGB32);
    return img.pixel(v->mapFromImage(QPointF(imagePixel) + QPointF(0.5, 0.5)).toPoint());
}

// Every comparison layer file in the cache (earlier comparisons keep their latest layers).
QStringList layerFiles()
{
    const QString cache = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                              .filePath(QStringLiteral("comparison"));
    QStringList files;
    QDirIterator it(cache, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

} // namespace

class TstInspectTruth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        scan_ = dir_.filePath(QStringLiteral("scan.tif"));
        map_ = dir_.filePath(QStringLiteral("scan.probability.tif"));
        mask_ = dir_.filePath(QStringLiteral("truth.tif"));
        QVERIFY(writeTiff(scan_.toStdString(), Image::make(kW, kH, 3, 90)).isOk());
        QVERIFY(writeTiff(map_.toStdString(), makeMap()).isOk());
        QVERIFY(writeTiff(mask_.toStdString(), makeMask()).isOk());
    }

    void openWithMapShowsTheCoreNumbers()
    {
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 150, mask_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        QCOMPARE(pane.truthPanel()->truthPath(), mask_);
        auto core = scoreMap(map_.toStdString(), mask_.toStdString());
        QVERIFY(core.isOk());
        const ScoreCounts c = core->at(150);
        // By hand: 30 px of 200 one row off the crack; 50 px of false alarm; the crack is found
        // for x 10..40 (x 41 is sqrt(5) px from the nearest prediction), so 29 px are missed.
        QCOMPARE(c.truePositives, uint64_t(30));
        QCOMPARE(c.falsePositives, uint64_t(50));
        QCOMPARE(c.falseNegatives, uint64_t(29));
        const QLocale l;
        QCOMPARE(valueText(pane, "truePositivesValue"), l.toString(30));
        QCOMPARE(valueText(pane, "falsePositivesValue"), l.toString(50));
        QCOMPARE(valueText(pane, "falseNegativesValue"), l.toString(29));
        QCOMPARE(valueText(pane, "precisionValue"), l.toString(c.precision, 'f', 3));
        QCOMPARE(valueText(pane, "recallValue"), l.toString(c.recall, 'f', 3));
        QCOMPARE(valueText(pane, "f1Value"), l.toString(c.f1, 'f', 3));
        QCOMPARE(valueText(pane, "iouValue"), l.toString(c.iou, 'f', 3));
        QVERIFY(valueText(pane, "toleranceValue").startsWith(l.toString(2)));
        QVERIFY(valueText(pane, "comparisonThresholdValue").contains(QStringLiteral("150")));
        QCOMPARE(pane.comparison()->at(150).truePositives, c.truePositives);
        // Each number has its name beside it.
        auto* precision = pane.findChild<QLabel*>(QStringLiteral("precisionValue"));
        const QList<QLabel*> labels = pane.findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [precision](QLabel* l) {
            return l->buddy() == precision && l->text() == ComparisonSummary::tr("Precision");
        }));

        // Map, truth and the three comparison layers; map and truth hidden.
        ui::TiledViewer* v = pane.viewer();
        QCOMPARE(v->overlayCount(), 5);
        QVERIFY(!v->overlayStyle(0).visible);
        QVERIFY(!v->overlayStyle(1).visible);
        ui::TruthPanel* t = pane.truthPanel();
        const int tp = t->layerIndex(ComparisonSummary::TruePositive);
        const int fp = t->layerIndex(ComparisonSummary::FalsePositive);
        const int fn = t->layerIndex(ComparisonSummary::FalseNegative);
        QVERIFY(tp >= 2 && fp >= 2 && fn >= 2);
        QCOMPARE(v->overlayStyle(tp).threshold, 150);
        QCOMPARE(v->overlayStyle(fp).threshold, 150);
        QCOMPARE(v->overlayStyle(fn).threshold, 106);
        QCOMPARE(v->overlayStyle(tp).colorMap, ui::ColorMap::Custom);
        QCOMPARE(v->overlayStyle(tp).color,
                 ComparisonSummary::defaultColour(ComparisonSummary::TruePositive));
    }

    void thresholdUpdatesNumbersAndLayers()
    {
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 150, mask_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        const ScoreCurve* curve = pane.comparison();
        auto* slider = pane.findChild<QSlider*>(QStringLiteral("comparisonThresholdSlider"));
        QVERIFY(slider);
        slider->setValue(90);
        // At 90 the values of 100 count too: the crack is found for x 10..51.
        QCOMPARE(pane.comparison(), curve); // no recomputation
        const QLocale l;
        QCOMPARE(valueText(pane, "truePositivesValue"), l.toString(40));
        QCOMPARE(valueText(pane, "falsePositivesValue"), l.toString(50));
        QCOMPARE(valueText(pane, "falseNegativesValue"), l.toString(18));
        QCOMPARE(valueText(pane, "recallValue"), l.toString(42.0 / 60.0, 'f', 3));
        ui::TiledViewer* v = pane.viewer();
        ui::TruthPanel* t = pane.truthPanel();
        QCOMPARE(v->overlayStyle(t->layerIndex(ComparisonSummary::TruePositive)).threshold, 90);
        QCOMPARE(v->overlayStyle(t->layerIndex(ComparisonSummary::FalsePositive)).threshold, 90);
        QCOMPARE(v->overlayStyle(t->layerIndex(ComparisonSummary::FalseNegative)).threshold, 166);
        QCOMPARE(v->overlayStyle(0).threshold, 90); // the map layer follows

        // The map layer's own threshold slider drives the comparison as well.
        pane.layerList()->setCurrentRow(0);
        pane.thresholdSlider()->setValue(190);
        QCOMPARE(t->threshold(), 190);
        QCOMPARE(valueText(pane, "truePositivesValue"), l.toString(30));
        QCOMPARE(valueText(pane, "falsePositivesValue"), l.toString(0));
        QCOMPARE(v->overlayStyle(t->layerIndex(ComparisonSummary::FalseNegative)).threshold, 66);
        // Comparison layers follow the comparison threshold only.
        pane.layerList()->setCurrentRow(t->layerIndex(ComparisonSummary::TruePositive));
        QVERIFY(!pane.thresholdSlider()->isEnabled());
    }

    void differentSizeTruthRefused()
    {
        const QString small = dir_.filePath(QStringLiteral("small.tif"));
        QVERIFY(writeTiff(small.toStdString(), Image::make(kW / 2, kH, 1)).isOk());
        InspectPane pane;
        QVERIFY(pane.openScan(scan_).isOk());
        const Status s = pane.attachTruth(small);
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QVERIFY(pane.truthPanel()->truthPath().isEmpty());
        auto* message = pane.findChild<QLabel*>(QStringLiteral("truthMessage"));
        QVERIFY(message);
        const QLocale l;
        const QString expected =
            ui::TruthPanel::tr("The ground truth is %1 × %2 px but the scan is %3 × %4 px: a "
                               "ground-truth mask must have the scan's size.")
                .arg(l.toString(kW / 2), l.toString(kH), l.toString(kW), l.toString(kH));
        QCOMPARE(message->text(), expected);
        QCOMPARE(pane.truthPanel()->message(), expected);
        // openWithMap with such a truth fails with the same code; nothing is compared.
        QCOMPARE(pane.openWithMap(scan_, map_, 128, small).code(), ErrorCode::InvalidArgument);
        QVERIFY(!pane.truthPanel()->isRunning());
        QVERIFY(pane.comparison() == nullptr);
    }

    void layersShowTheirColours()
    {
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 150, mask_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        ui::TiledViewer* v = pane.viewer();
        ui::TruthPanel* t = pane.truthPanel();
        for (int k = 0; k < 3; ++k) {
            const int i = t->layerIndex(ComparisonSummary::Kind(k));
            OverlayStyle st = v->overlayStyle(i);
            st.opacity = 1.0;
            v->setOverlayStyle(i, st);
        }
        const auto expectAt = [v](QPoint p, QColor c) {
            v->showAt(QPointF(p) + QPointF(0.5, 0.5), 8.0);
            QTRY_VERIFY(v->frameComplete());
            const QRgb got = pixelAt(v, p);
            QVERIFY2(got == c.rgb(), qPrintable(QStringLiteral("(%1, %2): %3 instead of %4")
                                                    .arg(p.x())
                                                    .arg(p.y())
                                                    .arg(QColor(got).name(), c.name())));
        };
        expectAt(kTp, QColor(0x00, 0x9E, 0x73));
        expectAt(kFp, QColor(0xE6, 0x9F, 0x00));
        expectAt(kFn, QColor(0x00, 0x72, 0xB2));
        expectAt(QPoint(80, 60), QColor(90, 90, 90)); // the scan itself
        // A colour chosen in the legend reaches the layer at once.
        t->setColour(ComparisonSummary::FalsePositive, QColor(Qt::magenta));
        QCOMPARE(v->overlayStyle(t->layerIndex(ComparisonSummary::FalsePositive)).color,
                 QColor(Qt::magenta));
        expectAt(kFp, QColor(Qt::magenta));
        // Above the false alarm's value nothing is drawn there.
        t->setThreshold(181);
        expectAt(kFp, QColor(90, 90, 90));
    }

    void maskBesideTheScanAndPngTruth()
    {
        QTemporaryDir d;
        const QString scan = d.filePath(QStringLiteral("s.tif"));
        QVERIFY(QFile::copy(scan_, scan));
        QVERIFY(QFile::copy(mask_, d.filePath(QStringLiteral("s_mask.tif"))));
        InspectPane pane;
        QVERIFY(pane.openWithMap(scan, map_, 150).isOk());
        QCOMPARE(pane.truthPanel()->truthPath(), d.filePath(QStringLiteral("s_mask.tif")));
        QTRY_VERIFY(pane.comparison() != nullptr);
        QCOMPARE(pane.comparison()->at(150).falseNegatives, uint64_t(29));
        if (!hasImageCodecs())
            return;
        // A PNG truth: scored directly, shown through a TIFF copy.
        const QString png = d.filePath(QStringLiteral("truth.png"));
        const Image m = makeMask();
        QImage q(kW, kH, QImage::Format_Grayscale8);
        for (int y = 0; y < kH; ++y)
            std::copy_n(m.row(y), kW, q.scanLine(y));
        QVERIFY(q.save(png));
        QVERIFY(pane.attachTruth(png).isOk());
        QCOMPARE(pane.truthPanel()->truthPath(), png);
        QTRY_VERIFY(pane.truthPanel()->isTruthLayer(pane.viewer()->overlayCount() - 1));
        QVERIFY(pane.truthPanel()->compare(map_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        QCOMPARE(pane.comparison()->at(150).falseNegatives, uint64_t(29));
        QCOMPARE(QString::fromStdString(pane.comparison()->truthPath), png);
    }

    void compareNeedsTruthAndMap()
    {
        InspectPane pane;
        QVERIFY(pane.openScan(scan_).isOk());
        ui::TruthPanel* t = pane.truthPanel();
        QCOMPARE(t->compare(map_).code(), ErrorCode::InvalidArgument); // no truth
        QVERIFY(!t->message().isEmpty());
        QVERIFY(pane.attachTruth(mask_).isOk());
        QCOMPARE(t->compare(QString()).code(), ErrorCode::InvalidArgument); // no map
        // A second comparison replaces a running one; the last one's result stays.
        t->setTolerance(0);
        QVERIFY(t->compare(map_).isOk());
        t->setTolerance(3);
        QVERIFY(t->compare(map_).isOk());
        QTRY_VERIFY(t->comparison() != nullptr && !t->isRunning());
        QCOMPARE(t->comparison()->tolerance, 3);
        // Layers live in the cache; a new comparison replaces the old one's files.
        const QString oldLayer = QString::fromStdString(t->comparison()->tpPath);
        QVERIFY(
            oldLayer.startsWith(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)));
        QVERIFY(QFileInfo::exists(oldLayer));
        t->setTolerance(1);
        QVERIFY(t->compare(map_).isOk());
        QVERIFY(!QFileInfo::exists(oldLayer));
        QTRY_VERIFY(t->comparison() != nullptr);
        QCOMPARE(t->comparison()->tolerance, 1);
        QVERIFY(QFileInfo::exists(QString::fromStdString(t->comparison()->fnPath)));
    }

    void cancelLeavesNothing()
    {
        // Big enough for several bands, so the cancellation lands while it runs.
        QTemporaryDir d;
        const QString scan = d.filePath(QStringLiteral("big.tif")),
                      map = d.filePath(QStringLiteral("big.map.tif")),
                      mask = d.filePath(QStringLiteral("big_mask.tif"));
        Image m = Image::make(3000, 2100, 1);
        for (size_t i = 0; i < m.pixels.size(); i += 7)
            m.pixels[i] = uint8_t(i % 251);
        QVERIFY(writeTiff(scan.toStdString(), Image::make(3000, 2100, 1, 80)).isOk());
        QVERIFY(writeTiff(map.toStdString(), m).isOk());
        QVERIFY(writeTiff(mask.toStdString(), m).isOk());
        const QStringList before = layerFiles();
        InspectPane pane;
        ui::TruthPanel* t = pane.truthPanel();
        QSignalSpy finished(t, &ui::TruthPanel::comparisonFinished);
        QVERIFY(pane.openWithMap(scan, map, 128).isOk());
        QVERIFY(t->isRunning());
        QVERIFY(pane.findChild<QWidget*>(QStringLiteral("cancelComparisonButton"))->isVisibleTo(t));
        t->cancel();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).value<Status>().code(), ErrorCode::Cancelled);
        QVERIFY(pane.comparison() == nullptr);
        QCOMPARE(t->message(), ui::TruthPanel::tr("The comparison was cancelled."));
        QVERIFY(
            !pane.findChild<QWidget*>(QStringLiteral("cancelComparisonButton"))->isVisibleTo(t));
        QCOMPARE(pane.viewer()->overlayCount(), 2); // map and truth only
        QCOMPARE(layerFiles(), before);             // no layer of the cancelled comparison
    }

    void customColourLut()
    {
        OverlayStyle st;
        st.colorMap = ui::ColorMap::Custom;
        st.color = QColor(0x00, 0x72, 0xB2);
        st.opacity = 1.0;
        st.threshold = 10;
        QVector<QRgb> lut = ui::overlayLut(st);
        QCOMPARE(lut[9], QRgb(0));
        QCOMPARE(lut[10], qRgb(0x00, 0x72, 0xB2));
        QCOMPARE(lut[255], qRgb(0x00, 0x72, 0xB2));
        st.threshold = 256; // nothing shown
        lut = ui::overlayLut(st);
        QVERIFY(std::all_of(lut.begin(), lut.end(), [](QRgb c) { return c == 0; }));
    }

private:
    QTemporaryDir dir_;
    QString scan_, map_, mask_;
};

QTEST_MAIN(TstInspectTruth)
#include "tst_inspecttruth.moc"
