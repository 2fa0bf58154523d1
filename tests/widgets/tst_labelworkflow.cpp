// Labelling end to end, offscreen, in the whole window: open the demo project, start labelling
// one image of its dataset in Inspect, trace a crack with the polyline tool by mouse, save, then
// train one short epoch on the dataset through the Train pane and check the run finished; the
// trained model then proposes labels for the image as one undoable edit.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>

#include "analyze/modelchooser.h"
#include "common/languagemanager.h"
#include "viewer/tiledviewer.h"
#include "demoproject.h"
#include "fisura/labels.h"
#include "fisura/project.h"
#include "inspect/inspectpane.h"
#include "label/labelpanel.h"
#include "label/labelpropose.h"
#include "label/labelsession.h"
#include "label/labeltool.h"
#include "mainwindow.h"
#include "project/projectsession.h"
#include "train/trainpane.h"
#include "train/trainsetup.h"

using namespace fisura;
using fisura::ui::LanguageManager;

class TstLabelWorkflow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
    }

    void labelSaveAndTrain()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("demo"));
        QVERIFY(demoproject::make(dir, 0, false));
        QSettings().setValue(QStringLiteral("project/reopen"), false);
        app::MainWindow w;
        w.resize(1300, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.projectSession()->openProject(dir));
        ui::InspectPane* inspect = w.inspectPane();
        inspect->setProjectSession(w.projectSession()); // what MainWindow::connectPanes does

        // One image of the project's segmentation dataset.
        const QString data =
            QString::fromStdString(w.projectSession()->project().datasets().back().path);
        QStringList images;
        QDirIterator it(QDir(data).filePath(QStringLiteral("images")), QDir::Files);
        while (it.hasNext())
            images << it.next();
        images.sort();
        QVERIFY(!images.isEmpty());
        const QString image = images.front();

        w.showPane(QStringLiteral("inspect"));
        inspect->startLabelling(image, images);
        ui::LabelPanel* panel = inspect->labelPanel();
        QVERIFY(panel->isLabelling());
        QCOMPARE(panel->queueLabel()->text(),
                 QStringLiteral("1 of %1 to label").arg(images.size()));
        ui::TiledViewer* viewer = inspect->viewer();
        const QSize size = viewer->imageSize();
        viewer->showAt(QPointF(size.width() / 2.0, size.height() / 2.0), 3.0);

        // Clear the image, then trace a diagonal crack of width 3 across it by mouse.
        panel->wholeImageCrackFreeAction()->trigger();
        panel->toolAction(int(ui::LabelToolKind::Polyline))->trigger();
        panel->lineWidthBox()->setValue(3.0);
        const auto at = [&](double x, double y) {
            return viewer->mapFromImage(QPointF(x, y)).toPoint();
        };
        const int s = std::min(size.width(), size.height());
        QTest::mouseClick(viewer, Qt::LeftButton, {}, at(4.5, 4.5));
        QTest::mouseClick(viewer, Qt::LeftButton, {}, at(s / 2.0, s / 2.0 + 3));
        QTest::mouseDClick(viewer, Qt::LeftButton, {}, at(s - 4.5, s - 4.5));
        const QImage drawn = panel->session()->readRegion(QRect(QPoint(0, 0), size));
        QCOMPARE(int(drawn.constScanLine(5)[5]), 255);
        QCOMPARE(int(drawn.constScanLine(5)[s - 5]), 0);

        QSignalSpy saved(panel, &ui::LabelPanel::saved);
        panel->saveAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
        const QString mask = saved.front().at(1).toString();
        QCOMPARE(mask, QString::fromStdString(labelPathsFor(image.toStdString()).mask));
        QVERIFY(mask.startsWith(QDir(data).filePath(QStringLiteral("masks"))));
        auto reread = readImage(mask.toStdString());
        QVERIFY(reread);
        QCOMPARE(int(reread->row(5)[5 * reread->channels]), 255);
        QCOMPARE(labelStateFor(image.toStdString()), LabelState::Labelled);

        // Train one short epoch on the dataset, through the Train pane.
        w.showPane(QStringLiteral("train"));
        ui::TrainPane* train = w.trainPane();
        ui::TrainSetupPanel* setup = train->setupPanel();
        setup->setModelShape(4, 2);
        setup->setCropSize(64);
        setup->setEpochs(1);
        setup->setPreferCpu(true);
        setup->findChild<QSpinBox*>(QStringLiteral("batchSpin"))->setValue(4);
        setup->findChild<QSpinBox*>(QStringLiteral("loaderSpin"))->setValue(1);
        QSignalSpy ended(train, &ui::TrainPane::runFinished);
        // The Start button is enabled once the machine is known (found in the background).
        auto* start = train->findChild<QPushButton*>(QStringLiteral("startButton"));
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 30000);
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY2(train->isTraining(), qPrintable(train->message()));
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 120000);
        const ProjectRun* run =
            w.projectSession()->project().findRun(ended.front().front().toString().toStdString());
        QVERIFY(run);
        QCOMPARE(run->state, RunState::Finished);

        // The new model proposes labels for the image: one edit, undone at once.
        w.showPane(QStringLiteral("inspect"));
        ui::LabelProposeBox* propose = panel->proposeBox();
        QTRY_VERIFY_WITH_TIMEOUT(propose->modelChooser()->choice().ok, 10000);
        propose->regionBox()->setCurrentIndex(1); // whole image
        const int edits = panel->session()->undoStack()->count();
        QSignalSpy applied(panel->session(), &ui::LabelSession::proposalApplied);
        QSignalSpy failed(panel, &ui::LabelPanel::failed);
        QVERIFY(propose->proposeButton()->isEnabled());
        propose->proposeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(applied.count() + failed.count() > 0, 60000);
        QCOMPARE(failed.count(), 0);
        QVERIFY(panel->session()->undoStack()->count() <= edits + 1);
        QVERIFY(!panel->statsLabel()->text().isEmpty());
        if (panel->session()->undoStack()->count() == edits + 1) {
            panel->undoAction()->trigger();
            QCOMPARE(panel->session()->readRegion(QRect(QPoint(0, 0), size)), drawn);
        }

        // Closing with unsaved labels asks; Discard lets the window close.
        panel->setUnsavedPrompt([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(inspect->confirmClose());
    }
};

QTEST_MAIN(TstLabelWorkflow)
#include "tst_labelworkflow.moc"
