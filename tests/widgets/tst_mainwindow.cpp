#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>

#include <QPushButton>
#include <QStatusBar>

#include "common/languagemanager.h"
#include "common/pane.h"
#include "common/settingsdialog.h"
#include "common/wheelguard.h"
#include "data/datapane.h"
#include "data/projectcontents.h"
#include "data/welcomepage.h"
#include "mainwindow.h"
#include "project/projectactions.h"
#include "project/projectsession.h"

using namespace fisura;
using fisura::ui::LanguageManager;

namespace
{
QStringList menuTitles(QMainWindow& w)
{
    QStringList t;
    for (QAction* a : w.menuBar()->actions())
        t << a->text();
    return t;
}
QStringList navTexts(QMainWindow& w)
{
    auto* nav = w.findChild<QListWidget*>(QStringLiteral("navigation"));
    QStringList t;
    for (int i = 0; i < nav->count(); ++i)
        t << nav->item(i)->text();
    return t;
}
} // namespace

class TstMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
    }
    void cleanup() { LanguageManager::instance().setLanguage(LanguageManager::Language::English); }

    void composesTheFivePanes()
    {
        app::MainWindow w;
        w.show();
        QStringList ids;
        for (auto* p : w.panes())
            ids << p->paneId();
        QCOMPARE(ids, (QStringList{QStringLiteral("data"), QStringLiteral("train"),
                                   QStringLiteral("analyze"), QStringLiteral("inspect"),
                                   QStringLiteral("system")}));
        QCOMPARE(navTexts(w), (QStringList{QStringLiteral("Data"), QStringLiteral("Train"),
                                           QStringLiteral("Analyze"), QStringLiteral("Inspect"),
                                           QStringLiteral("System")}));
        w.showPane(QStringLiteral("system"));
        QCOMPARE(w.currentPane()->paneId(), QStringLiteral("system"));
        // The device summary lands in the status bar once detection finishes.
        auto* device = w.findChild<QLabel*>(QStringLiteral("deviceLabel"));
        QTRY_VERIFY_WITH_TIMEOUT(!device->text().contains(QStringLiteral("Detecting")), 20000);
        QVERIFY(!device->text().isEmpty());
    }

    // A pane's message leaves the status bar when another pane is shown; the window's own stay.
    void paneMessageLeavesWithItsPane()
    {
        app::MainWindow w;
        w.show();
        w.showPane(QStringLiteral("inspect"));
        Q_EMIT w.pane(QStringLiteral("inspect"))->statusMessage(QStringLiteral("F1 0.5"), 0);
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("F1 0.5"));
        w.showPane(QStringLiteral("train"));
        QCOMPARE(w.statusBar()->currentMessage(), QString());
        // A message from the pane being shown stays while it is shown.
        Q_EMIT w.pane(QStringLiteral("train"))->statusMessage(QStringLiteral("Run saved"), 0);
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Run saved"));
        w.showPane(QStringLiteral("analyze"));
        QCOMPARE(w.statusBar()->currentMessage(), QString());
    }

    void languageSwitchesLiveEverywhere()
    {
        app::MainWindow w;
        w.show();
        QCOMPARE(menuTitles(w).first(), QStringLiteral("&File"));
        LanguageManager::instance().setLanguage(LanguageManager::Language::Spanish);
        QCOMPARE(LanguageManager::instance().effectiveLocale(), QStringLiteral("es"));
        QTRY_COMPARE(menuTitles(w).first(), QStringLiteral("&Archivo"));
        QCOMPARE(navTexts(w).first(), QStringLiteral("Datos"));
        QCOMPARE(navTexts(w).last(), QStringLiteral("Sistema"));
        QVERIFY(w.windowTitle().contains(QStringLiteral("fisuras")));
        // And back.
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
        QTRY_COMPARE(menuTitles(w).first(), QStringLiteral("&File"));
        QCOMPARE(navTexts(w).first(), QStringLiteral("Data"));
    }

    void preferencesDialogSwitchesAndRemembers()
    {
        app::MainWindow w;
        w.show();
        w.showPreferences();
        auto* dlg = w.findChild<ui::SettingsDialog*>();
        QVERIFY(dlg);
        QCOMPARE(dlg->languageBox()->count(), 3);
        dlg->languageBox()->setCurrentIndex(int(LanguageManager::Language::Spanish));
        QTRY_COMPARE(dlg->windowTitle(), QStringLiteral("Preferencias"));
        QCOMPARE(dlg->languageBox()->itemText(0), QStringLiteral("Idioma del sistema"));
        QCOMPARE(QSettings().value(QStringLiteral("ui/language")).toInt(),
                 int(LanguageManager::Language::Spanish));
        QTRY_COMPARE(menuTitles(w).at(2), QStringLiteral("&Configuración"));
    }

    // The first start (no project, nothing remembered): the window opens on the Data pane and
    // says what to do, with buttons that do it; "Open the demo project" leads to the project's
    // dataset, listed and browsed.
    void firstStartSaysWhatToDo()
    {
        QSettings().clear();
        app::MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(ui::WheelGuard::isInstalled());
        QCOMPARE(w.currentPane()->paneId(), QStringLiteral("data"));
        QVERIFY(w.dataPane()->isWelcomeShown());
        ui::WelcomePage* welcome = w.dataPane()->welcomePage();
        QVERIFY(welcome->isVisible());
        const QString grab = qEnvironmentVariable("FISURA_GRAB"); // pictures to look at
        if (!grab.isEmpty())
            w.grab().save(grab + QStringLiteral(".welcome.png"));
        for (int c = 0; c < ui::WelcomePage::ChoiceCount; ++c)
            QVERIFY(welcome->button(ui::WelcomePage::Choice(c))->isEnabled());
        // Its buttons are the window's own commands.
        QSignalSpy newProject(w.projectActions()->newAction(), &QAction::triggered);
        w.projectActions()->setFolderChooser([](const QString&) { return QString(); });
        welcome->button(ui::WelcomePage::NewProject)->click();
        QCOMPARE(newProject.count(), 1);

        synth::DemoDatasetOptions small;
        small.segmentationImages = 6;
        small.classificationImages = 2;
        small.patchSize = 64;
        small.scanSize = 0;
        w.projectActions()->setDemoOptions(small);
        QSignalSpy ready(w.projectActions(), &ui::ProjectActions::demoProjectReady);
        QTest::mouseClick(welcome->button(ui::WelcomePage::DemoProject), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
        QVERIFY(w.projectSession()->hasProject());
        QVERIFY(!w.dataPane()->isWelcomeShown());
        const QStringList datasets = w.dataPane()->projectContents()->datasetPaths();
        QVERIFY(!datasets.isEmpty());
        QVERIFY(datasets.contains(w.dataPane()->rootFolder()));
        if (!grab.isEmpty()) {
            QTest::qWait(500); // the file tree fills in the background
            w.grab().save(grab + QStringLiteral(".project.png"));
        }
        // Closing the project says what to do again.
        w.projectActions()->closeAction()->trigger();
        QVERIFY(w.dataPane()->isWelcomeShown());
    }

    void remembersCurrentPane()
    {
        {
            app::MainWindow w;
            w.showPane(QStringLiteral("inspect"));
            w.close();
        }
        app::MainWindow again;
        QCOMPARE(again.currentPane()->paneId(), QStringLiteral("inspect"));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
