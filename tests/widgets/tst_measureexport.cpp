// Inspect's measurement exports: the PDF report in both languages, GIS / CAD vectors and the
// crack overlay GeoTIFF, each refused before a measurement, written after one, and failing
// cleanly (a message, nothing left behind).
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QTemporaryDir>

#include "common/languagemanager.h"
#include "common/statusmeta.h"
#include "fisura/image.h"
#include "fisura/vectorexport.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"

#include "measure_fixture.h"

using namespace fisura;
using namespace fisura::test;
using fisura::ui::InspectPane;
using fisura::ui::MeasurePanel;

class TstMeasureExport : public QObject
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

    void reportInBothLanguages_data()
    {
        QTest::addColumn<int>("language");
        QTest::newRow("en") << int(ui::LanguageManager::Language::English);
        QTest::newRow("es") << int(ui::LanguageManager::Language::Spanish);
    }

    void reportInBothLanguages()
    {
        QFETCH(int, language);
        ui::LanguageManager::instance().applyForSession(ui::LanguageManager::Language(language));
        InspectPane pane;
        pane.resize(1100, 800);
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        QCOMPARE(panel->writeReport(dir_.filePath(QStringLiteral("no.pdf"))).code(),
                 ErrorCode::InvalidArgument); // nothing measured yet
        pane.measureCracks();
        QVERIFY(measured(panel).isOk());
        const QString pdf = dir_.filePath(
            QStringLiteral("report-%1.pdf").arg(QString::fromLatin1(QTest::currentDataTag())));
        QSignalSpy written(panel, &MeasurePanel::reportWritten);
        QVERIFY(panel->writeReport(pdf).isOk());
        QVERIFY(written.wait(10000));
        QVERIFY2(written.at(0).at(0).value<Status>().isOk(), qPrintable(panel->message()));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5).startsWith("%PDF-"));
        QVERIFY2(f.size() > 20 * 1024, qPrintable(QString::number(f.size())));
        if (qEnvironmentVariableIsSet("FISURA_KEEP_REPORTS"))
            QFile::copy(pdf, qEnvironmentVariable("FISURA_KEEP_REPORTS") + QLatin1Char('/') +
                                 QFileInfo(pdf).fileName());
        // An unwritable place: an error, nothing left behind.
        const QString bad = dir_.filePath(QStringLiteral("missing/folder/r.pdf"));
        QSignalSpy failed(panel, &MeasurePanel::reportWritten);
        QVERIFY(panel->writeReport(bad).isOk());
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.at(0).at(0).value<Status>().code(), ErrorCode::IoError);
        QVERIFY(!panel->message().isEmpty());
        QVERIFY(!QFile::exists(bad));
    }

    void vectorExport()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        auto* button = panel->findChild<QPushButton*>(QStringLiteral("exportVectorButton"));
        QVERIFY(button);
        QVERIFY(!button->isEnabled());
        const QString gpkg = dir_.filePath(QStringLiteral("deck_cracks.gpkg"));
        QCOMPARE(panel->exportVectors(gpkg).code(), ErrorCode::InvalidArgument);
        pane.measureAction()->trigger();
        QVERIFY(measured(panel).isOk());
        QVERIFY(button->isEnabled());
        QVERIFY(!button->text().isEmpty() && !button->toolTip().isEmpty());
        QVERIFY(panel->exportVectors(gpkg).isOk());
        QVERIFY(QFileInfo(gpkg).size() > 0);
        const QString kml = dir_.filePath(QStringLiteral("deck_cracks.kml"));
        QCOMPARE(panel->exportVectors(kml).code(), ErrorCode::Unsupported);
        QVERIFY(!QFile::exists(kml));
    }

    void overlayExport()
    {
        InspectPane pane;
        pane.resize(1100, 800);
        QVERIFY(pane.openWithMap(scan_, map_, 128).isOk());
        MeasurePanel* panel = pane.measurePanel();
        const QString tif = dir_.filePath(QStringLiteral("deck_overlay.tif"));
        QCOMPARE(panel->exportOverlay(tif).code(), ErrorCode::InvalidArgument);
        pane.measureAction()->trigger();
        QVERIFY(measured(panel).isOk());
        QVERIFY(panel->result()->widthLayerPath.empty()); // Inspect measures without a layer

        QSignalSpy written(panel, &MeasurePanel::overlayWritten);
        QVERIFY(panel->exportOverlay(tif).isOk());
        QVERIFY(written.wait(10000));
        QVERIFY2(written.at(0).at(0).value<Status>().isOk(), qPrintable(panel->message()));
        QCOMPARE(written.at(0).at(1).toString(), tif);
        // Transparent around the cracks; each crack in its class's colour (RGBA comes back
        // premultiplied, which opaque pixels are not changed by).
        auto rgba = readImage(tif.toStdString());
        QVERIFY2(rgba, rgba.status().toString().c_str());
        QCOMPARE(rgba->channels, 4);
        QCOMPARE(rgba->width, kW);
        QCOMPARE(int(rgba->row(10)[10 * 4 + 3]), 0);
        const WidthClasses classes = panel->result()->options.classes;
        const int centres[4][2] = {{100, 40}, {301, 80}, {100, 204}, {300, 240}};
        for (int k = 0; k < 4; ++k) {
            const uint8_t* px = rgba->row(centres[k][1]) + centres[k][0] * 4;
            const auto want = overlayColour(classes, k);
            for (int c = 0; c < 4; ++c)
                QCOMPARE(int(px[c]), int(want[size_t(c)]));
        }
        // No temporary width layer left beside it.
        const QStringList left =
            QDir(dir_.path()).entryList({QStringLiteral("*layer*")}, QDir::Files | QDir::Hidden);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));

        // An unwritable place: a message, no file.
        const QString bad = dir_.filePath(QStringLiteral("missing/folder/o.tif"));
        QSignalSpy failed(panel, &MeasurePanel::overlayWritten);
        QVERIFY(panel->exportOverlay(bad).isOk());
        QVERIFY(failed.wait(10000));
        QVERIFY(!failed.at(0).at(0).value<Status>().isOk());
        QVERIFY(panel->message().contains(QStringLiteral("export failed")));
        QVERIFY(!QFile::exists(bad));
    }

private:
    QTemporaryDir dir_;
    QString scan_, map_;
};

QTEST_MAIN(TstMeasureExport)
#include "tst_measureexport.moc"
