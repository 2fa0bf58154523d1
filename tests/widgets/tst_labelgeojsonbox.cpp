// GeoJSON in the label mode of the Inspect pane: Import GeoJSON… fills the polygons and the lines
// (with their width) of a QuPath file into the label of the open image as one undoable edit, the
// dialog opening beside the image; Export GeoJSON… writes the label (outlines, centre lines or
// both) and the file reads back to the same pixels; a bad file leaves the label alone and shows a
// translated error naming the feature; a failed write is reported; an import still reading when
// the image is left is not applied.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QUndoStack>

#include "common/languagemanager.h"
#include "fisura/image.h"
#include "fisura/labelgeojson.h"
#include "inspect/inspectpane.h"
#include "label/labelgeojsonbox.h"
#include "label/labelpanel.h"
#include "label/labelsession.h"

using namespace fisura;
using fisura::ui::InspectPane;
using fisura::ui::LabelGeoJsonBox;
using fisura::ui::LabelPanel;

namespace
{

constexpr int kW = 120, kH = 90;

// A 10 x 10 square (pixels 10..19) and a horizontal line through row 50 drawn 5 px wide.
const char* kQuPath = R"([
 {"type": "Feature", "geometry": {"type": "Polygon",
  "coordinates": [[[10, 10], [20, 10], [20, 20], [10, 20], [10, 10]]]},
  "properties": {"objectType": "annotation", "classification": {"name": "Crack"}}},
 {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[30, 50.5], [100, 50.5]]},
  "properties": {"objectType": "annotation", "measurements": {"Width px": 5}}}])";

// Two cracks: 5 px wide along row 50, 3 px wide down column 20 (crack-shaped: lines come back
// close to them).
const char* kCracks = R"([
 {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[30, 50.5], [100, 50.5]]},
  "properties": {"width_px": 5}},
 {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[20.5, 5], [20.5, 80]]},
  "properties": {"width_px": 3}}])";

const char* kBadWidth = R"({"type": "Feature", "geometry": {"type": "LineString",
  "coordinates": [[30, 50.5], [100, 50.5]]}, "properties": {"width_px": -3}})";

bool writeText(const QString& path, const char* text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) > 0;
}

int countSet(const QImage& m)
{
    int n = 0;
    for (int y = 0; y < m.height(); ++y)
        for (int x = 0; x < m.width(); ++x)
            n += m.constScanLine(y)[x] != 0;
    return n;
}

struct Fixture {
    QTemporaryDir dir;
    QString image;
    InspectPane pane;
    LabelPanel* panel = nullptr;
    LabelGeoJsonBox* box = nullptr;
    QString offered; ///< where the last file dialog would have opened
    QString answer;  ///< what it answers

    bool start()
    {
        image = dir.filePath(QStringLiteral("wall.tif"));
        if (!writeTiff(image.toStdString(), Image::make(kW, kH, 3, 120)))
            return false;
        pane.resize(1000, 700);
        pane.show();
        if (!QTest::qWaitForWindowExposed(&pane))
            return false;
        pane.startLabelling(image);
        panel = pane.labelPanel();
        box = panel->geoJsonBox();
        box->setFileChooser([this](bool, const QString& start) {
            offered = start;
            return answer;
        });
        return panel->isLabelling();
    }
    QImage mask() const { return panel->session()->readRegion(QRect(0, 0, kW, kH)); }
};

} // namespace

class TstLabelGeoJsonBox : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void importFillsPolygonsAndLinesUndoably()
    {
        Fixture f;
        QVERIFY(f.start());
        QVERIFY(f.box->importAction()->isEnabled());
        f.answer = f.dir.filePath(QStringLiteral("qupath.geojson"));
        QVERIFY(writeText(f.answer, kQuPath));
        QSignalSpy status(f.panel, &LabelPanel::statusMessage);
        QSignalSpy imported(f.box, &LabelGeoJsonBox::imported);
        f.box->importAction()->trigger();
        QVERIFY(!f.box->importAction()->isEnabled()); // while it reads
        QTRY_COMPARE(imported.count(), 1);
        QVERIFY(f.box->importAction()->isEnabled());
        QCOMPARE(QFileInfo(f.offered).absolutePath(), QFileInfo(f.image).absolutePath());
        const QImage m = f.mask();
        QCOMPARE(m.pixel(10, 10) & 0xff, 255u);
        QCOMPARE(m.pixel(19, 19) & 0xff, 255u);
        QCOMPARE(m.pixel(20, 20) & 0xff, 0u);
        for (int y = 48; y <= 52; ++y) // 5 px wide around row 50
            QCOMPARE(m.pixel(60, y) & 0xff, 255u);
        QCOMPARE(m.pixel(60, 47) & 0xff, 0u);
        QCOMPARE(m.pixel(60, 53) & 0xff, 0u);
        QVERIFY(f.panel->hasUnsavedLabels());
        QVERIFY(!status.isEmpty());
        QVERIFY(status.last().at(0).toString().contains(QStringLiteral("qupath.geojson")));
        QCOMPARE(f.panel->session()->undoStack()->undoText(), QStringLiteral("Import GeoJSON"));
        f.panel->undoAction()->trigger();
        QCOMPARE(countSet(f.mask()), 0);
        f.panel->redoAction()->trigger();
        QCOMPARE(f.mask(), m);
        // Imported labels count as the user's.
        QCOMPARE(f.panel->session()->layer()->provenance().fromProposal, quint64(0));
    }

    void exportWritesWhatReadsBack_data()
    {
        QTest::addColumn<int>("shapes");
        QTest::addColumn<QStringList>("types");
        QTest::newRow("outlines") << 0 << QStringList{QStringLiteral("Polygon")};
        QTest::newRow("lines") << 1 << QStringList{QStringLiteral("LineString")};
        QTest::newRow("both") << 2
                              << QStringList{QStringLiteral("Polygon"),
                                             QStringLiteral("LineString")};
    }

    void exportWritesWhatReadsBack()
    {
        QFETCH(int, shapes);
        QFETCH(QStringList, types);
        Fixture f;
        QVERIFY(f.start());
        f.answer = f.dir.filePath(QStringLiteral("in.geojson"));
        QVERIFY(writeText(f.answer, kCracks));
        QSignalSpy imported(f.box, &LabelGeoJsonBox::imported);
        QVERIFY(f.box->importFile(f.answer));
        QTRY_COMPARE(imported.count(), 1);
        const QImage labels = f.mask();
        f.box->shapesBox()->setCurrentIndex(shapes);
        f.answer = f.dir.filePath(QStringLiteral("out.geojson"));
        QSignalSpy exported(f.box, &LabelGeoJsonBox::exported);
        f.box->exportAction()->trigger();
        QTRY_COMPARE(exported.count(), 1);
        QCOMPARE(exported.first().at(0).toString(), f.answer);
        QCOMPARE(f.offered, f.dir.filePath(QStringLiteral("wall.geojson")));
        QFile file(f.answer);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray features =
            QJsonDocument::fromJson(file.readAll())[QStringLiteral("features")].toArray();
        QVERIFY(features.size() >= 2);
        QStringList seen;
        for (const QJsonValue& v : features) {
            const QString t = v[QStringLiteral("geometry")][QStringLiteral("type")].toString();
            if (!seen.contains(t))
                seen << t;
            if (t == QStringLiteral("LineString"))
                QVERIFY(v[QStringLiteral("properties")][QStringLiteral("width_px")].toDouble() > 0);
        }
        std::sort(seen.begin(), seen.end());
        std::sort(types.begin(), types.end());
        QCOMPARE(seen, types);
        auto back = readLabelGeoJson(f.answer.toStdString(), kW, kH);
        QVERIFY(back.isOk());
        int same = 0, either = 0;
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                const bool a = back->row(y)[x] != 0, b = (labels.pixel(x, y) & 0xff) != 0;
                same += a && b;
                either += a || b;
            }
        const double iou = double(same) / double(either);
        if (shapes == 0)
            QCOMPARE(same, either); // outlines are exact
        else
            QVERIFY2(iou >= 0.9, qPrintable(QString::number(iou)));
    }

    void badFileShowsTranslatedError_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("reason"); // Spanish
        QTest::addColumn<QString>("detail");
        QTest::newRow("negative width")
            << QByteArray(kBadWidth) << QStringLiteral("Fisura lee entidades Polygon")
            << QStringLiteral("feature 0: its width_px of -3 px");
        QTest::newRow("not JSON") << QByteArray("{\"type\": ") << QStringLiteral("no es un GeoJSON")
                                  << QString();
    }

    void badFileShowsTranslatedError()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, reason);
        QFETCH(QString, detail);
        using ui::LanguageManager;
        Fixture f;
        QVERIFY(f.start());
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        f.answer = f.dir.filePath(QStringLiteral("bad.geojson"));
        QVERIFY(writeText(f.answer, text.constData()));
        QSignalSpy failed(f.panel, &LabelPanel::failed);
        f.box->importAction()->trigger();
        QTRY_COMPARE(failed.count(), 1);
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        const QString message = failed.first().at(0).toString();
        QVERIFY2(message.startsWith(QStringLiteral("No se pudo importar bad.geojson")),
                 qPrintable(message));
        QVERIFY2(message.contains(reason), qPrintable(message));
        QVERIFY2(message.contains(detail), qPrintable(message));
        QCOMPARE(countSet(f.mask()), 0); // the label is left alone
        QVERIFY(!f.panel->hasUnsavedLabels());
        QTRY_VERIFY(f.pane.findChild<QMessageBox*>(QStringLiteral("labelErrorBox")));
    }

    void exportToAFolderThatIsNotThereFails()
    {
        Fixture f;
        QVERIFY(f.start());
        QSignalSpy failed(f.panel, &LabelPanel::failed);
        QSignalSpy exported(f.box, &LabelGeoJsonBox::exported);
        QVERIFY(f.box->exportFile(f.dir.filePath(QStringLiteral("gone/labels.geojson"))));
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY2(failed.first().at(0).toString().startsWith(
                     QStringLiteral("Could not export the labels of wall.tif to labels.geojson.")),
                 qPrintable(failed.first().at(0).toString()));
        QCOMPARE(exported.count(), 0);
    }

    void importDroppedWhenTheImageIsLeft()
    {
        Fixture f;
        QVERIFY(f.start());
        const QString path = f.dir.filePath(QStringLiteral("qupath.geojson"));
        QVERIFY(writeText(path, kQuPath));
        QSignalSpy imported(f.box, &LabelGeoJsonBox::imported);
        QVERIFY(f.box->importFile(path));
        QVERIFY(!f.box->importFile(path)); // one at a time
        f.panel->stop();
        QTRY_VERIFY(!f.box->isRunning());
        QCOMPARE(imported.count(), 0);
        QVERIFY(!f.box->importAction()->isEnabled()); // no label open
    }
};

QTEST_MAIN(TstLabelGeoJsonBox)
#include "tst_labelgeojsonbox.moc"
