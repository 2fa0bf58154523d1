// TrainController with two ranks on the CPU over gloo: rank 0 on the controller's thread, rank 1
// a real fisura-cli process (FISURA_CLI, the build's binary). A tiny job trains to the end and
// leaves no process behind; a cancel in the first epoch ends both at once and keeps the model
// already there; a missing program is refused before anything starts; a peer that dies fails the
// run at once with its exit code and its last words; pause reaches the peer and the run resumes
// on one process; closing (cancelAndWait) leaves no process behind.
#include <QtTest>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <filesystem>

#include "fisura/distributed.h"
#include "fisura/project.h"
#include "fisura/synth.h"
#include "project/projectsession.h"
#include "train/peerranks.h"
#include "train/traincontroller.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{

QByteArray digest(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class TstTrainRanks : public QObject
{
    Q_OBJECT
    QTemporaryDir tmp_;
    QString data_;
    QString finishedModel_; // the model of the first test, for the cancel test
    int projects_ = 0;

    void newProject(ProjectSession& session)
    {
        const QString dir = tmp_.filePath(QStringLiteral("project-%1").arg(++projects_));
        QVERIFY(session.newProject(dir, QStringLiteral("Test")));
    }

    TrainOptions tinyJob(int epochs) const
    {
        TrainOptions o;
        o.task = TaskKind::Segment;
        o.dataDir = data_.toStdString();
        o.epochs = epochs;
        o.batchSize = 2;
        o.precision = Precision::FP32;
        o.preferCpu = true;
        o.model.inputSize = 32;
        o.model.depth = 2;
        o.model.width = 4;
        o.patience = 0;
        o.loaderThreads = 1;
        return o;
    }

    void useCli() { qputenv("FISURA_CLI", QByteArrayLiteral(FISURA_CLI_PATH)); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (distributedBackends().find("gloo") == std::string::npos)
            QSKIP("this LibTorch has no gloo: several processes cannot train on the CPU");
        QVERIFY(tmp_.isValid());
        synth::DemoDatasetOptions demo;
        demo.segmentationImages = 8;
        demo.classificationImages = 0;
        demo.patchSize = 32;
        demo.scanSize = 0;
        const QString root = tmp_.filePath(QStringLiteral("demo"));
        auto written = synth::writeDemoDataset(root.toStdString(), demo);
        QVERIFY2(written, written.status().toString().c_str());
        data_ = root + QStringLiteral("/segmentation");
        qputenv("FISURA_DIST_TIMEOUT", "60"); // a hang fails the test instead of waiting 300 s
    }

    void twoRanksTrainTogether()
    {
        useCli();
        ProjectSession session;
        newProject(session);
        TrainController c;
        c.setProjectSession(&session);
        c.setRanks(2);
        QSignalSpy started(&c, &TrainController::trainStarted);
        QSignalSpy epochs(&c, &TrainController::epochDone);
        QSignalSpy finished(&c, &TrainController::finished);
        const Status s = c.start(tinyJob(2), QString());
        QVERIFY2(s, s.toString().c_str());
        QCOMPARE(c.peers()->running(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const auto status = finished.at(0).at(1).value<Status>();
        QVERIFY2(status, status.toString().c_str());
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.at(0).at(0).value<TrainStarted>().worldSize, 2);
        QCOMPARE(epochs.count(), 2);
        const ProjectRun* run = session.project().findRun(c.runId().toStdString());
        QVERIFY(run);
        QCOMPARE(run->state, RunState::Finished);
        QCOMPARE(int(run->history.size()), 2);
        finishedModel_ = QString::fromStdString(run->modelPath);
        QVERIFY(QFileInfo::exists(finishedModel_));
        QTRY_COMPARE_WITH_TIMEOUT(c.peers()->running(), 0, 5000);
    }

    void cancelEndsBothAndKeepsTheModel()
    {
        if (finishedModel_.isEmpty())
            QSKIP("needs the model of twoRanksTrainTogether");
        useCli();
        ProjectSession session;
        newProject(session);
        // An earlier best model at the run's model path: a cancel in epoch 1 must not touch it.
        const QString keep = tmp_.filePath(QStringLiteral("kept/best.fisura"));
        QVERIFY(QDir().mkpath(QFileInfo(keep).path()));
        QVERIFY(QFile::copy(finishedModel_, keep));
        const QByteArray before = digest(keep);
        TrainOptions o = tinyJob(500);
        o.outPath = keep.toStdString();
        TrainController c;
        c.setProjectSession(&session);
        c.setRanks(2);
        QSignalSpy batches(&c, &TrainController::batchDone);
        QSignalSpy epochs(&c, &TrainController::epochDone);
        QSignalSpy finished(&c, &TrainController::finished);
        QVERIFY(c.start(o, QString()));
        QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 1, 30000);
        QElapsedTimer clock;
        clock.start();
        c.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 3000);
        QTRY_COMPARE_WITH_TIMEOUT(c.peers()->running(), 0, 3000);
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(finished.at(0).at(1).value<Status>());
        const ProjectRun* run = session.project().findRun(c.runId().toStdString());
        QCOMPARE(run->state, RunState::Cancelled);
        if (epochs.isEmpty()) // the first epoch did not end: nothing was written over it
            QCOMPARE(digest(keep), before);
        const QStringList left = QDir(QFileInfo(keep).path()).entryList(QDir::Files);
        for (const QString& f : left) // no temporaries left
            QVERIFY2(f.startsWith(QStringLiteral("best.fisura")), qPrintable(f));
    }

    void pauseReachesThePeerAndTheRunResumesOnOne()
    {
        useCli();
        ProjectSession session;
        newProject(session);
        TrainController c;
        c.setProjectSession(&session);
        c.setRanks(2);
        QSignalSpy finished(&c, &TrainController::finished);
        QVERIFY(c.start(tinyJob(2), QString()));
        c.pause(); // rank 0 decides at the end of epoch 1 and tells the peer
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.at(0).at(1).value<Status>());
        const std::string id = c.runId().toStdString();
        QCOMPARE(session.project().findRun(id)->state, RunState::Paused);
        QCOMPARE(int(session.project().findRun(id)->history.size()), 1);
        QTRY_COMPARE_WITH_TIMEOUT(c.peers()->running(), 0, 5000);
        // The checkpoint does not depend on how many processes wrote it.
        c.setRanks(1);
        QVERIFY(c.resume(c.runId()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QVERIFY(finished.at(1).at(1).value<Status>());
        QCOMPARE(session.project().findRun(id)->state, RunState::Finished);
        QCOMPARE(int(session.project().findRun(id)->history.size()), 2);
    }

    void closingLeavesNoChildBehind()
    {
        useCli();
        ProjectSession session;
        newProject(session);
        QList<qint64> pids;
        QString runId;
        {
            TrainController c;
            c.setProjectSession(&session);
            c.setRanks(2);
            QSignalSpy batches(&c, &TrainController::batchDone);
            QVERIFY(c.start(tinyJob(500), QString()));
            QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 1, 30000);
            pids = c.peers()->processIds();
            runId = c.runId();
            QElapsedTimer clock;
            clock.start();
            c.cancelAndWait(); // what the window does when it closes
            QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
            QCOMPARE(c.peers()->running(), 0);
        }
        QCOMPARE(pids.size(), 1);
        for (qint64 pid : pids) // reaped, not a zombie
            QVERIFY2(!QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid)),
                     qPrintable(QString::number(pid)));
        QCOMPARE(session.project().findRun(runId.toStdString())->state, RunState::Cancelled);
    }

    void missingProgramStartsNothing()
    {
        qputenv("FISURA_CLI", QFile::encodeName(tmp_.filePath(QStringLiteral("no-such-cli"))));
        ProjectSession session;
        newProject(session);
        TrainController c;
        c.setProjectSession(&session);
        c.setRanks(2);
        QSignalSpy finished(&c, &TrainController::finished);
        const Status s = c.start(tinyJob(1), QString());
        QVERIFY(!s);
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QVERIFY2(QString::fromStdString(s.detail()).contains(QStringLiteral("FISURA_CLI")),
                 s.detail().c_str());
        QVERIFY(!c.isRunning());
        QCOMPARE(c.peers()->running(), 0);
        QVERIFY(session.project().runs().empty()); // no run was recorded
        QCOMPARE(finished.count(), 0);
    }

    void deadPeerFailsTheRunPromptly()
    {
        const QString script = tmp_.filePath(QStringLiteral("dying-cli.sh"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho 'fisura-cli: the peer cannot go on' >&2\nexit 3\n");
        f.close();
        QVERIFY(f.setPermissions(f.permissions() | QFile::ExeOwner));
        qputenv("FISURA_CLI", QFile::encodeName(script));
        ProjectSession session;
        newProject(session);
        TrainController c;
        c.setProjectSession(&session);
        c.setRanks(2);
        QSignalSpy finished(&c, &TrainController::finished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(c.start(tinyJob(500), QString()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        const auto status = finished.at(0).at(1).value<Status>();
        QVERIFY(!status);
        QCOMPARE(status.code(), ErrorCode::DeviceError);
        const QString why = QString::fromStdString(status.detail());
        QVERIFY2(why.contains(QStringLiteral("exit code 3")), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("the peer cannot go on")), qPrintable(why));
        const ProjectRun* run = session.project().findRun(c.runId().toStdString());
        QCOMPARE(run->state, RunState::Failed);
        QVERIFY(!c.isRunning());
    }

    void cleanupTestCase() { qunsetenv("FISURA_CLI"); }
};

QTEST_MAIN(TstTrainRanks)
#include "tst_trainranks.moc"
