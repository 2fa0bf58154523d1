// The whole window as a person uses it, counted in clicks on the real widgets:
//  - fresh start → Open demo project → Train → Start trains a first model: three clicks; then
//    Analyze with this model → Run (the demo scan is queued) → Open in Inspect: the map overlay
//    on the demo scan, the ground-truth comparison one click further;
//  - demo project with a trained model → Analyze → add the demo scan (button + accepted dialog)
//    → Run → Open in Inspect shows the overlay: at most five clicks;
//  - closing while work runs asks first, and "Stop and quit" closes once the work has stopped.
#include <QtTest>

#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include "analyze/analyzepane.h"
#include "analyze/analyzequeue.h"
#include "common/languagemanager.h"
#include "demoproject.h"
#include "fisura/project.h"
#include "fisura/threshold.h"
#include "fisura/train.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "inspect/truthpanel.h"
#include "mainwindow.h"
#include "project/projectactions.h"
#include "project/projectsession.h"
#include "train/traincontroller.h"
#include "train/trainpane.h"
#include "train/trainsetup.h"
#include "viewer/tiledviewer.h"

using namespace fisura;
using fisura::ui::LanguageManager;

namespace
{

/// Clicks counted on real widgets.
struct Clicker {
    int clicks = 0;
    void click(QWidget* w, QPoint at = {})
    {
        QVERIFY2(w && w->isVisible() && w->isEnabled(), "the widget to click is not usable");
        QTest::mouseClick(w, Qt::LeftButton, {}, at.isNull() ? w->rect().center() : at);
        ++clicks;
    }
    void clickAction(QToolBar* bar, QAction* a) { click(bar->widgetForAction(a)); }
    void clickPane(app::MainWindow& w, const QString& id)
    {
        auto* nav = w.findChild<QListWidget*>(QStringLiteral("navigation"));
        for (int i = 0; i < nav->count(); ++i)
            if (nav->item(i)->data(Qt::UserRole).toString() == id)
                click(nav->viewport(), nav->visualItemRect(nav->item(i)).center());
    }
};

template <class T> T* child(QObject* root, const char* name)
{
    return root->findChild<T*>(QString::fromLatin1(name));
}

} // namespace

class TstWorkflow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
    }
    void init()
    {
        QSettings().clear();
        QDir(ui::ProjectSession::demoProjectDir()).removeRecursively();
    }

    void trainsFromFreshStartInThreeClicks()
    {
        app::MainWindow w;
        w.projectActions()->setDemoOptions(demoproject::smallDemo());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Clicker c;
        c.clickAction(child<QToolBar>(&w, "mainToolBar"), w.projectActions()->demoAction());
        c.clickPane(w, QStringLiteral("train"));
        QCOMPARE(w.currentPane()->paneId(), QStringLiteral("train"));
        auto* start = child<QPushButton>(w.trainPane(), "startButton");
        QTRY_VERIFY_WITH_TIMEOUT(w.projectSession()->hasProject() && start->isEnabled(), 30000);
        c.click(start);
        QCOMPARE(c.clicks, 3);

        // It really trains: the run is recorded and the first optimiser step arrives.
        auto* controller = w.trainPane()->controller();
        QVERIFY(controller->isRunning());
        QSignalSpy batches(controller, &ui::TrainController::batchDone);
        QTRY_VERIFY_WITH_TIMEOUT(batches.count() > 0, 120000);
        QCOMPARE(w.projectSession()->project().runs().size(), size_t(1));
        QVERIFY(!w.trainPane()->runningWork().isEmpty());
        w.trainPane()->stopWork();
        QTRY_VERIFY_WITH_TIMEOUT(!controller->isRunning(), 5000);
        QCOMPARE(w.projectSession()->project().runs().front().state, RunState::Cancelled);
    }

    // The whole first loop on the demo, counted: app start → trained model in three clicks, then
    // trained model → crack overlay on the demo scan in at most five (the demo scan waits in the
    // Analyze queue; no file dialog, no typed path), Inspect opening on the map overlay with the
    // ground-truth comparison one more click away. A tiny network keeps it in the quick suite.
    void firstLoopOnTheDemoIsCountedInClicks()
    {
        app::MainWindow w;
        w.projectActions()->setDemoOptions(demoproject::smallDemo(256));
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Clicker toModel;
        toModel.clickAction(child<QToolBar>(&w, "mainToolBar"), w.projectActions()->demoAction());
        toModel.clickPane(w, QStringLiteral("train"));
        auto* start = child<QPushButton>(w.trainPane(), "startButton");
        QTRY_VERIFY_WITH_TIMEOUT(w.projectSession()->hasProject() && start->isEnabled(), 30000);
        // The tiny training configuration (not clicks: what a test may preset).
        ui::TrainSetupPanel* setup = w.trainPane()->setupPanel();
        setup->setModelShape(4, 2);
        setup->setCropSize(64);
        setup->setEpochs(1);
        setup->setPreferCpu(true);
        auto* controller = w.trainPane()->controller();
        QSignalSpy ended(controller, &ui::TrainController::finished);
        toModel.click(start);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 120000);
        QCOMPARE(w.projectSession()->project().runs().back().state, RunState::Finished);
        QCOMPARE(toModel.clicks, 3);

        Clicker toOverlay;
        auto* analyze = child<QPushButton>(w.trainPane(), "analyzeButton");
        if (!analyze->isVisible()) // the results page, if it is not shown by itself
            toOverlay.click(w.trainPane()->findChild<QTabBar*>(),
                            w.trainPane()->findChild<QTabBar*>()->tabRect(1).center());
        QTRY_VERIFY(analyze->isVisible() && analyze->isEnabled());
        toOverlay.click(analyze);
        QCOMPARE(w.currentPane()->paneId(), QStringLiteral("analyze"));
        // The demo scan is already queued.
        const QString scan = ui::ProjectSession::demoScanPath(ui::ProjectSession::demoProjectDir());
        QCOMPARE(w.analyzePane()->queue()->rowCount(), 1);
        QCOMPARE(w.analyzePane()->queue()->at(0).input, scan);
        auto* run = child<QPushButton>(w.analyzePane(), "runButton");
        QTRY_VERIFY(run->isEnabled());
        toOverlay.click(run);
        auto* open = child<QPushButton>(w.analyzePane(), "openInInspectButton");
        QTRY_VERIFY_WITH_TIMEOUT(open->isEnabled(), 60000);
        toOverlay.click(open);
        QVERIFY2(toOverlay.clicks <= 5, qPrintable(QString::number(toOverlay.clicks)));

        // Inspect shows the scan with the map overlay in view, not the comparison.
        QCOMPARE(w.currentPane()->paneId(), QStringLiteral("inspect"));
        ui::TiledViewer* viewer = w.inspectPane()->viewer();
        QTRY_VERIFY(viewer->hasImage());
        QCOMPARE(viewer->imagePath(), scan);
        int map = -1;
        for (int i = 0; i < viewer->overlayCount(); ++i)
            if (viewer->overlayPath(i).contains(QStringLiteral("/maps/")))
                map = i;
        QVERIFY(map >= 0);
        QVERIFY(viewer->overlayStyle(map).visible);
        // The measurement field shows the overlay's threshold before anything is measured.
        QCOMPARE(mapByteThreshold(w.inspectPane()->measurePanel()->thresholdBox()->value()),
                 viewer->overlayStyle(map).threshold);
        // The comparison with the demo scan's ground truth is one click away.
        ui::TruthPanel* truth = w.inspectPane()->truthPanel();
        QTRY_VERIFY_WITH_TIMEOUT(w.inspectPane()->comparison() != nullptr, 30000);
        QVERIFY(!truth->isComparisonShown());
        for (int k = 0; k < 3; ++k)
            QVERIFY(!viewer->overlayStyle(truth->layerIndex(ui::TruthPanel::Kind(k))).visible);
        Clicker toComparison;
        toComparison.click(truth->showComparisonButton());
        QCOMPARE(toComparison.clicks, 1);
        QVERIFY(truth->isComparisonShown());
        for (int k = 0; k < 3; ++k)
            QVERIFY(viewer->overlayStyle(truth->layerIndex(ui::TruthPanel::Kind(k))).visible);
        QVERIFY(!viewer->overlayStyle(map).visible);
    }

    void analyzesAndInspectsInFiveClicks()
    {
        // A demo project with a small scan and one trained model, made beforehand.
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("demo"));
        QVERIFY(demoproject::make(dir, 384, true));
        QSettings().setValue(QStringLiteral("project/reopen"), false);
        app::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.projectSession()->openProject(dir));
        const QString scan = QDir(dir).filePath(QStringLiteral("data/scan/demo_scan.tif"));
        QVERIFY(QFileInfo::exists(scan));
        Clicker c;
        // The file dialog: accepting it is one click.
        w.analyzePane()->setScanDialog([&c, scan] {
            ++c.clicks;
            return QStringList{scan};
        });
        c.clickPane(w, QStringLiteral("analyze"));
        c.click(child<QPushButton>(w.analyzePane(), "addScansButton"));
        auto* run = child<QPushButton>(w.analyzePane(), "runButton");
        QTRY_VERIFY(run->isEnabled());
        c.click(run);
        auto* open = child<QPushButton>(w.analyzePane(), "openInInspectButton");
        QTRY_VERIFY_WITH_TIMEOUT(open->isEnabled(), 60000);
        c.click(open);
        QVERIFY(c.clicks <= 5);
        QCOMPARE(w.currentPane()->paneId(), QStringLiteral("inspect"));
        ui::TiledViewer* viewer = w.inspectPane()->viewer();
        QTRY_VERIFY(viewer->hasImage());
        QCOMPARE(viewer->imagePath(), scan);
        QVERIFY(viewer->overlayCount() >= 1);
        QVERIFY(viewer->overlayPath(viewer->overlayCount() - 1).contains(QStringLiteral("maps")) ||
                [&] {
                    for (int i = 0; i < viewer->overlayCount(); ++i)
                        if (viewer->overlayPath(i).contains(QStringLiteral("/maps/")))
                            return true;
                    return false;
                }());
    }

    void closingWhileTrainingAsksAndStopsCleanly()
    {
        QTemporaryDir tmp;
        app::MainWindow w;
        w.show();
        QSignalSpy ready(w.projectActions(), &ui::ProjectActions::demoProjectReady);
        w.projectActions()->openDemoProject(tmp.filePath(QStringLiteral("demo")),
                                            demoproject::smallDemo());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(w.trainPane()->startTraining());
        QVERIFY(w.trainPane()->controller()->isRunning());

        // "Keep working": the window stays and training goes on.
        QTimer::singleShot(0, [] {
            QTRY_VERIFY(QApplication::activeModalWidget());
            child<QPushButton>(QApplication::activeModalWidget(), "keepWorkingButton")->click();
        });
        QVERIFY(!w.close());
        QVERIFY(w.isVisible());
        QVERIFY(w.trainPane()->controller()->isRunning());

        // "Stop and quit": training is cancelled, the run is recorded, then the window closes.
        QTimer::singleShot(0, [] {
            QTRY_VERIFY(QApplication::activeModalWidget());
            child<QPushButton>(QApplication::activeModalWidget(), "stopAndQuitButton")->click();
        });
        w.close();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isVisible(), 5000);
        QVERIFY(!w.trainPane()->controller()->isRunning());
        const auto& runs = w.projectSession()->project().runs();
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs.front().state, RunState::Cancelled);
    }

    void demoGenerationCancelsFromTheStatusBar()
    {
        app::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        synth::DemoDatasetOptions big = demoproject::smallDemo();
        big.segmentationImages = 400;
        w.projectActions()->setDemoOptions(big);
        w.projectActions()->demoAction()->trigger();
        auto* cancel = child<QToolButton>(&w, "windowJobCancel");
        QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible(), 10000);
        QElapsedTimer t;
        t.start();
        Clicker c;
        c.click(cancel);
        QTRY_VERIFY_WITH_TIMEOUT(!w.projectActions()->isGeneratingDemo(), 2000);
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!cancel->isVisible());
        QVERIFY(!w.projectSession()->hasProject());
    }
};

QTEST_MAIN(TstWorkflow)
#include "tst_workflow.moc"
