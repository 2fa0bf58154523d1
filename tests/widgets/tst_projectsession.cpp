// The window's project session: signals for new/open/Save As/close, the recent-projects list
// (order, limit, pruning) and update() undoing an edit whose save failed.
#include <QtTest>

#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "fisura/testing.h"
#include "project/projectsession.h"

using namespace fisura;
using namespace fisura::ui;

class TstProjectSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().remove(QStringLiteral("project/recent")); }

    void newOpenSaveAsCloseSignal()
    {
        QTemporaryDir tmp;
        ProjectSession session;
        QSignalSpy changed(&session, &ProjectSession::projectChanged);
        QSignalSpy content(&session, &ProjectSession::contentChanged);
        QVERIFY(!session.hasProject());
        QVERIFY(session.projectDir().isEmpty());
        QCOMPARE(session.update([](Project&) {}).code(), ErrorCode::InvalidArgument);
        QCOMPARE(session.saveAs(tmp.filePath(QStringLiteral("x"))).code(),
                 ErrorCode::InvalidArgument);

        const QString a = tmp.filePath(QStringLiteral("a"));
        QVERIFY(session.newProject(a, QStringLiteral("Tunnel")));
        QCOMPARE(changed.count(), 1);
        QVERIFY(session.hasProject());
        QCOMPARE(session.projectDir(), a);
        QCOMPARE(session.projectName(), QStringLiteral("Tunnel"));
        // A folder that already holds a project: refused, nothing changes.
        QCOMPARE(session.newProject(a, QStringLiteral("Again")).code(), ErrorCode::InvalidArgument);
        QCOMPARE(changed.count(), 1);

        QVERIFY(session.update([](Project& p) { p.addDataset("/data/t", TaskKind::Segment); }));
        QCOMPARE(content.count(), 1);
        QCOMPARE(changed.count(), 1);

        const QString b = tmp.filePath(QStringLiteral("b"));
        QVERIFY(session.saveAs(b));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(session.projectDir(), b);
        QCOMPARE(session.project().datasets().size(), size_t(1));

        session.closeProject();
        QCOMPARE(changed.count(), 3);
        QVERIFY(!session.hasProject());
        session.closeProject(); // nothing open: no signal
        QCOMPARE(changed.count(), 3);

        QVERIFY(session.openProject(a + QStringLiteral("/project.json")));
        QCOMPARE(changed.count(), 4);
        QCOMPARE(session.projectDir(), a);
        QCOMPARE(session.openProject(tmp.filePath(QStringLiteral("none"))).code(),
                 ErrorCode::NotFound);
        QCOMPARE(changed.count(), 4);
        QCOMPARE(session.projectDir(), a); // still the one that was open
    }

    void recentListIsNewestFirstLimitedAndPruned()
    {
        QTemporaryDir tmp;
        ProjectSession session;
        QStringList dirs;
        for (int i = 0; i < 10; ++i) {
            dirs.append(tmp.filePath(QStringLiteral("p%1").arg(i)));
            QVERIFY(session.newProject(dirs.back(), QString()));
        }
        QStringList expected;
        for (int i = 9; i >= 2; --i)
            expected.append(dirs[i]);
        QCOMPARE(session.recentProjects(), expected);

        // Opening an older one moves it to the front.
        QVERIFY(session.openProject(dirs[5]));
        expected.removeAll(dirs[5]);
        expected.prepend(dirs[5]);
        QCOMPARE(session.recentProjects(), expected);

        // A project deleted from the disk disappears from the list.
        QVERIFY(QDir(dirs[7]).removeRecursively());
        expected.removeAll(dirs[7]);
        QCOMPARE(session.recentProjects(), expected);

        // Another session (the next start of the application) sees the same list.
        ProjectSession later;
        QCOMPARE(later.recentProjects(), expected);
    }

    void failedSaveUndoesTheEdit()
    {
        QTemporaryDir tmp;
        ProjectSession session;
        QVERIFY(session.newProject(tmp.filePath(QStringLiteral("p")), QStringLiteral("Deck")));
        QSignalSpy failed(&session, &ProjectSession::saveFailed);
        QSignalSpy content(&session, &ProjectSession::contentChanged);
        testing::failNextProjectSaveAt(2);
        const Status s = session.update([](Project& p) {
            p.setName("Renamed");
            p.addDataset("/data/x", TaskKind::Classify);
        });
        QVERIFY(!s);
        QCOMPARE(s.code(), ErrorCode::IoError);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).value<fisura::Status>().code(), ErrorCode::IoError);
        QCOMPARE(content.count(), 0);
        QCOMPARE(session.projectName(), QStringLiteral("Deck")); // shown = on disk
        QVERIFY(session.project().datasets().empty());
        auto onDisk = Project::open(session.projectDir().toStdString());
        QVERIFY(onDisk);
        QCOMPARE(QString::fromStdString(onDisk->name()), QStringLiteral("Deck"));

        QVERIFY(session.update([](Project& p) { p.setName("Renamed"); }));
        QCOMPARE(content.count(), 1);
        QCOMPARE(QString::fromStdString(Project::open(session.projectDir().toStdString())->name()),
                 QStringLiteral("Renamed"));
    }

    void demoProjectLivesInAppData()
    {
        const QString dir = ProjectSession::demoProjectDir();
        QVERIFY(
            dir.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)));
        QVERIFY(dir.endsWith(QStringLiteral("/demo-project")));
    }
};

QTEST_MAIN(TstProjectSession)
#include "tst_projectsession.moc"
