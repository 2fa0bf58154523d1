// The Inspect pane's ground-truth comparison: a small scan, map and mask with known counts.
#include <QDoubleSpinBox>
#include <QtTest>

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>

#include "common/languagemanager.h"
#include "common/statusmeta.h"
#include "fisura/image.h"
#include "fisura/score.h"
#include "fisura/threshold.h"
#include "inspect/comparisonsummary.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "inspect/truthpanel.h"
#include "viewer/tiledviewer.h"

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
        // The threshold reads as a crack probability: byte 150 is 0.588 (150/255 = 0.5882).
        QCOMPARE(valueText(pane, "comparisonThresholdValue"), l.toString(0.588));
        QCOMPARE(pane.comparison()->at(150).truePositives, c.truePositives);
        // Each number has its name beside it.
        auto* precision = pane.findChild<QLabel*>(QStringLiteral("precisionValue"));
        const QList<QLabel*> labels = pane.findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [precision](QLabel* l) {
            return l->buddy() == precision && l->text() == ComparisonSummary::tr("Precision");
        }));

        // Map, truth and the three comparison layers. Inspect opens on the map: truth and
        // comparison layers wait hidden; one click shows the comparison instead of the map.
        ui::TiledViewer* v = pane.viewer();
        QCOMPARE(v->overlayCount(), 5);
        QVERIFY(v->overlayStyle(0).visible);
        QVERIFY(!v->overlayStyle(1).visible);
        ui::TruthPanel* t = pane.truthPanel();
        for (int k = 0; k < 3; ++k)
            QVERIFY(!v->overlayStyle(t->layerIndex(ComparisonSummary::Kind(k))).visible);
        QVERIFY(!t->isComparisonShown());
        QPushButton* show = t->showComparisonButton();
        QVERIFY(show->isVisible() && show->isEnabled());
        QTest::mouseClick(show, Qt::LeftButton);
        QVERIFY(t->isComparisonShown());
        QVERIFY(!v->overlayStyle(0).visible);
        QVERIFY(!v->overlayStyle(1).visible);
        for (int k = 0; k < 3; ++k)
            QVERIFY(v->overlayStyle(t->layerIndex(ComparisonSummary::Kind(k))).visible);
        // And back to the map.
        QTest::mouseClick(show, Qt::LeftButton);
        QVERIFY(!t->isComparisonShown());
        QVERIFY(v->overlayStyle(0).visible);
        for (int k = 0; k < 3; ++k)
            QVERIFY(!v->overlayStyle(t->layerIndex(ComparisonSummary::Kind(k))).visible);
        QTest::mouseClick(show, Qt::LeftButton);
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

    // The layers Fisura names (Ground truth, True positives, ...) take the new language at a
    // live switch, in the viewer and in the layer list.
    void layerNamesFollowLanguage()
    {
        using ui::LanguageManager;
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 150, mask_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        ui::TiledViewer* v = pane.viewer();
        const int tp = pane.truthPanel()->layerIndex(ComparisonSummary::TruePositive);
        QCOMPARE(v->overlayName(tp), QStringLiteral("True positives"));
        const auto names = [v] {
            QStringList n;
            for (int i = 0; i < v->overlayCount(); ++i)
                n << v->overlayName(i);
            return n;
        };
        QVERIFY(names().contains(QStringLiteral("Ground truth")));
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        const QString spanishTp = ComparisonSummary::tr("True positives");
        QVERIFY(spanishTp != QStringLiteral("True positives")); // the translation is loaded
        QTRY_COMPARE(v->overlayName(tp), spanishTp);
        QVERIFY2(!names().contains(QStringLiteral("Ground truth")),
                 qPrintable(names().join(QStringLiteral(", "))));
        auto* list = pane.findChild<QListWidget*>(QStringLiteral("layerList"));
        QVERIFY(list);
        QVERIFY(!list->findItems(spanishTp, Qt::MatchExactly).isEmpty());
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        QTRY_COMPARE(v->overlayName(tp), QStringLiteral("True positives"));
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
        t->setComparisonShown(true);
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

    // A truth is read by what its bytes say: a PNG named .tif and a TIFF named .png both
    // attach, show and compare; a file that is no image is refused the same way under either
    // name.
    void misnamedTruthsAreReadByTheirBytes()
    {
        if (!hasImageCodecs())
            QSKIP("this build decodes TIFF only");
        QTemporaryDir d;
        const QString pngAsTif = d.filePath(QStringLiteral("truth-png.tif"));
        const Image m = makeMask();
        QImage q(kW, kH, QImage::Format_Grayscale8);
        for (int y = 0; y < kH; ++y)
            std::copy_n(m.row(y), kW, q.scanLine(y));
        QVERIFY(q.save(pngAsTif, "PNG"));
        const QString tiffAsPng = d.filePath(QStringLiteral("truth-tiff.png"));
        QVERIFY(QFile::copy(mask_, tiffAsPng));
        InspectPane pane;
        QVERIFY(pane.openWithMap(scan_, map_, 150).isOk());
        for (const QString& truth : {pngAsTif, tiffAsPng}) {
            QVERIFY2(pane.attachTruth(truth).isOk(), qPrintable(pane.truthPanel()->message()));
            QTRY_VERIFY(pane.truthPanel()->isTruthLayer(pane.viewer()->overlayCount() - 1));
            QVERIFY(pane.truthPanel()->compare(map_).isOk());
            QTRY_VERIFY(pane.comparison() != nullptr && !pane.truthPanel()->isRunning());
            QCOMPARE(QString::fromStdString(pane.comparison()->truthPath), truth);
            QCOMPARE(pane.comparison()->at(150).falseNegatives, uint64_t(29));
        }
        QStringList messages;
        for (const QString& name : {QStringLiteral("junk.tif"), QStringLiteral("junk.png")}) {
            QFile junk(d.filePath(name));
            QVERIFY(junk.open(QIODevice::WriteOnly));
            junk.write(QByteArray(300, 'z'));
            junk.close();
            QCOMPARE(pane.attachTruth(junk.fileName()).code(), ErrorCode::Corrupt);
            messages << pane.truthPanel()->message();
        }
        QVERIFY(!messages.front().isEmpty());
        QVERIFY(messages.front().contains(QStringLiteral("junk.tif"))); // it names the file
        QCOMPARE(QString(messages.front())
                     .replace(QStringLiteral("junk.tif"), QStringLiteral("junk.png")),
                 messages.back());
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

    // "Compare with the map" asks to see the comparison: its layers replace the map at once.
    void compareButtonShowsTheComparison()
    {
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 150, mask_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        QVERIFY(!pane.truthPanel()->isComparisonShown());
        QTest::mouseClick(pane.findChild<QPushButton*>(QStringLiteral("compareButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(pane.comparison() != nullptr && !pane.truthPanel()->isRunning());
        QVERIFY(pane.truthPanel()->isComparisonShown());
        QVERIFY(!pane.viewer()->overlayStyle(0).visible);
    }

    // One threshold: the measurement field shows the map layer's (it said 128 while the overlay
    // used 214 until Measure was pressed) and editing either one moves the other.
    void measurementShowsTheOverlaysThreshold()
    {
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 214).isOk());
        QDoubleSpinBox* measure = pane.measurePanel()->thresholdBox();
        // The field shows a crack probability; the layer keeps the map byte it stands for.
        auto byte = [measure] { return mapByteThreshold(measure->value()); };
        ui::TiledViewer* v = pane.viewer();
        QCOMPARE(v->overlayStyle(0).threshold, 214);
        QCOMPARE(byte(), 214);
        pane.layerList()->setCurrentRow(0);
        pane.thresholdSlider()->setValue(90);
        QCOMPARE(byte(), 90);
        measure->setValue(probabilityOfMapByte(170));
        QCOMPARE(v->overlayStyle(0).threshold, 170);
        QCOMPARE(pane.thresholdSlider()->value(), 170);
        // With a comparison the three agree as well.
        QVERIFY(pane.attachTruth(mask_).isOk());
        QVERIFY(pane.truthPanel()->compare(map_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        pane.truthPanel()->setThreshold(120);
        QCOMPARE(v->overlayStyle(0).threshold, 120);
        QCOMPARE(byte(), 120);
        measure->setValue(probabilityOfMapByte(140));
        QCOMPARE(pane.truthPanel()->threshold(), 140);
    }

    // The readout names what is drawn under the cursor: a map value below the threshold is
    // background, not "False positives 96"; hidden layers are not named at all.
    void readoutNamesOnlyWhatIsDrawn()
    {
        InspectPane pane;
        pane.resize(1000, 700);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openWithMap(scan_, map_, 150, mask_).isOk());
        QTRY_VERIFY(pane.comparison() != nullptr);
        ui::TruthPanel* t = pane.truthPanel();
        t->setComparisonShown(true);
        ui::TiledViewer* v = pane.viewer();
        QString last;
        connect(&pane, &ui::Pane::statusMessage, &pane, [&last](const QString& m) { last = m; });
        const auto hover = [&](QPoint p) {
            v->showAt(QPointF(p) + QPointF(0.5, 0.5), 8.0);
            QTRY_VERIFY(v->frameComplete());
            QTest::mouseMove(v, QPoint(3, 3)); // a move to a new place, so the next one counts
            last.clear();
            QTest::mouseMove(v, v->mapFromImage(QPointF(p) + QPointF(0.5, 0.5)).toPoint());
            QTRY_VERIFY(!last.isEmpty());
        };
        const QString fp = t->summary()->kindName(ComparisonSummary::FalsePositive);
        const QString tp = t->summary()->kindName(ComparisonSummary::TruePositive);
        // The crack pixel of value 100 below threshold 150: a missed crack, no false positive.
        hover(QPoint(45, 20));
        QVERIFY2(!last.contains(fp) && !last.contains(tp), qPrintable(last));
        // Plain background (map value 0): none of the comparison layers is named.
        hover(QPoint(80, 60));
        QVERIFY2(!last.contains(fp) && !last.contains(tp), qPrintable(last));
        // A false alarm of 180 is one.
        hover(kFp);
        QVERIFY2(last.contains(fp), qPrintable(last));
        // A hidden map layer is not named either (the comparison is in view).
        QVERIFY2(!last.contains(v->overlayName(0) + QLatin1Char(' ')), qPrintable(last));
    }

    // The readout belongs to Inspect: it leaves the status bar when the cursor leaves the scan
    // and when the pane is hidden.
    void readoutLeavesWithInspect()
    {
        QWidget window;
        auto* pane = new InspectPane(&window);
        pane->resize(800, 600);
        window.resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(pane->openScan(scan_).isOk());
        ui::TiledViewer* v = pane->viewer();
        v->showAt(QPointF(40, 30), 4.0);
        QTRY_VERIFY(v->frameComplete());
        QSignalSpy status(pane, &ui::Pane::statusMessage);
        QTest::mouseMove(v, v->rect().center());
        QTRY_VERIFY(!status.isEmpty() && status.last().at(0).toString().startsWith(
                                             ui::InspectPane::tr("x %1, y %2").left(2)));
        pane->hide();
        QVERIFY(!status.isEmpty());
        QCOMPARE(status.last().at(0).toString(), QString());
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
