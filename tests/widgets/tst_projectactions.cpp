// The File menu's project commands: the demo project is generated on first use (cancellable,
// nothing half-made), reopened afterwards, and New / Open / Save As report failures in words.
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWidget>

#include "project/projectactions.h"
#include "project/projectsession.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{
synth::DemoDatasetOptions tinyDemo()
{
    synth::DemoDatasetOptions o;
    o.segmentationImages = 4;
    o.classificationImages = 2;
    o.patchSize = 64;
    o.scanSize = 0;
    return o;
}
} // namespace

class TstProjectActions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }

    void demoProjectIsMadeOnceThenReopened()
    {
        QTemporaryDir tmp;
        QWidget parent;
        ProjectSession session;
        ProjectActions actions(&session, &parent);
        QSignalSpy ready(&actions, &ProjectActions::demoProjectReady);
        const QString dir = tmp.filePath(QStringLiteral("demo"));
        actions.openDemoProject(dir, tinyDemo());
        QVERIFY(actions.isGeneratingDemo());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(session.hasProject());
        QCOMPARE(session.projectDir(), dir);
        const auto& ds = session.project().datasets();
        QCOMPARE(ds.size(), size_t(2));
        // The newest dataset (the one the Train pane preselects) is the segmentation set.
        QCOMPARE(ds.back().task, TaskKind::Segment);
        QVERIFY(QFileInfo::exists(QString::fromStdString(ds.back().path)));
        QVERIFY(actions.saveAsAction()->isEnabled());

        session.closeProject();
        actions.openDemoProject(dir, tinyDemo()); // exists now: opened at once, no job
        QVERIFY(!actions.isGeneratingDemo());
        QCOMPARE(ready.count(), 2);
        QCOMPARE(session.project().datasets().size(), size_t(2));
    }

    void cancelledDemoLeavesNoProject()
    {
        QTemporaryDir tmp;
        QWidget parent;
        ProjectSession session;
        ProjectActions actions(&session, &parent);
        QSignalSpy failed(&actions, &ProjectActions::failed);
        QSignalSpy ready(&actions, &ProjectActions::demoProjectReady);
        const QString dir = tmp.filePath(QStringLiteral("demo"));
        synth::DemoDatasetOptions big = tinyDemo();
        big.segmentationImages = 400;
        actions.openDemoProject(dir, big);
        actions.cancelDemo();
        QTRY_VERIFY(!actions.isGeneratingDemo());
        QCOMPARE(ready.count(), 0);
        QCOMPARE(failed.count(), 0); // cancelling is not an error to report
        QVERIFY(!session.hasProject());
        QVERIFY(!QFileInfo::exists(QDir(dir).filePath(QStringLiteral("project.json"))));
    }

    void newOpenAndSaveAsThroughTheActions()
    {
        QTemporaryDir tmp;
        QWidget parent;
        ProjectSession session;
        ProjectActions actions(&session, &parent);
        QSignalSpy failed(&actions, &ProjectActions::failed);
        QString answer = tmp.filePath(QStringLiteral("site"));
        actions.setFolderChooser([&answer](const QString&) { return answer; });

        actions.newAction()->trigger();
        QVERIFY(session.hasProject());
        QCOMPARE(session.projectName(), QStringLiteral("site"));

        // The same folder again: refused with a message that names it.
        actions.newAction()->trigger();
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.last().first().toString().contains(QDir::toNativeSeparators(answer)));

        answer = tmp.filePath(QStringLiteral("copy"));
        actions.saveAsAction()->trigger();
        QCOMPARE(session.projectDir(), answer);

        answer = tmp.filePath(QStringLiteral("missing"));
        actions.openAction()->trigger();
        QCOMPARE(failed.count(), 2);
        QCOMPARE(session.projectDir(), tmp.filePath(QStringLiteral("copy")));

        answer.clear(); // the user cancelled the dialog: nothing happens
        actions.openAction()->trigger();
        QCOMPARE(failed.count(), 2);

        // Recent projects: newest first, each one opens.
        actions.recentMenu()->aboutToShow();
        const auto recent = actions.recentMenu()->actions();
        QVERIFY(recent.size() >= 2);
        QVERIFY(recent.first()->text().endsWith(QStringLiteral("copy")));
        recent.last()->trigger();
        QCOMPARE(session.projectName(), QStringLiteral("site"));
    }

    void newerSchemaAndMovedPathsAreExplained()
    {
        QTemporaryDir tmp;
        QWidget parent;
        ProjectSession session;
        ProjectActions actions(&session, &parent);
        actions.setFolderChooser([](const QString&) { return QString(); });
        QSignalSpy failed(&actions, &ProjectActions::failed);
        QSignalSpy missing(&actions, &ProjectActions::missingPaths);

        const QString newer = tmp.filePath(QStringLiteral("newer"));
        QDir().mkpath(newer);
        QFile f(QDir(newer).filePath(QStringLiteral("project.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "fisura-project", "schema": 9, "name": "Future"})");
        f.close();
        QVERIFY(!actions.openProject(newer));
        QCOMPARE(failed.count(), 1);
        const QString text = failed.last().first().toString();
        QVERIFY2(text.contains(QStringLiteral("newer version of Fisura")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("schema 9")) && text.contains(QStringLiteral("schema 1")),
                 qPrintable(text));
        QVERIFY(!session.hasProject());

        // A dataset folder that moved away: the project opens and the path is listed.
        const QString dir = tmp.filePath(QStringLiteral("p"));
        auto p = Project::create(dir.toStdString(), "p");
        QVERIFY(p.isOk());
        p->addDataset(tmp.filePath(QStringLiteral("gone")).toStdString(), TaskKind::Segment);
        QVERIFY(p->save());
        QVERIFY(actions.openProject(dir));
        QCOMPARE(missing.count(), 1);
        const QStringList lines = missing.last().first().toStringList();
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines.first().contains(QStringLiteral("gone")));
        QVERIFY(lines.first().startsWith(QStringLiteral("dataset")));
    }
};

QTEST_MAIN(TstProjectActions)
#include "tst_projectactions.moc"
