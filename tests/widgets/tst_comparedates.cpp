// Inspect's Compare dates on a small generated pair with known truth: a textured surface with
// drawn cracks, and a later date rotated a few degrees, with other lighting and one new crack.
// The comparison runs in the background through the pane's action with injected file names; the
// totals, the change table and its zoom, the change layer, the later scan's layer and the swipe,
// the Spanish texts, the alignment failure message, a map of another size and cancelling (nothing
// left in the cache).
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>

#include <cmath>
#include <memory>

#include <opencv2/imgproc.hpp>

#include "../core/drawn_cracks.h"
#include "../core/image_mat.h"
#include "common/languagemanager.h"
#include "common/statusmeta.h"
#include "fisura/change.h"
#include "fisura/image.h"
#include "fisura/synth.h"
#include "inspect/compare/alignsettings.h"
#include "inspect/compare/changeoverlay.h"
#include "inspect/compare/changetable.h"
#include "inspect/compare/changetext.h"
#include "inspect/compare/comparedates.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "viewer/tiledviewer.h"

using namespace fisura;
using fisura::testing_mat::asMat;
using fisura::testing_mat::sceneTexture;
using fisura::testing_mat::toImage;
using fisura::ui::CompareDatesPanel;
using fisura::ui::InspectPane;

namespace
{
constexpr int kSize = 1024;
constexpr double kRotationDeg = 4;
// The crack only the later date shows (earlier-scan pixels).
const cv::Point2d kNewA(700, 250), kNewB(820, 330);

cv::Mat texture(uint64_t seed)
{
    cv::Mat t = sceneTexture(seed, kSize);
    if (t.empty())
        qFatal("synth failed");
    return t;
}

void drawCracks(cv::Mat& scan, cv::Mat& mask, bool later)
{
    mask = cv::Mat::zeros(scan.size(), CV_8UC1);
    const cv::Point2d cracks[][2] = {{{200, 200}, {330, 280}},
                                     {{250, 650}, {300, 800}},
                                     {{550, 550}, {680, 520}},
                                     {{750, 700}, {820, 850}}};
    for (const auto& c : cracks)
        test::bar(mask, c[0], c[1], 3);
    if (later)
        test::bar(mask, kNewA, kNewB, 3);
    cv::Mat dark = scan * 0.35;
    dark.copyTo(scan, mask);
}

/// The later date as its camera saw it: rotated about the centre, another exposure.
cv::Mat laterView(const cv::Mat& m, bool scan)
{
    const cv::Mat r =
        cv::getRotationMatrix2D(cv::Point2f(kSize / 2.f, kSize / 2.f), kRotationDeg, 1.0);
    cv::Mat out;
    cv::warpAffine(m, out, r, m.size(), cv::INTER_LINEAR, cv::BORDER_REFLECT);
    if (scan)
        out.convertTo(out, -1, 0.8, 25);
    return out;
}

void write(const QString& path, const cv::Mat& m)
{
    if (!writeTiff(path.toStdString(), toImage(m)))
        qFatal("cannot write %s", qPrintable(path));
}

bool isNewColour(QRgb c)
{
    const auto k = changeKindColour(ChangeKind::New);
    return std::abs(qRed(c) - k[0]) < 40 && std::abs(qGreen(c) - k[1]) < 40 &&
           std::abs(qBlue(c) - k[2]) < 40;
}

/// The change layer draws the new crack along its centre line in the new colour, and not its
/// box: the box's corners, away from the diagonal crack, show no new colour.
void checkDrawnAlongCentreLine(ui::TiledViewer& viewer, const CrackChange& c)
{
    QVERIFY(!c.lines.empty());
    const QImage shot = viewer.grab().toImage();
    const qreal dpr = shot.devicePixelRatio();
    const auto pixel = [&](QPointF p) {
        return shot.pixel(int(std::lround(p.x() * dpr)), int(std::lround(p.y() * dpr)));
    };
    int on = 0, all = 0;
    for (const auto& line : c.lines)
        for (const auto& p : line) {
            const QPointF q = viewer.mapFromImage(QPointF(p.x, p.y));
            if (!shot.rect().contains(q.toPoint()))
                continue;
            ++all;
            on += isNewColour(pixel(q));
        }
    QVERIFY(all >= 2);
    QVERIFY2(on >= 0.8 * all, qPrintable(QStringLiteral("%1 of %2").arg(on).arg(all)));
    const PixelBox& b = c.box;
    for (const QPointF corner : {QPointF(b.x, b.y + b.height), QPointF(b.x + b.width, b.y)}) {
        const QPointF q = viewer.mapFromImage(corner);
        for (int dy = -6; dy <= 6; ++dy)
            for (int dx = -6; dx <= 6; ++dx) {
                const QPointF at = q + QPointF(dx, dy);
                if (shot.rect().contains(at.toPoint()))
                    QVERIFY2(!isNewColour(pixel(at)),
                             qPrintable(QStringLiteral("new colour at the box corner %1,%2")
                                            .arg(at.x())
                                            .arg(at.y())));
            }
    }
}

int filesIn(const QString& folder)
{
    return int(QDir(folder).entryList(QDir::Files | QDir::Hidden).size());
}
} // namespace

class TstCompareDates : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void comparesTwoDates();
    void spanishTexts();
    void failureTexts_data();
    void failureTexts();
    void correctionFieldText();
    void georeferenceText();
    void compareAgainWithOtherSettings();
    void unrelatedScansFail();
    void mapOfAnotherSize();
    void cancelLeavesNothing_data();
    void cancelLeavesNothing();

private:
    /// Opens the earlier date in `pane` and compares it with `laterScan` / `laterMap`.
    CompareDatesPanel* compare(InspectPane& pane, const QString& laterScan, const QString& laterMap,
                               double pixelSizeMm = 0);

    QTemporaryDir dir_;
    QString before_, beforeMap_, after_, afterMap_, unrelated_, smallMap_;
    QStringList chooserStarts_;
};

void TstCompareDates::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    cv::Mat first = texture(7), firstMask, second = first.clone(), secondMask;
    drawCracks(first, firstMask, false);
    drawCracks(second, secondMask, true);
    before_ = dir_.filePath(QStringLiteral("before.tif"));
    beforeMap_ = dir_.filePath(QStringLiteral("before_map.tif"));
    after_ = dir_.filePath(QStringLiteral("after.tif"));
    afterMap_ = dir_.filePath(QStringLiteral("after_map.tif"));
    unrelated_ = dir_.filePath(QStringLiteral("unrelated.tif"));
    smallMap_ = dir_.filePath(QStringLiteral("small_map.tif"));
    write(before_, first);
    write(beforeMap_, firstMask);
    write(after_, laterView(second, true));
    write(afterMap_, laterView(secondMask, false));
    write(unrelated_, texture(99));
    write(smallMap_, cv::Mat::zeros(kSize / 2, kSize / 2, CV_8UC1));
}

void TstCompareDates::init()
{
    ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::English);
    QDir(CompareDatesPanel::cacheFolder()).removeRecursively();
    chooserStarts_.clear();
}

CompareDatesPanel* TstCompareDates::compare(InspectPane& pane, const QString& laterScan,
                                            const QString& laterMap, double pixelSizeMm)
{
    pane.resize(1280, 720); // the laptop screen the screenshots are looked at on
    pane.show();
    if (!pane.openWithMap(before_, beforeMap_, 128))
        return nullptr;
    // The comparison measures with the measurement section's settings.
    if (pixelSizeMm > 0)
        pane.measurePanel()->pixelSizeBox()->setValue(pixelSizeMm);
    CompareDatesPanel* panel = pane.compareDates();
    panel->setFileChooser([=](bool map, const QString& start) {
        chooserStarts_ << start;
        return map ? laterMap : laterScan;
    });
    pane.compareDatesAction()->trigger();
    return panel;
}

void TstCompareDates::comparesTwoDates()
{
    InspectPane pane;
    CompareDatesPanel* panel = compare(pane, after_, afterMap_);
    QVERIFY(panel);
    QSignalSpy done(panel, &CompareDatesPanel::finished);
    QVERIFY(panel->isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    QVERIFY2(done.at(0).at(0).value<Status>().isOk(), qPrintable(panel->message()));
    // The dialogs open in the earlier scan's folder.
    QCOMPARE(chooserStarts_.value(0), QFileInfo(before_).absolutePath());

    const auto r = panel->result();
    QVERIFY(r);
    QVERIFY(r->totals[size_t(ChangeKind::New)].count >= 1);
    QVERIFY(r->totals[size_t(ChangeKind::Unchanged)].count >= 3);
    // The new crack is found as new where it was drawn.
    const cv::Point2d mid = (kNewA + kNewB) / 2;
    int newIndex = -1;
    for (size_t i = 0; i < r->changes.size(); ++i) {
        const PixelBox& b = r->changes[i].box;
        if (r->changes[i].kind == ChangeKind::New && mid.x >= b.x - 4 &&
            mid.x <= b.x + b.width + 4 && mid.y >= b.y - 4 && mid.y <= b.y + b.height + 4)
            newIndex = int(i);
    }
    QVERIFY(newIndex >= 0);
    auto* summary = panel->findChild<QLabel*>(QStringLiteral("compareDatesSummary"));
    QVERIFY(summary->text().contains(QStringLiteral("New: ")));
    QVERIFY(summary->text().contains(QStringLiteral("Aligned (")));

    // One row per change; clicking the new crack's row zooms to it.
    QTableView* view = panel->table()->view();
    QCOMPARE(view->model()->rowCount(), int(r->changes.size()));
    int row = -1;
    for (int i = 0; i < view->model()->rowCount(); ++i)
        if (view->model()->index(i, 0).data().toString() == QString::number(newIndex + 1))
            row = i;
    QVERIFY(row >= 0);
    const double zoomBefore = pane.viewer()->zoom();
    view->setCurrentIndex(view->model()->index(row, 1));
    QVERIFY(pane.viewer()->zoom() > zoomBefore);
    const QPointF centre = pane.viewer()->viewportRect().center();
    QVERIFY2(std::abs(centre.x() - mid.x) < 40 && std::abs(centre.y() - mid.y) < 40,
             qPrintable(QStringLiteral("%1,%2").arg(centre.x()).arg(centre.y())));
    auto* overlay = pane.viewer()->findChild<ui::ChangeOverlay*>(QStringLiteral("changeOverlay"));
    QVERIFY(overlay && overlay->hasResult());
    QCOMPARE(overlay->selected(), newIndex);
    checkDrawnAlongCentreLine(*pane.viewer(), r->changes[size_t(newIndex)]);
    panel->showChangesBox()->setChecked(false);
    QVERIFY(!overlay->isShown());
    panel->showChangesBox()->setChecked(true);

    // The later scan is a layer on the earlier grid, and the swipe shows earlier vs later.
    const int later = panel->laterScanLayer();
    QVERIFY(later >= 0);
    QCOMPARE(pane.viewer()->overlayStyle(later).colorMap, ui::ColorMap::Grey);
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 2);
    // Hidden (it would cover the earlier scan) until the swipe shows it beside the earlier map.
    QVERIFY(!pane.viewer()->overlayStyle(later).visible);
    QVERIFY(!pane.viewer()->swipeEnabled());
    panel->swipeButton()->click();
    QVERIFY(pane.viewer()->swipeEnabled());
    QVERIFY(pane.viewer()->overlayStyle(later).visible);
    QVERIFY(pane.compareAction()->isChecked());

    QVERIFY(pane.grab().save(QStringLiteral(FISURA_BUILD_DIR "/comparedates.png")));
    QVERIFY(panel->grab().save(QStringLiteral(FISURA_BUILD_DIR "/comparedates_panel.png")));

    // A new scan forgets the comparison and its files.
    QVERIFY(pane.openScan(after_));
    QCOMPARE(panel->laterScanLayer(), -1);
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 0);
}

void TstCompareDates::spanishTexts()
{
    auto owner = std::make_unique<InspectPane>();
    InspectPane& pane = *owner;
    CompareDatesPanel* panel = compare(pane, after_, afterMap_, 0.1);
    QVERIFY(panel);
    QTRY_VERIFY_WITH_TIMEOUT(panel->result(), 120000);
    QCOMPARE(panel->result()->before.pixelSizeMm, 0.1);
    ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::Spanish);
    // The language change is posted to every widget.
    QTRY_COMPARE(pane.compareDatesAction()->text(), QStringLiteral("Comparar fechas…"));
    QCOMPARE(panel->title(), QStringLiteral("Comparar fechas"));
    QCOMPARE(panel->table()->view()->model()->headerData(1, Qt::Horizontal).toString(),
             QStringLiteral("Cambio"));
    const QString summary =
        panel->findChild<QLabel*>(QStringLiteral("compareDatesSummary"))->text();
    QVERIFY2(summary.contains(QStringLiteral("Nueva: ")), qPrintable(summary));
    // Lengths in mm and the residual with a decimal comma.
    QVERIFY2(summary.contains(QRegularExpression(QStringLiteral("Nueva: 1 \\(\\d+,\\d mm\\)"))),
             qPrintable(summary));
    // Every row in mm, the layer's name in Spanish too.
    for (int row = 0; row < panel->table()->view()->model()->rowCount(); ++row)
        for (int column : {2, 3, 4})
            QVERIFY2(
                QRegularExpression(QStringLiteral("^[+\u2212]?\\d+,\\d+ mm$"))
                    .match(panel->table()->view()->model()->index(row, column).data().toString())
                    .hasMatch(),
                qPrintable(panel->table()->view()->model()->index(row, column).data().toString()));
    QCOMPARE(pane.viewer()->overlayName(panel->laterScanLayer()),
             QStringLiteral("Escaneo posterior (alineado, en gris)"));
    QVERIFY2(summary.contains(QRegularExpression(QStringLiteral("residuo \\d+,\\d\\d px"))),
             qPrintable(summary));
    // The layouts the longer Spanish texts asked for, as a person would see them.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY(pane.grab().save(QStringLiteral(FISURA_BUILD_DIR "/comparedates_es.png")));
    QVERIFY(panel->grab().save(QStringLiteral(FISURA_BUILD_DIR "/comparedates_panel_es.png")));
    // Closing the pane leaves nothing in the cache.
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 2);
    owner.reset();
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 0);
}

void TstCompareDates::failureTexts_data()
{
    QTest::addColumn<Status>("status");
    QTest::addColumn<QString>("english");
    QTest::addColumn<QString>("spanish");
    const auto code = [](ErrorCode c) { return Status(c, "3 inliers"); };
    QTest::newRow("cancelled") << Status(ErrorCode::Cancelled, "x") << "Comparison cancelled."
                               << "Comparación cancelada.";
    QTest::newRow("unsupported") << Status(ErrorCode::Unsupported, "no features2d")
                                 << "This build of Fisura cannot align"
                                 << "Esta compilación de Fisura no puede alinear";
    QTest::newRow("not same surface")
        << code(ErrorCode::AlignNotSameSurface)
        << "The scans could not be aligned: they do not seem to show the same surface. Choose a "
           "later scan of this surface.\n3 inliers"
        << "No se pudieron alinear los escaneos: no parecen mostrar la misma superficie. Elija un "
           "escaneo posterior de esta superficie.\n3 inliers";
    QTest::newRow("too few windows")
        << code(ErrorCode::AlignTooFewWindows) << "The scans match roughly, but too few details"
        << "Los escaneos coinciden a grandes rasgos, pero";
    QTest::newRow("no overlap") << code(ErrorCode::AlignNoOverlap)
                                << "The later scan hardly overlaps"
                                << "El escaneo posterior apenas se solapa";
    QTest::newRow("degenerate model")
        << code(ErrorCode::AlignDegenerateModel) << "The alignment found an implausible"
        << "La alineación dio una escala";
    QTest::newRow("scan too small")
        << code(ErrorCode::AlignScanTooSmall)
        << "A scan is too small to align. Choose scans of at least 64 × 64 pixels."
        << "Un escaneo es demasiado pequeño para alinearlo. Elija escaneos de al menos 64 × 64 "
           "píxeles.";
    QTest::newRow("map size") << code(ErrorCode::MapSizeMismatch)
                              << "The crack map is not the size of its scan. Choose the crack map"
                              << "El mapa de fisuras no tiene el tamaño de su escaneo. Elija el";
}

void TstCompareDates::failureTexts()
{
    QFETCH(Status, status);
    QFETCH(QString, english);
    QFETCH(QString, spanish);
    QVERIFY2(ui::ChangeText::failure(status).startsWith(english),
             qPrintable(ui::ChangeText::failure(status)));
    ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::Spanish);
    QVERIFY2(ui::ChangeText::failure(status).startsWith(spanish),
             qPrintable(ui::ChangeText::failure(status)));
}

void TstCompareDates::correctionFieldText()
{
    AlignResult a;
    QVERIFY(!ui::ChangeText::alignment(a).contains(QStringLiteral("correction field")));
    a.field.used = true;
    a.field.maxPx = 4.25;
    a.field.rmsBeforePx = 3.1;
    a.field.rmsAfterPx = 0.42;
    const QString en = ui::ChangeText::alignment(a);
    QVERIFY2(en.contains(QStringLiteral("With correction field")) &&
                 en.contains(QStringLiteral("largest correction 4.3 px")) &&
                 en.contains(QStringLiteral("3.10 px without the field, 0.42 px with it")),
             qPrintable(en));
    ChangeResult r;
    r.alignment = a;
    QVERIFY(ui::ChangeText::summary(r).contains(QStringLiteral("<br>With correction field")));
    ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::Spanish);
    const QString es = ui::ChangeText::alignment(a);
    QVERIFY2(es.contains(QStringLiteral("campo de corrección")) &&
                 es.contains(QStringLiteral("4,3 px")) && es.contains(QStringLiteral("0,42 px")),
             qPrintable(es));
}

void TstCompareDates::georeferenceText()
{
    AlignResult a;
    QVERIFY(ui::ChangeText::georeference(a).isEmpty()); // not georeferenced: nothing said
    a.start = AlignStart::Georeference;
    a.georeferenceOffsetPx = 12.5;
    a.georeferenceUnitsPerPx = 0.01;
    const QString en = ui::ChangeText::alignment(a);
    QVERIFY2(en.contains(QStringLiteral("\nStarted from the georeference")) &&
                 en.contains(QStringLiteral("12.5 px (0.125 map units)")),
             qPrintable(en));
    a.start = AlignStart::GeoreferenceRefuted;
    QVERIFY(ui::ChangeText::georeference(a).startsWith(QStringLiteral("The georeference was not")));
    a.start = AlignStart::GeoreferenceOtherCrs;
    a.georeferenceOffsetPx = -1;
    QVERIFY(ui::ChangeText::georeference(a).contains(QStringLiteral("coordinate systems")));
    QVERIFY(!ui::ChangeText::georeference(a).contains(QStringLiteral("placed")));
    ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::Spanish);
    a.start = AlignStart::Georeference;
    a.georeferenceOffsetPx = 12.5;
    const QString es = ui::ChangeText::georeference(a);
    QVERIFY2(es.contains(QStringLiteral("georreferencia")) &&
                 es.contains(QStringLiteral("12,5 px (0,125 ")),
             qPrintable(es));
}

void TstCompareDates::compareAgainWithOtherSettings()
{
    InspectPane pane;
    ui::AlignSettings* settings = pane.compareDates()->alignSettings();
    // The controls start at the option schema's defaults.
    const AlignOptions defaults;
    QCOMPARE(int(settings->options().model), int(defaults.model));
    QCOMPARE(int(settings->options().field), int(defaults.field));
    QCOMPARE(int(settings->options().georeference), int(defaults.georeference));
    CompareDatesPanel* panel = compare(pane, after_, afterMap_);
    QVERIFY(panel);
    QSignalSpy done(panel, &CompareDatesPanel::finished);
    QVERIFY(settings->isHidden()); // not while it runs
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    QVERIFY(done.at(0).at(0).value<Status>().isOk());
    QVERIFY(settings->isVisible());
    QVERIFY(settings->againButton()->isEnabled());
    QVERIFY(panel->result()->alignment.field.rmsBeforePx >= 0); // the field was fitted (auto)
    QVERIFY(!settings->modelBox()->toolTip().isEmpty());

    // Homography, no correction field: the same two dates again with them.
    settings->modelBox()->setCurrentIndex(
        settings->modelBox()->findData(int(AlignModel::Homography)));
    settings->fieldBox()->setChecked(false);
    settings->againButton()->click();
    QVERIFY(panel->isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 2, 120000);
    QVERIFY2(done.at(1).at(0).value<Status>().isOk(), qPrintable(panel->message()));
    QCOMPARE(panel->result()->alignment.model, AlignModel::Homography);
    QCOMPARE(panel->result()->alignment.field.rmsBeforePx, -1.0); // off: not even fitted
    QVERIFY(panel->result()->totals[size_t(ChangeKind::New)].count >= 1);
    // The first comparison's files went with it.
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 2);
    QVERIFY(panel->laterScanLayer() >= 0);

    // A new scan forgets what was compared: nothing to compare again.
    QVERIFY(pane.openScan(after_));
    QCOMPARE(panel->compareAgain().code(), ErrorCode::InvalidArgument);
    QVERIFY(!settings->againButton()->isEnabled());
}

void TstCompareDates::unrelatedScansFail()
{
    InspectPane pane;
    CompareDatesPanel* panel = compare(pane, unrelated_, afterMap_);
    QVERIFY(panel);
    QSignalSpy done(panel, &CompareDatesPanel::finished);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
    const Status s = done.at(0).at(0).value<Status>();
    QCOMPARE(s.code(), ErrorCode::AlignNotSameSurface);
    QVERIFY2(panel->message().startsWith(QStringLiteral("The scans could not be aligned")),
             qPrintable(panel->message()));
    QVERIFY(!panel->result());
    QCOMPARE(panel->laterScanLayer(), -1);
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 0);
    // Other settings may align it: compare again stays at hand.
    QVERIFY(panel->alignSettings()->againButton()->isEnabled());
    ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::Spanish);
    QTRY_VERIFY2(panel->message().startsWith(QStringLiteral("No se pudieron alinear")),
                 qPrintable(panel->message()));
}

void TstCompareDates::mapOfAnotherSize()
{
    InspectPane pane;
    CompareDatesPanel* panel = compare(pane, after_, smallMap_);
    QVERIFY(panel);
    QVERIFY(!panel->isRunning());
    QVERIFY2(panel->message().contains(QStringLiteral("512 × 512 px")),
             qPrintable(panel->message()));
    QVERIFY(!QDir(CompareDatesPanel::cacheFolder()).exists() ||
            filesIn(CompareDatesPanel::cacheFolder()) == 0);
}

void TstCompareDates::cancelLeavesNothing_data()
{
    QTest::addColumn<int>("atProgress");
    QTest::newRow("while aligning") << 0;
    // Both warped files are written by then.
    QTest::newRow("while comparing") << 750;
}

void TstCompareDates::cancelLeavesNothing()
{
    QFETCH(int, atProgress);
    InspectPane pane;
    pane.resize(1200, 800);
    pane.show();
    QVERIFY(pane.openWithMap(before_, beforeMap_, 128));
    CompareDatesPanel* panel = pane.compareDates();
    QSignalSpy done(panel, &CompareDatesPanel::finished);
    auto* bar = panel->findChild<QProgressBar*>(QStringLiteral("compareDatesProgress"));
    QVERIFY(bar);
    QString messageAtCancel;
    connect(bar, &QProgressBar::valueChanged, panel, [&](int v) {
        if (atProgress > 0 && v >= atProgress && panel->isRunning() && messageAtCancel.isEmpty()) {
            panel->cancelButton()->click();
            messageAtCancel = panel->message(); // at once, before the job has stopped
        }
    });
    QVERIFY(panel->start(beforeMap_, after_, afterMap_, pane.measurePanel()->options()));
    if (atProgress == 0) {
        panel->cancelButton()->click();
        messageAtCancel = panel->message();
    }
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);
    QCOMPARE(messageAtCancel, QStringLiteral("Comparison cancelled."));
    QCOMPARE(done.at(0).at(0).value<Status>().code(), ErrorCode::Cancelled);
    QVERIFY(!panel->isRunning());
    QVERIFY(!panel->result());
    QCOMPARE(panel->laterScanLayer(), -1);
    QCOMPARE(panel->message(), QStringLiteral("Comparison cancelled."));
    QCOMPARE(filesIn(CompareDatesPanel::cacheFolder()), 0);
}

QTEST_MAIN(TstCompareDates)
#include "tst_comparedates.moc"
