// The run recorder that `fisura-cli train --project` and the Train pane share: a run killed
// mid-way leaves its epochs and notices so far in project.json; notices in a burst are saved
// together; the end keeps the notices of earlier sessions of a resumed run; failed saves are
// reported.
#include <QtTest>

#include <QTemporaryDir>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fisura/runrecorder.h"
#include "fisura/testing.h"
#include "project_fixtures.h"

using namespace fisura;
using namespace fisura::test;

namespace
{

TrainOptions options(const QTemporaryDir& dir)
{
    TrainOptions o;
    o.dataDir = dir.filePath(QStringLiteral("data")).toStdString();
    return o;
}

/// project.json as it is on disk now.
Project onDisk(const std::string& dir)
{
    auto p = Project::open(dir);
    if (!p)
        qFatal("%s", p.status().toString().c_str());
    return std::move(*p);
}

TrainResult resultWith(std::vector<std::string> notices)
{
    TrainResult t;
    t.notices = std::move(notices);
    return t;
}

} // namespace

class TstRunRecorder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedRunLeavesNoticesAndEpochs()
    {
        QTemporaryDir dir;
        const std::string projectDir = dir.filePath(QStringLiteral("p")).toStdString();
        QVERIFY(Project::create(projectDir, "killed"));
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) { // records part of a run, then dies as kill -9 would kill it
            auto p = Project::open(projectDir);
            if (!p)
                ::_exit(2);
            RunRecorder rec(*p);
            rec.setNoticeSaveInterval(std::chrono::milliseconds(0)); // bursts: see below
            TrainOptions o = options(dir);
            if (!rec.begin(o))
                ::_exit(2);
            rec.notice("split_reused", "/data/split.json");
            rec.epoch(fullMetrics(0));
            rec.notice("out_of_memory", "out of memory with a batch of 64; retrying with 32");
            ::raise(SIGKILL);
            ::_exit(3);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        const Project p = onDisk(projectDir);
        QCOMPARE(int(p.runs().size()), 1);
        const ProjectRun& r = p.runs().front();
        QCOMPARE(r.state, RunState::Running);
        QCOMPARE(int(r.history.size()), 1);
        QCOMPARE(int(r.notices.size()), 2);
        QCOMPARE(q(r.notices.front()), QStringLiteral("split_reused: /data/split.json"));
        QVERIFY(q(r.notices.back()).startsWith(QStringLiteral("out_of_memory: ")));
    }

    void everyNoticeIsSavedWithoutAnInterval()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "n");
        QVERIFY(p);
        RunRecorder rec(*p);
        rec.setNoticeSaveInterval(std::chrono::milliseconds(0));
        TrainOptions o = options(dir);
        auto id = rec.begin(o);
        QVERIFY(id);
        QCOMPARE(q(rec.runId()), q(*id));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(rec.notice("skipped_file", "f" + std::to_string(i) + ".png: corrupt"));
            QCOMPARE(int(onDisk(p->dir()).findRun(*id)->notices.size()), i + 1);
        }
    }

    void noticesInABurstAreSavedWithTheNextSave()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "burst");
        QVERIFY(p);
        RunRecorder rec(*p);
        rec.setNoticeSaveInterval(std::chrono::hours(1));
        TrainOptions o = options(dir);
        const std::string id = *rec.begin(o);
        rec.notice("skipped_file", "a.png: corrupt"); // the first: saved at once
        rec.notice("skipped_file", "b.png: corrupt"); // within the interval: with the next save
        QCOMPARE(int(onDisk(p->dir()).findRun(id)->notices.size()), 1);
        QVERIFY(rec.epoch(fullMetrics(0)));
        const Project after = onDisk(p->dir());
        const ProjectRun* r = after.findRun(id);
        QCOMPARE(int(r->notices.size()), 2);
        QCOMPARE(q(r->notices.back()), QStringLiteral("skipped_file: b.png: corrupt"));
        QCOMPARE(int(r->history.size()), 1);
    }

    void finishKeepsEarlierSessionsNotices()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "resume");
        QVERIFY(p);
        RunRecorder rec(*p);
        TrainOptions o = options(dir);
        const std::string id = *rec.begin(o);
        rec.notice("split_reused", "s.json");
        TrainResult paused = resultWith({"split_reused: s.json", "paused: stopped after epoch 1"});
        paused.paused = true;
        QVERIFY(rec.finish(paused));
        QVERIFY(rec.runId().empty());
        QCOMPARE(int(onDisk(p->dir()).findRun(id)->notices.size()), 2);

        TrainOptions again;
        QVERIFY(rec.resume(id, again));
        QCOMPARE(q(again.resumeFrom), q(o.checkpointPath));
        rec.notice("resumed", "continuing after epoch 1");
        QVERIFY(rec.finish(resultWith({"resumed: continuing after epoch 1"})));
        const Project done = onDisk(p->dir());
        const ProjectRun* r = done.findRun(id);
        QCOMPARE(r->state, RunState::Finished);
        QCOMPARE(int(r->notices.size()), 3);
        QCOMPARE(q(r->notices.back()), QStringLiteral("resumed: continuing after epoch 1"));

        // A failed session keeps what it recorded, and says why it failed.
        QVERIFY(rec.resume(id, again));
        rec.notice("out_of_memory", "retrying with 16");
        QVERIFY(rec.finish(Status(ErrorCode::DeviceError, "the GPU fell off the bus")));
        const Project afterFailure = onDisk(p->dir());
        const ProjectRun* failed = afterFailure.findRun(id);
        QCOMPARE(failed->state, RunState::Failed);
        QCOMPARE(int(failed->notices.size()), 4);
        QCOMPARE(q(failed->errorDetail), QStringLiteral("the GPU fell off the bus"));
    }

    void resumeWithoutCheckpointIsRefused()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "r");
        QVERIFY(p);
        RunRecorder rec(*p);
        TrainOptions o;
        QCOMPARE(rec.resume("run-none", o).code(), ErrorCode::Corrupt);
        QVERIFY(rec.runId().empty());
    }

    // Through a store (as the GUI's session): every change is one edit and one save, and a save
    // that fails is the answer.
    void storeSeesEveryChangeAndItsFailure()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "store");
        QVERIFY(p);
        int saves = 0;
        bool fail = false;
        RunRecorder rec([&](const std::function<void(Project&)>& edit) -> Status {
            ++saves;
            if (fail)
                return Status(ErrorCode::IoError, "disk full");
            edit(*p);
            return p->save();
        });
        rec.setNoticeSaveInterval(std::chrono::milliseconds(0));
        TrainOptions o = options(dir);
        const std::string id = *rec.begin(o);
        QVERIFY(rec.notice("a", "1"));
        QVERIFY(rec.epoch(fullMetrics(0)));
        QCOMPARE(saves, 3);
        fail = true;
        QCOMPARE(rec.notice("b", "2").code(), ErrorCode::IoError);
        QCOMPARE(rec.epoch(fullMetrics(1)).code(), ErrorCode::IoError);
        fail = false;
        QVERIFY(rec.finish(resultWith({"a: 1"})));
        QCOMPARE(onDisk(p->dir()).findRun(id)->state, RunState::Finished);
        // A failed save of the project file itself.
        QTemporaryDir dir2;
        auto p2 = Project::create(dir2.filePath(QStringLiteral("p")).toStdString(), "f");
        QVERIFY(p2);
        RunRecorder rec2(*p2);
        TrainOptions o2 = options(dir2);
        QVERIFY(rec2.begin(o2));
        testing::failNextProjectSaveAt(0);
        QVERIFY(!rec2.epoch(fullMetrics(0)));
        testing::failNextProjectSaveAt(-1);
    }
};

QTEST_GUILESS_MAIN(TstRunRecorder)
#include "tst_runrecorder.moc"
