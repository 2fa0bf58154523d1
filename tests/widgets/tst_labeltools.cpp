// Labelling in the Inspect pane, driven by QTest mouse and key events on the real viewer: the
// polyline, brush, eraser, fill and crack-free tools change exactly the expected pixels; undo and
// redo through the actions give back identical masks; Save writes a mask that reopens
// identically; unsaved labels are never dropped without asking; the label layer is drawn.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>

#include <cmath>
#include <cstring>

#include "viewer/tiledviewer.h"
#include "fisura/image.h"
#include "fisura/labels.h"
#include "inspect/inspectpane.h"
#include "label/labelpanel.h"
#include "label/labelsession.h"
#include "label/labeltool.h"

using namespace fisura;
using fisura::ui::InspectPane;
using fisura::ui::LabelPanel;
using fisura::ui::LabelToolKind;

namespace
{

constexpr int kW = 160, kH = 120;

QString makeImage(const QTemporaryDir& dir, const QString& name)
{
    const QString path = dir.filePath(name);
    Image im = Image::make(kW, kH, 3, 120);
    TiffWriteOptions o;
    o.pixelSizeMm = 0.5;
    if (!writeTiff(path.toStdString(), im, o))
        return {};
    return path;
}

// Distance of `p` to the segment a-b.
double segmentDistance(QPointF p, QPointF a, QPointF b)
{
    const QPointF d = b - a;
    const double len2 = d.x() * d.x() + d.y() * d.y();
    double t = len2 > 0 ? ((p - a).x() * d.x() + (p - a).y() * d.y()) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const QPointF q = a + d * t - p;
    return std::hypot(q.x(), q.y());
}

// The documented geometry: every pixel whose centre lies within w/2 of a segment (255); 128
// marks the pixels within rounding of the edge, which either answer fits.
QImage expectedLine(const QVector<QPointF>& pts, double w)
{
    QImage out(kW, kH, QImage::Format_Grayscale8);
    out.fill(0);
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const QPointF c(x + 0.5, y + 0.5);
            double best = 1e9;
            for (int i = 0; i + 1 < pts.size(); ++i)
                best = std::min(best, segmentDistance(c, pts[i], pts[i + 1]));
            if (pts.size() == 1)
                best = segmentDistance(c, pts[0], pts[0]);
            if (std::abs(best - w / 2) < 1e-6)
                out.scanLine(y)[x] = 128;
            else if (best < w / 2)
                out.scanLine(y)[x] = 255;
        }
    return out;
}

int countSet(const QImage& m)
{
    int n = 0;
    for (int y = 0; y < m.height(); ++y)
        for (int x = 0; x < m.width(); ++x)
            n += m.constScanLine(y)[x] != 0;
    return n;
}

// Pixels labelled in `got` and not in `want` or the other way round (128 in `want`: either).
int differing(const QImage& got, const QImage& want)
{
    int n = 0;
    for (int y = 0; y < got.height(); ++y)
        for (int x = 0; x < got.width(); ++x)
            if (want.constScanLine(y)[x] != 128)
                n += (got.constScanLine(y)[x] != 0) != (want.constScanLine(y)[x] != 0);
    return n;
}

struct Fixture {
    QTemporaryDir dir;
    QString image;
    InspectPane pane;
    ui::TiledViewer* viewer = nullptr;
    LabelPanel* panel = nullptr;

    bool start()
    {
        image = makeImage(dir, QStringLiteral("wall.tif"));
        if (image.isEmpty())
            return false;
        pane.resize(1200, 900);
        pane.show();
        if (!QTest::qWaitForWindowExposed(&pane))
            return false;
        pane.startLabelling(image);
        viewer = pane.viewer();
        panel = pane.labelPanel();
        // 3 screen pixels per image pixel, the image's centre in the middle of the view.
        viewer->showAt(QPointF(kW / 2.0, kH / 2.0), 3.0);
        return panel->isLabelling();
    }
    QPoint at(QPointF imagePoint) const { return viewer->mapFromImage(imagePoint).toPoint(); }
    QImage mask() const { return panel->session()->readRegion(QRect(0, 0, kW, kH)); }
    void choose(LabelToolKind k) { panel->toolAction(int(k))->trigger(); }
};

} // namespace

class TstLabelTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void polylineByClicksCoversTheExpectedPixels()
    {
        Fixture f;
        QVERIFY(f.start());
        QVERIFY(f.pane.labelAction()->isChecked());
        QVERIFY(f.panel->isVisible());
        f.choose(LabelToolKind::Polyline);
        f.panel->lineWidthBox()->setValue(3.0); // px
        QCOMPARE(f.panel->tool()->lineWidth(), 3.0);
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({20.5, 30.5}));
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({100.5, 30.5}));
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({100.5, 90.5}));
        // Backspace takes the last point back, Shift keeps the new segment at 45°.
        QTest::keyClick(f.viewer, Qt::Key_Backspace);
        QCOMPARE(f.panel->tool()->pendingPoints().size(), 2);
        QTest::mouseClick(f.viewer, Qt::LeftButton, Qt::ShiftModifier, f.at({141.0, 72.0}));
        const QVector<QPointF> pts = f.panel->tool()->pendingPoints();
        QCOMPARE(pts.size(), 3);
        const QPointF d = pts[2] - pts[1];
        QVERIFY2(std::abs(std::abs(d.x()) - std::abs(d.y())) < 1e-6, "not at 45°");
        QVERIFY(countSet(f.mask()) == 0); // nothing is drawn before the line is finished
        QTest::keyClick(f.viewer, Qt::Key_Return);
        QVERIFY(f.panel->tool()->pendingPoints().isEmpty());
        const QImage got = f.mask();
        const QImage want = expectedLine(pts, 3.0);
        QVERIFY(countSet(want) > 150);
        QCOMPARE(differing(got, want), 0);
        QCOMPARE(f.panel->session()->undoStack()->count(), 1);
        QVERIFY(f.panel->statsLabel()->text().contains(QLocale().toString(countSet(want))));

        // Esc cancels a line being traced; a double click finishes one.
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({10.5, 100.5}));
        QTest::keyClick(f.viewer, Qt::Key_Escape);
        QVERIFY(f.panel->tool()->pendingPoints().isEmpty());
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({10.5, 110.5}));
        QTest::mouseDClick(f.viewer, Qt::LeftButton, {}, f.at({60.5, 110.5}));
        QCOMPARE(f.panel->session()->undoStack()->count(), 2);
        QCOMPARE(int(f.mask().constScanLine(110)[30]), 255);
    }

    void widthInMillimetres()
    {
        Fixture f;
        QVERIFY(f.start());
        QVERIFY(f.panel->lineUnitBox()->isEnabled()); // the image has 0.5 mm pixels
        f.panel->lineUnitBox()->setCurrentIndex(1);
        f.panel->lineWidthBox()->setValue(2.0); // mm
        QCOMPARE(f.panel->tool()->lineWidth(), 4.0);
        // ] widens the line (in px), and the box follows in mm.
        QTest::keyClick(f.viewer, Qt::Key_BracketRight);
        QCOMPARE(f.panel->tool()->lineWidth(), 5.0);
        QCOMPARE(f.panel->lineWidthBox()->value(), 2.5);
    }

    void brushEraserAndUndoRedoRoundTrip()
    {
        Fixture f;
        QVERIFY(f.start());
        QList<QImage> states{f.mask()};
        f.choose(LabelToolKind::Brush);
        f.panel->brushSizeBox()->setValue(9);
        QTest::mousePress(f.viewer, Qt::LeftButton, {}, f.at({20.5, 60.5}));
        for (int x = 25; x <= 120; x += 5)
            QTest::mouseMove(f.viewer, f.at({x + 0.5, 60.5}));
        QTest::mouseRelease(f.viewer, Qt::LeftButton, {}, f.at({120.5, 60.5}));
        states << f.mask();
        QCOMPARE(int(states.back().constScanLine(60)[70]), 255);
        QCOMPARE(int(states.back().constScanLine(64)[70]), 255);
        QCOMPARE(int(states.back().constScanLine(66)[70]), 0);
        // ] and [ change the brush size.
        QTest::keyClick(f.viewer, Qt::Key_BracketRight);
        QVERIFY(f.panel->brushSizeBox()->value() > 9);
        QTest::keyClick(f.viewer, Qt::Key_BracketLeft);

        f.choose(LabelToolKind::Eraser);
        QTest::mousePress(f.viewer, Qt::LeftButton, {}, f.at({70.5, 50.5}));
        QTest::mouseMove(f.viewer, f.at({70.5, 60.5}));
        QTest::mouseRelease(f.viewer, Qt::LeftButton, {}, f.at({70.5, 70.5}));
        states << f.mask();
        QCOMPARE(int(states.back().constScanLine(60)[70]), 0);
        QCOMPARE(int(states.back().constScanLine(60)[30]), 255);

        // A closed outline, filled; then a crack-free rectangle over part of it.
        f.choose(LabelToolKind::Polyline);
        f.panel->lineWidthBox()->setValue(2.0);
        for (QPointF p : {QPointF(100.5, 10.5), QPointF(140.5, 10.5), QPointF(140.5, 40.5),
                          QPointF(100.5, 40.5), QPointF(100.5, 10.5)})
            QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at(p));
        QTest::keyClick(f.viewer, Qt::Key_Return);
        states << f.mask();
        QCOMPARE(int(states.back().constScanLine(25)[120]), 0);
        f.choose(LabelToolKind::Fill);
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({120.5, 25.5}));
        states << f.mask();
        QCOMPARE(int(states.back().constScanLine(25)[120]), 255);
        f.choose(LabelToolKind::CrackFree);
        QTest::mousePress(f.viewer, Qt::LeftButton, {}, f.at({110.0, 0.0}));
        QTest::mouseMove(f.viewer, f.at({130.0, 20.0}));
        QTest::mouseRelease(f.viewer, Qt::LeftButton, {}, f.at({150.0, 50.0}));
        states << f.mask();
        QCOMPARE(int(states.back().constScanLine(25)[120]), 0);
        QCOMPARE(int(states.back().constScanLine(25)[105]), 255);
        QCOMPARE(f.panel->session()->undoStack()->count(), 5);

        // Undo all the way back, then redo all the way forward: identical masks at every step.
        for (int i = int(states.size()) - 2; i >= 0; --i) {
            QVERIFY(f.panel->undoAction()->isEnabled());
            f.panel->undoAction()->trigger();
            QCOMPARE(f.mask(), states[i]);
        }
        QVERIFY(!f.panel->undoAction()->isEnabled());
        for (int i = 1; i < states.size(); ++i) {
            f.panel->redoAction()->trigger();
            QCOMPARE(f.mask(), states[i]);
        }
        QVERIFY(!f.panel->redoAction()->isEnabled());
        // The whole image crack-free is one edit, undone at once.
        f.panel->wholeImageCrackFreeAction()->trigger();
        QCOMPARE(countSet(f.mask()), 0);
        f.panel->undoAction()->trigger();
        QCOMPARE(f.mask(), states.back());
    }

    void fillOfAnOpenRegionIsRefusedNamingTheFile()
    {
        Fixture f;
        QVERIFY(f.start());
        QSignalSpy failed(f.panel, &LabelPanel::failed);
        f.choose(LabelToolKind::Fill);
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({80.5, 60.5}));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.front().front().toString();
        QVERIFY(message.contains(QStringLiteral("wall.tif")));
        QVERIFY2(message.contains(QStringLiteral("edge of the image")), qPrintable(message));
        QCOMPARE(countSet(f.mask()), 0);
        QCOMPARE(f.panel->session()->undoStack()->count(), 0);
    }

    void labelLayerIsDrawnOverTheImage()
    {
        Fixture f;
        QVERIFY(f.start());
        const QPoint where = f.at({40.5, 40.5});
        const QRgb before = f.viewer->snapshot().pixel(where);
        f.choose(LabelToolKind::Brush);
        f.panel->brushSizeBox()->setValue(8);
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, where);
        const QRgb after = f.viewer->snapshot().pixel(where);
        QVERIFY2(qBlue(after) > qBlue(before) + 40, "the label colour is not drawn");
        f.viewer->fitToWindow();
        const QRgb far = f.viewer->snapshot().pixel(f.at({40.5, 40.5}));
        QVERIFY(qBlue(far) > qBlue(before) + 40);
        // Undo redraws the region.
        f.panel->undoAction()->trigger();
        f.viewer->showAt(QPointF(kW / 2.0, kH / 2.0), 3.0);
        QCOMPARE(f.viewer->snapshot().pixel(where), before);
    }

    void saveWritesTheMaskThatReopensIdentically()
    {
        Fixture f;
        QVERIFY(f.start());
        f.choose(LabelToolKind::Polyline);
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({10.5, 10.5}));
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({150.5, 110.5}));
        QTest::keyClick(f.viewer, Qt::Key_Return);
        const QImage drawn = f.mask();
        QVERIFY(countSet(drawn) > 100);
        QVERIFY(f.panel->hasUnsavedLabels());
        QVERIFY(f.panel->saveAction()->isEnabled());
        QSignalSpy saved(f.panel, &LabelPanel::saved);
        f.panel->saveAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
        QVERIFY(!f.panel->hasUnsavedLabels());
        QVERIFY(f.pane.runningWork().isEmpty());
        const QString mask = saved.front().at(1).toString();
        QCOMPARE(mask, QString::fromStdString(labelPathsFor(f.image.toStdString()).mask));
        QVERIFY(QFileInfo::exists(mask));

        auto reopened = LabelLayer::open(f.image.toStdString());
        QVERIFY(reopened);
        auto pixels = (*reopened)->readRegion(LabelRect{0, 0, kW, kH});
        QVERIFY(pixels);
        for (int y = 0; y < kH; ++y)
            QVERIFY(std::memcmp(pixels->row(y), drawn.constScanLine(y), kW) == 0);
        // Labelling the same image again shows the saved labels.
        f.pane.labelAction()->trigger(); // off
        QVERIFY(!f.panel->isLabelling());
        f.pane.labelAction()->trigger(); // on
        QVERIFY(f.panel->isLabelling());
        QCOMPARE(f.mask(), drawn);
    }

    void unsavedLabelsAreNeverDroppedSilently()
    {
        Fixture f;
        QVERIFY(f.start());
        const QString other = makeImage(f.dir, QStringLiteral("other.tif"));
        const QString mask = QString::fromStdString(labelPathsFor(f.image.toStdString()).mask);
        f.choose(LabelToolKind::Brush);
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({50.5, 50.5}));
        QVERIFY(f.panel->hasUnsavedLabels());
        QStringList asked;
        QMessageBox::StandardButton answer = QMessageBox::Cancel;
        f.panel->setUnsavedPrompt([&](const QString& file) {
            asked << file;
            return answer;
        });

        // Cancel: the image and its labels stay.
        f.pane.startLabelling(other);
        QCOMPARE(asked, QStringList{QStringLiteral("wall.tif")});
        QCOMPARE(f.viewer->imagePath(), f.image);
        QVERIFY(f.panel->hasUnsavedLabels());
        QVERIFY(!f.pane.confirmClose());
        QCOMPARE(asked.size(), 2);

        // Save: the next image opens while the labels are saved in the background.
        answer = QMessageBox::Save;
        f.pane.startLabelling(other, {f.image, other});
        QCOMPARE(asked.size(), 3);
        QCOMPARE(f.viewer->imagePath(), other);
        QVERIFY(f.panel->isLabelling());
        QCOMPARE(f.panel->queueLabel()->text(), QStringLiteral("2 of 2 to label"));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(mask), 10000);
        QTRY_VERIFY(f.pane.runningWork().isEmpty());

        // Discard: nothing is written for the second image.
        QTest::mouseClick(f.viewer, Qt::LeftButton, {}, f.at({50.5, 50.5}));
        answer = QMessageBox::Discard;
        QVERIFY(f.panel->previousButton()->isEnabled());
        f.panel->previousButton()->click();
        QCOMPARE(asked.size(), 4);
        QCOMPARE(f.viewer->imagePath(), f.image);
        QCOMPARE(f.panel->queueLabel()->text(), QStringLiteral("1 of 2 to label"));
        QVERIFY(
            !QFileInfo::exists(QString::fromStdString(labelPathsFor(other.toStdString()).mask)));
        // The saved labels of the first image are back; nothing unsaved: no question.
        QVERIFY(countSet(f.mask()) > 0);
        QVERIFY(f.pane.confirmClose());
        QCOMPARE(asked.size(), 4);
    }

    void provenanceIsFormattedWithTheLocale()
    {
        QCOMPARE(LabelPanel::provenanceText(12840, 9116, 3724, 1203),
                 QStringLiteral("Label: 12,840 px · 71 % from the model's proposal · 29 % your "
                                "edits · 1,203 px of the proposal erased"));
        QCOMPARE(LabelPanel::provenanceText(0, 0, 0, 0), QStringLiteral("No crack labelled yet."));
        QLocale::setDefault(QLocale(QLocale::Spanish, QLocale::Spain));
        QVERIFY(LabelPanel::provenanceText(12840, 0, 12840, 0).contains(QStringLiteral("12.840")));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
};

QTEST_MAIN(TstLabelTools)
#include "tst_labeltools.moc"
