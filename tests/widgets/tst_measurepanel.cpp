// Crack measurement in the Inspect pane: a scan and a map with four drawn cracks of known
// width class (measure_fixture.h), measured in the background; the table, filters, plots, zoom
// to a crack, the hover highlight, the ruler, the width-class layer, errors and cancelling. The
// exports are tst_measureexport's.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>

#include "common/languagemanager.h"
#include "common/statusmeta.h"
#include "fisura/image.h"
#include "fisura/measure.h"
#include "fisura/measuremap.h"
#include "fisura/threshold.h"
#include "inspect/classpresetbox.h"
#include "inspect/crackoverlay.h"
#include "inspect/cracktable.h"
#include "inspect/cracktablemodel.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "inspect/measureplots.h"
#include "inspect/measuretext.h"
#include "inspect/report.h"
#include "viewer/tiledviewer.h"
#include "viewer/viewerruler.h"

#include "measure_fixture.h"

using namespace fisura;
using namespace fisura::test;
using fisura::ui::CrackTableModel;
using fisura::ui::InspectPane;
using fisura::ui::MeasurePanel;

class TstMeasurePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY(writeScanAndMap(dir_.path(), scan_, map_));
    }

    void init()
    {
        ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language::English);
    }

    void measuresLikeCore()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        QCOMPARE(panel->pixelSizeBox()->value(), kPixelMm); // from the scan's tags
        pane.measureAction()->trigger();
        QVERIFY(panel->isRunning());
        QVERIFY(measured(panel).isOk());
        auto core = measureCracks(map_.toStdString(), panel->options());
        QVERIFY(core.isOk());
        QCOMPARE(core->cracks.size(), size_t(4));
        const MeasureResult& r = *panel->result();
        QCOMPARE(r.cracks.size(), core->cracks.size());
        for (size_t i = 0; i < r.cracks.size(); ++i) {
            QCOMPARE(r.cracks[i].lengthPx, core->cracks[i].lengthPx);
            QCOMPARE(r.cracks[i].widthClass, core->cracks[i].widthClass);
        }
        // One crack in each class, as drawn.
        QList<int> classes;
        for (const Crack& c : r.cracks)
            classes << c.widthClass;
        std::sort(classes.begin(), classes.end());
        QCOMPARE(classes, QList<int>({0, 1, 2, 3}));
        QVERIFY(pane.measurePanel()->resultsView()->isVisible());
        auto* note = pane.findChild<QLabel*>(QStringLiteral("measureClassNote"));
        QVERIFY(note && note->text() == ui::MeasureText::classNote());

        ui::CrackTable* table = panel->table();
        QCOMPARE(table->view()->model()->rowCount(), 4);
        // Sorting by length, longest first.
        table->view()->sortByColumn(CrackTableModel::Length, Qt::DescendingOrder);
        double longest = 0;
        for (const Crack& c : r.cracks)
            longest = std::max(longest, c.lengthMm);
        const auto* view = table->view()->model();
        QCOMPARE(view->index(0, CrackTableModel::Length).data(CrackTableModel::SortRole).toDouble(),
                 longest);
        for (int row = 1; row < 4; ++row)
            QVERIFY(view->index(row - 1, CrackTableModel::Length)
                        .data(CrackTableModel::SortRole)
                        .toDouble() >= view->index(row, CrackTableModel::Length)
                                           .data(CrackTableModel::SortRole)
                                           .toDouble());
        QCOMPARE(view->headerData(CrackTableModel::Length, Qt::Horizontal).toString(),
                 CrackTableModel::tr("Length (%1)").arg(CrackTableModel::tr("mm")));
        // Filters: class, then minimum length and width.
        table->classFilter()->setCurrentIndex(1 + 3); // wide
        QCOMPARE(view->rowCount(), 1);
        QCOMPARE(view->index(0, CrackTableModel::Class).data().toString(),
                 ui::MeasureText::className("wide"));
        table->classFilter()->setCurrentIndex(0);
        QCOMPARE(view->rowCount(), 4);
        table->minWidth()->setValue(0.15); // hides the hairline
        QCOMPARE(view->rowCount(), 3);
        table->minLength()->setValue(1000);
        QCOMPARE(view->rowCount(), 0);
        table->minLength()->setValue(0);
        table->minWidth()->setValue(0);

        // Plots: the histogram up to the widest bin, one bar per class.
        size_t last = r.widthHistogram.size();
        while (last > 0 && r.widthHistogram[last - 1] == 0)
            --last;
        const size_t join = std::max<size_t>(1, (last + 39) / 40);
        QCOMPARE(panel->plots()->histogramBars(), int((last + join - 1) / join));
        QCOMPARE(panel->plots()->classBars(), 4);
        if (qEnvironmentVariableIsSet("FISURA_KEEP_REPORTS")) { // a look at the layout
            table->selectCrack(r.cracks[2].id);
            pane.grab().save(qEnvironmentVariable("FISURA_KEEP_REPORTS") +
                             QStringLiteral("/pane-table.png"));
            panel->resultsView()->setCurrentIndex(1);
            pane.grab().save(qEnvironmentVariable("FISURA_KEEP_REPORTS") +
                             QStringLiteral("/pane-plots.png"));
        }
    }

    // The threshold reads as a crack probability: the layer's byte 150 is 0.588 (150/255 is
    // 0.5882), which measures at that byte again; the report says so too.
    void thresholdIsAProbability()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        QVERIFY(pane.openWithMap(scan_, map_, 150).isOk());
        MeasurePanel* panel = pane.measurePanel();
        // One threshold: the field shows the overlay's before anything is measured.
        QCOMPARE(panel->thresholdBox()->value(), 0.588);
        pane.measureCracks();
        QCOMPARE(panel->thresholdBox()->value(), 0.588);
        QCOMPARE(mapByteThreshold(panel->options().threshold), 150);
        QVERIFY(measured(panel).isOk());
        QCOMPARE(panel->result()->options.threshold, 0.588);
        ui::ReportInput in;
        in.result = panel->result();
        QVERIFY(ui::MeasureReport::html(in).contains(QStringLiteral("crack probability 0.588")));
        QVERIFY(panel->thresholdBox()->minimum() > 0); // 0 would make the whole map one crack
        QCOMPARE(panel->thresholdBox()->maximum(), 1.0);
    }

    void pixelSizeFromTagsOrUser()
    {
        InspectPane pane;
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        pane.measureCracks();
        QVERIFY(measured(panel).isOk());
        QCOMPARE(panel->result()->pixelSizeSource, std::string("scan"));
        const double lengthMm = panel->result()->totals.lengthMm;
        // Entered by hand: twice the pixel size, twice the length.
        panel->pixelSizeBox()->setValue(2 * kPixelMm);
        pane.measureCracks();
        QVERIFY(measured(panel).isOk());
        QCOMPARE(panel->result()->pixelSizeSource, std::string("option"));
        QCOMPARE(panel->result()->totals.lengthMm, 2 * lengthMm);
        // The next scan brings its own value back.
        QVERIFY(pane.openScan(scan_).isOk());
        QCOMPARE(panel->pixelSizeBox()->value(), kPixelMm);
        QVERIFY(!panel->result());
    }

    void rowZoomsAndHoverHighlights()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        pane.measureCracks();
        QVERIFY(measured(pane.measurePanel()).isOk());
        const MeasureResult& r = *pane.measurePanel()->result();
        ui::TiledViewer* v = pane.viewer();
        const double fit = v->fitZoom();
        // The smallest crack: the view zooms in until it fills it.
        const Crack* small = &r.cracks[0];
        for (const Crack& c : r.cracks)
            if (c.box.width * c.box.height < small->box.width * small->box.height)
                small = &c;
        pane.measurePanel()->table()->selectCrack(small->id);
        QCOMPARE(pane.measurePanel()->crackOverlay()->selected(), small->id);
        const QRectF box(small->box.x, small->box.y, small->box.width, small->box.height);
        QVERIFY2(v->viewportRect().contains(box), "the crack is in view");
        QVERIFY(v->zoom() > fit);

        // Hovering a crack in the viewer marks its row.
        v->fitToWindow();
        const Crack& hovered = r.cracks.back();
        const QPointF at = v->mapFromImage(QPointF(hovered.centroidX, hovered.centroidY));
        QMouseEvent move(QEvent::MouseMove, at, v->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QCoreApplication::sendEvent(v, &move);
        QCOMPARE(pane.measurePanel()->table()->highlighted(), hovered.id);
        const int row = pane.measurePanel()->table()->model()->rowOfCrack(hovered.id);
        QVERIFY(pane.measurePanel()
                    ->table()
                    ->model()
                    ->index(row, 0)
                    .data(Qt::BackgroundRole)
                    .isValid());
        const QPointF away = v->mapFromImage(QPointF(5, 290));
        QMouseEvent off(QEvent::MouseMove, away, v->mapToGlobal(away), Qt::NoButton, Qt::NoButton,
                        Qt::NoModifier);
        QCoreApplication::sendEvent(v, &off);
        QCOMPARE(pane.measurePanel()->table()->highlighted(), -1);
    }

    // Compare and Ruler need a scan (Compare two layers): without, they are off and say why;
    // they toggled with nothing to show before.
    void compareAndRulerWaitForAScan()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        pane.show();
        QVERIFY(!pane.rulerAction()->isEnabled());
        QVERIFY(!pane.compareAction()->isEnabled());
        QVERIFY(pane.rulerAction()->toolTip().contains(QStringLiteral("Open a scan first")));
        QVERIFY(pane.compareAction()->toolTip().contains(QStringLiteral("Open a scan first")));
        pane.rulerAction()->trigger();
        QVERIFY(!pane.ruler()->isActive());
        QVERIFY(!pane.rulerAction()->isChecked());
        QVERIFY(pane.openScan(scan_).isOk());
        QVERIFY(pane.rulerAction()->isEnabled());
        QVERIFY(pane.rulerAction()->toolTip().contains(QStringLiteral("millimetres")));
        QCOMPARE(pane.compareAction()->isEnabled(), pane.viewer()->overlayCount() >= 2);
        while (pane.viewer()->overlayCount() < 2)
            QVERIFY(pane.addOverlay(map_).isOk());
        QVERIFY(pane.compareAction()->isEnabled());
        QVERIFY(pane.compareAction()->toolTip().contains(QStringLiteral("divider")));
    }

    void rulerShowsMillimetres()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        pane.show();
        QVERIFY(pane.openScan(scan_).isOk());
        ui::TiledViewer* v = pane.viewer();
        v->showAt(QPointF(200, 150), 2.0);
        pane.rulerAction()->trigger();
        QVERIFY(pane.ruler()->isActive());
        const QPointF centre = v->viewportRect().center();
        const QPointF a = v->mapFromImage(centre - QPointF(50, 0));
        // 300 screen px at zoom 2: 150 scan px of 0.05 mm.
        QTest::mousePress(v, Qt::LeftButton, {}, a.toPoint());
        QTest::mouseMove(v, a.toPoint() + QPoint(150, 0));
        QTest::mouseRelease(v, Qt::LeftButton, {}, a.toPoint() + QPoint(300, 0));
        QCOMPARE(pane.ruler()->lengthPx(), 150.0);
        QCOMPARE(pane.ruler()->lengthMm(), 150 * kPixelMm);
        QCOMPARE(pane.ruler()->text(),
                 ui::ViewerRuler::tr("%1 mm").arg(QLocale().toString(7.5, 'f', 2)));
        QCOMPARE(v->viewportRect().center(), centre); // the view did not pan
        pane.rulerAction()->trigger();
        QVERIFY(!pane.ruler()->isActive());
    }

    void classLayerColoursWholeCracks()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        pane.measureCracks();
        QVERIFY(measured(pane.measurePanel()).isOk());
        const int before = pane.viewer()->overlayCount();
        pane.measurePanel()->classOverlayBox()->setChecked(true);
        QTRY_COMPARE(pane.viewer()->overlayCount(), before + 1);
        const QString path = pane.viewer()->overlayPath(before);
        QCOMPARE(pane.viewer()->overlayStyle(before).colorMap, ui::ColorMap::WidthClasses);
        auto classes = readImage(path.toStdString());
        QVERIFY(classes.isOk());
        QCOMPARE(int(classes->row(40)[100]), classMapCode(0, 4));  // hairline
        QCOMPARE(int(classes->row(80)[301]), classMapCode(1, 4));  // fine
        QCOMPARE(int(classes->row(205)[60]), classMapCode(2, 4));  // medium
        QCOMPARE(int(classes->row(240)[300]), classMapCode(3, 4)); // wide
        QCOMPARE(int(classes->row(150)[200]), 0);
        if (qEnvironmentVariableIsSet("FISURA_KEEP_REPORTS")) { // a look at the layer and panel
            pane.show();
            pane.viewer()->fitToWindow();
            QTRY_VERIFY(pane.viewer()->frameComplete());
            pane.viewer()->snapshot().save(qEnvironmentVariable("FISURA_KEEP_REPORTS") +
                                           QStringLiteral("/classes.png"));
            pane.measurePanel()->grab().save(qEnvironmentVariable("FISURA_KEEP_REPORTS") +
                                             QStringLiteral("/panel.png"));
        }
        pane.measurePanel()->classOverlayBox()->setChecked(false);
        QCOMPARE(pane.viewer()->overlayCount(), before);
    }

    void classMapNeedsPixelSize()
    {
        MeasureOptions o;
        auto r = measureCracks(map_.toStdString(), o); // the map has no resolution tags
        QVERIFY(r.isOk());
        QCOMPARE(writeClassMap(*r, dir_.filePath(QStringLiteral("x.tif")).toStdString()).code(),
                 ErrorCode::InvalidArgument);
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("x.tif"))));
    }

    // A standard's preset: the options carry it, its source shows under the list in the
    // language's notation, the table and the report flag the cracks over its tolerable width
    // (0.30 mm: the medium and wide cracks), and Fisura's classes bring the limits back.
    void standardFlagsCracks_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("tolerable");
        QTest::newRow("en") << int(ui::LanguageManager::Language::English) << "0.30 mm";
        QTest::newRow("es") << int(ui::LanguageManager::Language::Spanish) << "0,30 mm";
    }
    void standardFlagsCracks()
    {
        QFETCH(int, language);
        QFETCH(QString, tolerable);
        ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language(language));
        InspectPane pane;
        pane.resize(1100, 800);
        pane.show();
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        auto* presets = pane.findChild<QComboBox*>(QStringLiteral("measureClassPreset"));
        auto* source = pane.findChild<QLabel*>(QStringLiteral("measureClassSource"));
        QVERIFY(presets && source);
        QCOMPARE(presets->count(), int(widthClassPresets().size()) + 1); // and custom
        QCOMPARE(panel->options().classes.preset, std::string("default"));
        const int humid = presets->findData(QStringLiteral("aci224r-humid"));
        QVERIFY(humid > 0);
        presets->setCurrentIndex(humid);
        QCOMPARE(panel->options().classes.preset, std::string("aci224r-humid"));
        QCOMPARE(panel->options().classes.tolerableMm, 0.30);
        QVERIFY(!panel->classLimitBox(0)->isVisible()); // one tolerable width, named below
        QVERIFY2(source->text().contains(QStringLiteral("ACI 224R-01")),
                 qPrintable(source->text()));
        QVERIFY2(source->text().contains(tolerable), qPrintable(source->text()));
        const bool es = language == int(ui::LanguageManager::Language::Spanish);
        QVERIFY2(
            source->text().contains(es ? QStringLiteral("humedad") : QStringLiteral("humidity")),
            qPrintable(source->text()));

        pane.measureCracks();
        QVERIFY(measured(panel).isOk());
        QCOMPARE(panel->result()->flaggedCracks, 2);
        const auto* view = panel->table()->view();
        QVERIFY(!view->isColumnHidden(CrackTableModel::OverLimit));
        int flagged = 0;
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            const QModelIndex i = view->model()->index(row, CrackTableModel::OverLimit);
            const int k = i.data(CrackTableModel::IndexRole).toInt();
            const Crack& c = panel->result()->cracks[size_t(k)];
            QCOMPARE(c.exceedsLimit, c.width.medianMm >= 0.30);
            QCOMPARE(i.data().toString().contains(CrackTableModel::tr("Over limit")),
                     c.exceedsLimit);
            flagged += c.exceedsLimit;
        }
        QCOMPARE(flagged, 2);
        ui::ReportInput in;
        in.result = panel->result();
        const QString html = ui::MeasureReport::html(in);
        const QString standard = source->text();
        QVERIFY(html.contains(standard.toHtmlEscaped()));
        QCOMPARE(html.count(QStringLiteral(">%1</b>").arg(ui::MeasureReport::tr("OVER"))), 2);

        // Settings keep the choice; Fisura's classes show their limits and flag nothing.
        QSettings settings(dir_.filePath(QStringLiteral("preset.ini")), QSettings::IniFormat);
        panel->saveState(settings);
        presets->setCurrentIndex(0);
        QCOMPARE(panel->options().classes.tolerableMm, 0.0);
        QCOMPARE(panel->classLimitBox(2)->value(), 1.0);
        QVERIFY(panel->classLimitBox(0)->isVisible());
        panel->restoreState(settings);
        QCOMPARE(panel->options().classes.preset, std::string("aci224r-humid"));
        presets->setCurrentIndex(0);
        pane.measureCracks();
        QVERIFY(measured(panel).isOk());
        QVERIFY(view->isColumnHidden(CrackTableModel::OverLimit));
        QCOMPARE(panel->result()->flaggedCracks, 0);
        in.result = panel->result();
        QVERIFY(!ui::MeasureReport::html(in).contains(standard.toHtmlEscaped()));
        QVERIFY(!ui::MeasureReport::html(in).contains(ui::MeasureReport::tr("Over limit")));
    }

    // With a standard the class over its tolerable width is the alarming colour (vermillion,
    // beside a blue within-limit class: apart for every kind of colour blindness) in the table,
    // the report and the class layer; Fisura's own classes keep their green-to-red ramp.
    void overLimitIsAlarming()
    {
        const QColor vermillion(0xD5, 0x5E, 0x00), blue(0x00, 0x72, 0xB2);
        InspectPane pane;
        pane.resize(1100, 800);
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        QVERIFY(panel->classPresetBox()->setPresetId("aci224r-humid"));
        pane.measureCracks();
        QVERIFY(measured(panel).isOk());
        const auto& classes = panel->result()->options.classes;
        QCOMPARE(ui::MeasureText::classColour(classes, 1), vermillion); // over_limit
        QCOMPARE(ui::MeasureText::classColour(classes, 0), blue);
        const auto* model = panel->table()->view()->model();
        int over = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex i = model->index(row, CrackTableModel::Class);
            const Crack& c =
                panel->result()->cracks[size_t(i.data(CrackTableModel::IndexRole).toInt())];
            QCOMPARE(i.data(Qt::DecorationRole).value<QColor>(),
                     c.exceedsLimit ? vermillion : blue);
            over += c.exceedsLimit;
        }
        QCOMPARE(over, 2);
        ui::ReportInput in;
        in.result = panel->result();
        QVERIFY(ui::MeasureReport::html(in).contains(vermillion.name()));
        // The class layer: the over-limit code (2 classes: 255) in vermillion.
        const int before = pane.viewer()->overlayCount();
        panel->classOverlayBox()->setChecked(true);
        QTRY_COMPARE(pane.viewer()->overlayCount(), before + 1);
        const auto lut = ui::overlayLut(pane.viewer()->overlayStyle(before));
        const QRgb overColour = qUnpremultiply(lut[classMapCode(1, 2)]);
        const QRgb withinColour = qUnpremultiply(lut[classMapCode(0, 2)]);
        QVERIFY2(std::abs(qRed(overColour) - 0xD5) <= 2 && std::abs(qGreen(overColour) - 0x5E) <= 2,
                 qPrintable(QColor(overColour).name()));
        QVERIFY2(std::abs(qBlue(withinColour) - 0xB2) <= 2,
                 qPrintable(QColor(withinColour).name()));
        panel->classOverlayBox()->setChecked(false);
        // Fisura's classes: hairline green ... wide red, as before.
        const WidthClasses fisura;
        QCOMPARE(ui::MeasureText::classColour(fisura, 0), QColor(46, 160, 67));
        QCOMPARE(ui::MeasureText::classColour(fisura, 3), QColor(215, 30, 40));
        QCOMPARE(ui::MeasureText::classColour(fisura, -1), QColor(128, 128, 128));
    }

    // Custom limits are the fields' values; editing Fisura's limits makes them custom.
    void customLimits()
    {
        InspectPane pane;
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        QVERIFY(!panel->classPresetBox()->setPresetId("no-such-standard"));
        QCOMPARE(panel->classPresetBox()->presetId(), std::string("default"));
        panel->classLimitBox(1)->setValue(0.25);
        QCOMPARE(panel->classPresetBox()->presetId(), std::string("custom"));
        const MeasureOptions o = panel->options();
        QCOMPARE(o.classes.preset, std::string("custom"));
        QCOMPARE(o.classes.upperLimitsMm, (std::vector<double>{0.1, 0.25, 1.0}));
        QCOMPARE(o.classes.tolerableMm, 0.0);
    }

    void errorsAndCancel()
    {
        InspectPane pane;
        QVERIFY(pane.openScan(scan_).isOk());
        MeasurePanel* panel = pane.measurePanel();
        QCOMPARE(panel->measure(QString()).code(), ErrorCode::InvalidArgument);
        QVERIFY(!panel->message().isEmpty());
        // Limits that do not rise are refused before anything runs.
        panel->classLimitBox(0)->setValue(0.5);
        QCOMPARE(panel->measure(map_).code(), ErrorCode::InvalidArgument);
        QVERIFY(!panel->isRunning());
        panel->classLimitBox(0)->setValue(0.1);
        // A missing map: the error reaches the section.
        QVERIFY(panel->measure(dir_.filePath(QStringLiteral("absent.tif"))).isOk());
        QCOMPARE(measured(panel).code(), ErrorCode::NotFound);
        QVERIFY(!panel->message().isEmpty());
        QVERIFY(!panel->result());

        // A map of another size than the scan: refused by core, said in the section.
        const QString big = dir_.filePath(QStringLiteral("big.tif"));
        Image m = Image::make(3072, 3072, 1);
        for (int y = 8; y < 3072; y += 24)
            fill(m, 0, y, 3071, y + 1);
        QVERIFY(writeTiff(big.toStdString(), m, {256, false, 0.0}).isOk());
        QVERIFY(panel->measure(big).isOk());
        QCOMPARE(measured(panel).code(), ErrorCode::InvalidArgument);
        QVERIFY(panel->message().contains(QStringLiteral("3072")));

        // Cancelled: the larger map alone (no scan), cancelled at once.
        ui::TiledViewer viewer;
        MeasurePanel alone(&viewer);
        QVERIFY(alone.measure(big).isOk());
        QSignalSpy spy(&alone, &MeasurePanel::measured);
        alone.cancel();
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.at(0).at(0).value<Status>().code(), ErrorCode::Cancelled);
        QVERIFY(!alone.result());
        QCOMPARE(alone.message(), MeasurePanel::tr("The measurement was cancelled."));
        // Measured to the end, the same map has its 128 lines.
        QVERIFY(alone.measure(big).isOk());
        QVERIFY(measured(&alone).isOk());
        QCOMPARE(alone.result()->totals.cracks, 128);
        QCOMPARE(alone.table()->model()->rowCount(), 128);
    }

private:
    QTemporaryDir dir_;
    QString scan_, map_;
};

QTEST_MAIN(TstMeasurePanel)
#include "tst_measurepanel.moc"
