// After switching to Spanish, every widget of every pane that a person can see is walked: no
// visible text may still be an English source string that has a Spanish translation — text
// that starts in core (policy reasons, CUDA state, errors, notices) included.
#include <QtTest>

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "analyze/analyzepane.h"
#include "common/languagemanager.h"
#include "common/settingsdialog.h"
#include "data/datapane.h"
#include "data/labelranking.h"
#include "data/labelstatuspanel.h"
#include "demoproject.h"
#include "fisura/project.h"
#include "fisura/synth.h"
#include "fisura/train.h"
#include "inspect/inspectpane.h"
#include "label/labelpanel.h"
#include "mainwindow.h"
#include "project/projectactions.h"
#include "project/projectsession.h"
#include "system/systempane.h"
#include "train/trainpane.h"
#include "uiwalk.h"

using namespace fisura;
using fisura::ui::LanguageManager;

class TstSpanishWalk : public QObject
{
    Q_OBJECT
    QSet<QString> sources_;
    QTemporaryDir tmp_;
    QString project_;

    void expectSpanish(QWidget* root, const QString& where)
    {
        const QStringList bad = uiwalk::untranslated(root, sources_);
        if (!bad.isEmpty())
            qWarning().noquote() << where << "shows English:\n  "
                                 << bad.join(QStringLiteral("\n  "));
        QVERIFY2(bad.isEmpty(),
                 qPrintable(where + QStringLiteral(": ") + bad.join(QStringLiteral("; "))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        sources_ = uiwalk::translatedSources(
            QStringLiteral(FISURA_SOURCE_DIR "/translations/fisura_es.ts"));
        QVERIFY(sources_.size() > 500);
        // A project with a finished run, so results, runs and policies are on screen.
        project_ = tmp_.filePath(QStringLiteral("demo"));
        QVERIFY(demoproject::make(project_, 384, true));
    }

    void everyPaneInSpanish()
    {
        LanguageManager::instance().setLanguage(LanguageManager::Language::Spanish);
        QSettings().setValue(QStringLiteral("project/reopen"), false);
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Opening a project shows its newest run: curves, and results once evaluated.
        QSignalSpy shown(w.trainPane(), &ui::TrainPane::resultsShown);
        QVERIFY(w.projectSession()->openProject(project_));
        // Facts arrive in the background: wait for the System pane's machine.
        QTRY_VERIFY_WITH_TIMEOUT(w.systemPane()->hasMachine(), 20000);

        w.showPane(QStringLiteral("data"));
        expectSpanish(&w, QStringLiteral("Data"));

        w.showPane(QStringLiteral("train"));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, 30000);
        expectSpanish(&w, QStringLiteral("Train"));

        w.showPane(QStringLiteral("analyze"));
        const QString scan = QDir(project_).filePath(QStringLiteral("data/scan/demo_scan.tif"));
        w.analyzePane()->addScans({scan});
        QSignalSpy done(w.analyzePane(), &ui::AnalyzePane::queueFinished);
        QVERIFY(w.analyzePane()->run());
        QTRY_VERIFY_WITH_TIMEOUT(done.count() > 0, 60000);
        expectSpanish(&w, QStringLiteral("Analyze"));

        w.showPane(QStringLiteral("inspect"));
        QVERIFY(w.analyzePane()->openSelectedInInspect());
        QTRY_VERIFY_WITH_TIMEOUT(w.inspectPane()->comparison() != nullptr, 30000);
        expectSpanish(&w, QStringLiteral("Inspect"));

        // Labelling the scan: the Label section, its tools and "Propose labels" with the model.
        w.inspectPane()->setProjectSession(w.projectSession());
        w.inspectPane()->startLabelling(scan, {scan});
        QVERIFY(w.inspectPane()->labelPanel()->isLabelling());
        expectSpanish(&w, QStringLiteral("Inspect, labelling"));

        w.showPane(QStringLiteral("system"));
        expectSpanish(&w, QStringLiteral("System"));

        w.showPreferences();
        auto* dlg = w.findChild<ui::SettingsDialog*>();
        QVERIFY(dlg);
        expectSpanish(dlg, QStringLiteral("Preferences"));
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
    }

    void labelStatesAndRankingInSpanish()
    {
        // The Data pane's label states of a segmentation dataset and "Label next".
        LanguageManager::instance().setLanguage(LanguageManager::Language::Spanish);
        QSettings().setValue(QStringLiteral("project/reopen"), false);
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.projectSession()->openProject(project_));
        w.dataPane()->setProjectSession(w.projectSession());
        w.showPane(QStringLiteral("data"));
        w.dataPane()->showLabels(QDir(project_).filePath(QStringLiteral("data/segmentation")));
        QTRY_VERIFY(w.dataPane()->labelPanel()->hasStatus());
        expectSpanish(&w, QStringLiteral("Data: labels"));
        auto* tabs = w.dataPane()->findChild<QTabWidget*>(QStringLiteral("dataTabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(w.dataPane()->rankingPanel());
        expectSpanish(&w, QStringLiteral("Data: label next"));
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
    }
};

QTEST_MAIN(TstSpanishWalk)
#include "tst_spanishwalk.moc"
