// Projects: project.json round trips, path rules, atomic saves that survive interruption, refusal
// of newer or broken files, run records for every way a run ends, and Save As.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <fstream>

#include "fisura/project.h"
#include "fisura/testing.h"
#include "project_fixtures.h"

using namespace fisura;
using namespace fisura::test;

namespace
{

std::string path(const QTemporaryDir& d, const QString& rel)
{
    return QDir(d.path()).filePath(rel).toStdString();
}

void touch(const std::string& p)
{
    QDir().mkpath(QFileInfo(q(p)).path());
    std::ofstream(p) << "x";
}

QJsonObject readJson(const std::string& file)
{
    QFile f(q(file));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool sameJson(const std::string& a, const std::string& b)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(a)) ==
           QJsonDocument::fromJson(QByteArray::fromStdString(b));
}

void writeText(const std::string& file, const QByteArray& text)
{
    QFile f(q(file));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

TrainResult resultWith(double seconds)
{
    TrainResult r;
    r.history = {fullMetrics(0), fullMetrics(1)};
    r.bestEpoch = 1;
    r.best = r.history[1];
    r.notices = {"early_stop: no improvement"};
    r.policy.batchSize = 12;
    r.policy.choices.push_back({"batch_size", "12", "measured", "batch_measured", "12"});
    r.seconds = seconds;
    return r;
}

} // namespace

class TstProject : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripKeepsEveryField()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "Bridge deck");
        QVERIFY2(p, p.status().toString().c_str());
        QCOMPARE(q(p->name()), QStringLiteral("Bridge deck"));
        for (const char* sub : {"models", "runs", "maps"})
            QVERIFY(QFileInfo(q(p->dir() + "/" + sub)).isDir());

        const std::string dsId = p->addDataset("/data/deck", TaskKind::Segment, "Deck");
        QCOMPARE(p->addDataset("/data/deck/", TaskKind::Segment), dsId); // same path: same id
        QVERIFY(p->addDataset("/data/deck", TaskKind::Anomaly) != dsId);
        ProjectDataset& d = *p->findDataset(dsId);
        d.splitPath = p->dir() + "/runs/split.json";
        d.summaryJson = R"({"items":12,"classes":["a","b"]})";

        TrainOptions o = fullOptions();
        const std::string runId = p->beginRun(o, dsId);
        ProjectRun& r = *p->findRun(runId);
        r.policyJson = R"({"batch_size":12})";
        r.history = {fullMetrics(0), fullMetrics(1)};
        r.notices = {"resumed: from epoch 1"};
        r.state = RunState::Paused;
        r.endedAt = "2026-11-26T10:20:00Z";
        r.bestEpoch = 1;
        r.bestScore = 0.75;
        r.threshold = 0.4;
        r.errorCode = "io_error";
        r.errorDetail = "disk";
        r.seconds = 12.5;

        ProjectScan s;
        s.input = "/scans/deck.tif";
        s.modelPath = p->modelsDir() + "/m.fisura";
        s.runId = runId;
        s.mapPath = p->mapsDir() + "/deck.probability.tif";
        s.truthPath = "/scans/deck.mask.tif";
        s.width = 20000;
        s.height = 30000;
        s.statsJson = R"({"tiles":42})";
        s.scoreJson = R"({"iou":0.5})";
        s.analysedAt = "2026-11-26T10:30:00Z";
        const std::string scanId = p->recordScan(s);
        s.width = 20001; // same input and model: replaced, same id
        QCOMPARE(p->recordScan(s), scanId);
        QCOMPARE(p->scans().size(), size_t(1));
        QVERIFY(p->save());

        auto back = Project::open(p->dir());
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(q(back->toJson()), q(p->toJson()));
        QCOMPARE(q(back->name()), QStringLiteral("Bridge deck"));
        QCOMPARE(q(back->createdAt()), q(p->createdAt()));
        QCOMPARE(back->datasets().size(), size_t(2));
        const ProjectDataset& bd = back->datasets()[0];
        QCOMPARE(q(bd.id), q(dsId));
        QCOMPARE(q(bd.name), QStringLiteral("Deck"));
        QCOMPARE(q(bd.path), QStringLiteral("/data/deck"));
        QCOMPARE(bd.task, TaskKind::Segment);
        QCOMPARE(q(bd.splitPath), q(d.splitPath));
        QVERIFY(sameJson(bd.summaryJson, d.summaryJson));
        QVERIFY(!bd.addedAt.empty());

        const ProjectRun& br = back->runs()[0];
        QCOMPARE(q(br.id), q(runId));
        QCOMPARE(q(br.datasetId), q(dsId));
        QCOMPARE(q(br.datasetPath), QStringLiteral("/data/sdnet"));
        QCOMPARE(br.task, TaskKind::Classify);
        QCOMPARE(q(br.optionsJson), q(r.optionsJson));
        QVERIFY(sameJson(br.policyJson, r.policyJson));
        QCOMPARE(br.history.size(), size_t(2));
        compareMetrics(br.history[0], r.history[0]);
        compareMetrics(br.history[1], r.history[1]);
        QCOMPARE(br.notices, r.notices);
        QCOMPARE(q(br.modelPath), QStringLiteral("/out/m.fisura"));
        QCOMPARE(q(br.checkpointPath), QStringLiteral("/out/m.ckpt"));
        QCOMPARE(br.state, RunState::Paused);
        QCOMPARE(q(br.startedAt), q(r.startedAt));
        QCOMPARE(q(br.endedAt), q(r.endedAt));
        QCOMPARE(br.bestEpoch, 1);
        QCOMPARE(br.bestScore, 0.75);
        QCOMPARE(br.threshold, 0.4);
        QCOMPARE(q(br.errorCode), QStringLiteral("io_error"));
        QCOMPARE(q(br.errorDetail), QStringLiteral("disk"));
        QCOMPARE(br.seconds, 12.5);

        const ProjectScan& bs = back->scans()[0];
        QCOMPARE(q(bs.id), q(scanId));
        QCOMPARE(q(bs.input), q(s.input));
        QCOMPARE(q(bs.modelPath), q(s.modelPath));
        QCOMPARE(q(bs.runId), q(runId));
        QCOMPARE(q(bs.mapPath), q(s.mapPath));
        QCOMPARE(q(bs.truthPath), q(s.truthPath));
        QCOMPARE(bs.width, 20001);
        QCOMPARE(bs.height, 30000);
        QVERIFY(sameJson(bs.statsJson, s.statsJson));
        QVERIFY(sameJson(bs.scoreJson, s.scoreJson));
        QCOMPARE(q(bs.analysedAt), q(s.analysedAt));

        // Ids stay unique after reopening.
        QVERIFY(back->addDataset("/data/other", TaskKind::Segment) != dsId);
    }

    void pathsInsideAreRelativeOthersAbsolute()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("a")), "p");
        QVERIFY(p);
        const std::string inside = p->addDataset(p->dir() + "/data/../data/set", TaskKind::Segment);
        const std::string outside =
            p->addDataset(path(tmp, QStringLiteral("ext")), TaskKind::Classify);
        TrainOptions o;
        o.dataDir = p->dir() + "/data/set";
        const std::string runId = p->beginRun(o);
        QCOMPARE(q(p->findRun(runId)->datasetId), q(inside)); // found by path and task
        QVERIFY(p->save());

        const QJsonObject j = readJson(p->file());
        QCOMPARE(j[QStringLiteral("format")].toString(), QStringLiteral("fisura-project"));
        QCOMPARE(j[QStringLiteral("schema")].toInt(), 1);
        const QJsonArray ds = j[QStringLiteral("datasets")].toArray();
        QCOMPARE(ds[0][QStringLiteral("path")].toString(), QStringLiteral("data/set"));
        QCOMPARE(ds[1][QStringLiteral("path")].toString(), q(path(tmp, QStringLiteral("ext"))));
        const QJsonObject run = j[QStringLiteral("runs")].toArray()[0].toObject();
        QCOMPARE(run[QStringLiteral("model")].toString(), q("models/" + runId + ".fisura"));
        QCOMPARE(run[QStringLiteral("options")][QStringLiteral("checkpoint_path")].toString(),
                 q("runs/" + runId + "/checkpoint.ckpt"));

        // Move the whole folder: inside paths follow it, the outside one stays.
        QVERIFY(QDir().rename(q(p->dir()), q(path(tmp, QStringLiteral("b")))));
        auto moved = Project::open(path(tmp, QStringLiteral("b")) + "/project.json");
        QVERIFY2(moved, moved.status().toString().c_str());
        QCOMPARE(q(moved->dir()), q(path(tmp, QStringLiteral("b"))));
        QCOMPARE(q(moved->findDataset(inside)->path), q(path(tmp, QStringLiteral("b/data/set"))));
        QCOMPARE(q(moved->findDataset(outside)->path), q(path(tmp, QStringLiteral("ext"))));
        auto opts = trainOptionsFromJson(moved->findRun(runId)->optionsJson);
        QVERIFY(opts);
        QCOMPARE(q(opts->outPath), q(moved->modelsDir() + "/" + runId + ".fisura"));
    }

    void interruptedSaveKeepsPreviousFile_data()
    {
        QTest::addColumn<int>("step");
        for (int step = 0; step <= 3; ++step)
            QTest::addRow("step %d", step) << step;
    }

    void interruptedSaveKeepsPreviousFile()
    {
        QFETCH(int, step);
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "one");
        QVERIFY(p);
        p->setName("two");
        for (int i = 0; i < 50; ++i) // a file long enough to be cut in the middle
            p->addDataset("/data/" + std::to_string(i), TaskKind::Segment);
        testing::failNextProjectSaveAt(step);
        const Status s = p->save();
        QVERIFY(!s);
        QCOMPARE(s.code(), ErrorCode::IoError);
        auto back = Project::open(p->dir());
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(q(back->name()), QStringLiteral("one"));
        QVERIFY(back->datasets().empty());
        QCOMPARE(QDir(q(p->dir())).entryList(QDir::Files | QDir::Hidden).size(), 1);
        QVERIFY(p->save()); // one failure only
        QCOMPARE(Project::open(p->dir())->datasets().size(), size_t(50));
    }

    void newerSchemaIsRefusedNamingBothVersions()
    {
        QTemporaryDir tmp;
        writeText(path(tmp, QStringLiteral("project.json")),
                  R"({"format":"fisura-project","schema":7,"runs":[{"future":true}]})");
        auto p = Project::open(tmp.path().toStdString());
        QVERIFY(!p);
        QCOMPARE(p.status().code(), ErrorCode::Unsupported);
        QVERIFY2(q(p.status().detail()).contains(QStringLiteral("schema 7")),
                 p.status().detail().c_str());
        QVERIFY2(q(p.status().detail()).contains(QStringLiteral("schema 1")),
                 p.status().detail().c_str());
    }

    void brokenFilesAreCorrupt_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("not json") << QByteArray("{ this is not json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("array") << QByteArray("[1, 2]");
        QTest::newRow("other format") << QByteArray(R"({"format":"fisura-model","schema":1})");
        QTest::newRow("no schema") << QByteArray(R"({"format":"fisura-project"})");
        QTest::newRow("bad state") << QByteArray(
            R"({"format":"fisura-project","schema":1,"runs":[{"id":"r","state":"dancing"}]})");
        QTest::newRow("bad task") << QByteArray(
            R"({"format":"fisura-project","schema":1,"datasets":[{"task":"paint"}]})");
        QTest::newRow("wrong types")
            << QByteArray(R"({"format":"fisura-project","schema":1,"datasets":"none"})");
        QTest::newRow("bad history") << QByteArray(
            R"({"format":"fisura-project","schema":1,"runs":[{"history":[{"epoch":"x"}]}]})");
    }

    void brokenFilesAreCorrupt()
    {
        QFETCH(QByteArray, text);
        QTemporaryDir tmp;
        const std::string file = path(tmp, QStringLiteral("project.json"));
        writeText(file, text);
        auto p = Project::open(file);
        QVERIFY(!p);
        QCOMPARE(p.status().code(), ErrorCode::Corrupt);
        QVERIFY2(q(p.status().detail()).contains(q(file)), p.status().detail().c_str());
    }

    void missingProjectIsNotFoundAndMinimalFileOpens()
    {
        QTemporaryDir tmp;
        auto none = Project::open(path(tmp, QStringLiteral("nothing")));
        QVERIFY(!none);
        QCOMPARE(none.status().code(), ErrorCode::NotFound);
        writeText(path(tmp, QStringLiteral("project.json")),
                  R"({"format":"fisura-project","schema":1})");
        auto p = Project::open(tmp.path().toStdString());
        QVERIFY2(p, p.status().toString().c_str());
        QVERIFY(p->runs().empty());
        // Ids stay unique even when next_id lags behind a hand-edited file.
        writeText(path(tmp, QStringLiteral("project.json")),
                  R"({"format":"fisura-project","schema":1,"next_id":1,
                      "datasets":[{"id":"ds-1","path":"/a","task":"segment"}]})");
        auto edited = Project::open(tmp.path().toStdString());
        QVERIFY(edited);
        QCOMPARE(q(edited->addDataset("/b", TaskKind::Segment)), QStringLiteral("ds-2"));
    }

    void movedPathsAreListedNotFatal()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        const std::string data = path(tmp, QStringLiteral("data"));
        QVERIFY(QDir().mkpath(q(data)));
        const std::string ds = p->addDataset(data, TaskKind::Segment);
        p->findDataset(ds)->splitPath = path(tmp, QStringLiteral("gone/split.json"));
        TrainOptions o;
        o.dataDir = data;
        const std::string run = p->beginRun(o, ds);
        p->finishRun(run, resultWith(1)); // best epoch 1: a model file should exist
        touch(p->findRun(run)->checkpointPath);
        ProjectScan s;
        s.input = path(tmp, QStringLiteral("scan.tif"));
        s.mapPath = p->mapsDir() + "/scan.map.tif";
        touch(s.input);
        const std::string scan = p->recordScan(s);
        QVERIFY(p->save());
        QVERIFY(QDir(q(data)).removeRecursively());

        auto back = Project::open(p->dir());
        QVERIFY(back);
        QSet<QString> found;
        for (const MissingPath& m : back->missingPaths())
            found.insert(q(m.kind + " " + m.ownerId + " " + m.path));
        QSet<QString> expected{
            q("dataset " + ds + " " + data),
            q("split " + ds + " " + path(tmp, QStringLiteral("gone/split.json"))),
            q("model " + run + " " + p->findRun(run)->modelPath),
            q("map " + scan + " " + s.mapPath)};
        QCOMPARE(found, expected);
    }

    void beginRunFillsPathsInsideTheProject()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        TrainOptions o;
        o.dataDir = "/data/x";
        o.epochs = 3;
        const std::string id = p->beginRun(o);
        QVERIFY2(QRegularExpression(QStringLiteral("^run-\\d{8}-\\d{6}$")).match(q(id)).hasMatch(),
                 id.c_str());
        QCOMPARE(q(o.outPath), q(p->modelsDir() + "/" + id + ".fisura"));
        QCOMPARE(q(o.checkpointPath), q(p->runsDir() + "/" + id + "/checkpoint.ckpt"));
        QCOMPARE(q(o.splitPath), q(p->runsDir() + "/" + id + "/split.json"));
        QVERIFY(QFileInfo(q(p->runsDir() + "/" + id)).isDir());
        const ProjectRun& r = *p->findRun(id);
        QCOMPARE(r.state, RunState::Running);
        QVERIFY(!r.startedAt.empty());
        QVERIFY(r.endedAt.empty());
        QCOMPARE(q(r.datasetPath), QStringLiteral("/data/x"));
        QCOMPARE(q(r.optionsJson), q(toJson(o)));
        QCOMPARE(q(r.modelPath), q(o.outPath));

        // The caller's own paths win; a second run in the same second gets its own id.
        TrainOptions mine;
        mine.outPath = path(tmp, QStringLiteral("elsewhere/m.fisura"));
        const std::string id2 = p->beginRun(mine);
        QVERIFY(id2 != id);
        QVERIFY(q(id2).startsWith(q(id.substr(0, 10))));
        QCOMPARE(q(mine.outPath), q(path(tmp, QStringLiteral("elsewhere/m.fisura"))));
        QCOMPARE(q(mine.checkpointPath), q(p->runsDir() + "/" + id2 + "/checkpoint.ckpt"));
    }

    void finishRunRecordsEveryEnd_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("state");
        QTest::newRow("finished") << 0 << int(RunState::Finished);
        QTest::newRow("paused") << 1 << int(RunState::Paused);
        QTest::newRow("cancelled") << 2 << int(RunState::Cancelled);
        QTest::newRow("failed") << 3 << int(RunState::Failed);
        QTest::newRow("cancelled error") << 4 << int(RunState::Cancelled);
    }

    void finishRunRecordsEveryEnd()
    {
        QFETCH(int, kind);
        QFETCH(int, state);
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        TrainOptions o;
        o.dataDir = "/data/x";
        const std::string id = p->beginRun(o);
        p->recordEpoch(id, fullMetrics(0)); // as the CLI does after every epoch
        TrainResult t = resultWith(4.5);
        t.paused = kind == 1;
        t.cancelled = kind == 2;
        if (kind == 3)
            p->finishRun(id, Result<TrainResult>(ErrorCode::OutOfMemory, "GPU full"));
        else if (kind == 4)
            p->finishRun(id, Result<TrainResult>(ErrorCode::Cancelled, "before epoch 1"));
        else
            p->finishRun(id, t);
        QVERIFY(p->save());
        auto back = Project::open(p->dir());
        QVERIFY(back);
        const ProjectRun& r = *back->findRun(id);
        QCOMPARE(int(r.state), state);
        QVERIFY(!r.endedAt.empty());
        if (kind >= 3) {
            QCOMPARE(q(r.errorCode),
                     kind == 3 ? QStringLiteral("out_of_memory") : QStringLiteral("cancelled"));
            QVERIFY(!r.errorDetail.empty());
            QCOMPARE(r.history.size(), size_t(1)); // what was recorded stays
            return;
        }
        QVERIFY(r.errorCode.empty());
        QCOMPARE(r.history.size(), size_t(2));
        QCOMPARE(r.bestEpoch, 1);
        QCOMPARE(r.bestScore, t.best.score);
        QCOMPARE(r.seconds, 4.5);
        QCOMPARE(r.notices, t.notices);
        const QJsonObject policy =
            QJsonDocument::fromJson(QByteArray::fromStdString(r.policyJson)).object();
        QCOMPARE(policy[QStringLiteral("batch_size")].toInt(), 12);
        const QJsonObject choice = policy[QStringLiteral("choices")].toArray()[0].toObject();
        QCOMPARE(choice[QStringLiteral("reason_id")].toString(), QStringLiteral("batch_measured"));
        QCOMPARE(choice[QStringLiteral("reason_arg")].toString(), QStringLiteral("12"));
    }

    void resumedRunAddsSeconds()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        TrainOptions o;
        o.dataDir = "/data/x";
        o.epochs = 4;
        o.stopAfterEpoch = 2;
        const std::string id = p->beginRun(o);
        TrainResult t = resultWith(10);
        t.paused = true;
        p->finishRun(id, t);
        TrainOptions more;
        more.epochs = 6;
        QVERIFY(!p->resumeRun("run-none", more));
        QVERIFY(p->resumeRun(id, more));
        QCOMPARE(q(more.resumeFrom), q(o.checkpointPath));
        QCOMPARE(q(more.outPath), q(o.outPath));
        QCOMPARE(more.epochs, 6);
        QCOMPARE(more.stopAfterEpoch, 0);
        QCOMPARE(p->findRun(id)->state, RunState::Running);
        QVERIFY(p->findRun(id)->endedAt.empty());
        p->finishRun(id, resultWith(5));
        QCOMPARE(p->findRun(id)->seconds, 15.0);
        QCOMPARE(p->findRun(id)->state, RunState::Finished);
    }

    void saveAsCopiesAndRebases()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("old")), "p");
        QVERIFY(p);
        const std::string outsideData = path(tmp, QStringLiteral("data"));
        const std::string insideData = p->dir() + "/data";
        QVERIFY(QDir().mkpath(q(outsideData)));
        p->addDataset(outsideData, TaskKind::Segment);
        p->addDataset(insideData, TaskKind::Segment); // inside, but not copied: stays
        TrainOptions o;
        o.dataDir = outsideData;
        const std::string run = p->beginRun(o);
        touch(o.outPath);
        touch(o.checkpointPath);
        ProjectScan s;
        s.input = path(tmp, QStringLiteral("scan.tif"));
        s.modelPath = o.outPath;
        s.mapPath = p->mapsDir() + "/scan.map.tif";
        touch(s.mapPath);
        touch(s.input);
        p->recordScan(s);
        QVERIFY(p->save());

        QVERIFY(!p->saveAs(p->dir())); // holds a project
        QCOMPARE(p->saveAs(p->runsDir() + "/x").status().code(), ErrorCode::InvalidArgument);
        auto copy = p->saveAs(path(tmp, QStringLiteral("new")));
        QVERIFY2(copy, copy.status().toString().c_str());
        const std::string nd = path(tmp, QStringLiteral("new"));
        QCOMPARE(q(copy->dir()), q(nd));
        for (const std::string& f :
             {nd + "/models/" + run + ".fisura", nd + "/runs/" + run + "/checkpoint.ckpt",
              nd + "/maps/scan.map.tif", o.outPath})
            QVERIFY2(QFileInfo::exists(q(f)), f.c_str());
        auto back = Project::open(nd);
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(q(back->datasets()[0].path), q(outsideData));
        QCOMPARE(q(back->datasets()[1].path), q(insideData));
        QCOMPARE(q(back->runs()[0].modelPath), q(nd + "/models/" + run + ".fisura"));
        QCOMPARE(q(back->runs()[0].checkpointPath), q(nd + "/runs/" + run + "/checkpoint.ckpt"));
        auto opts = trainOptionsFromJson(back->runs()[0].optionsJson);
        QVERIFY(opts);
        QCOMPARE(q(opts->splitPath), q(nd + "/runs/" + run + "/split.json"));
        QCOMPARE(q(opts->dataDir), q(outsideData));
        QCOMPARE(q(back->scans()[0].mapPath), q(nd + "/maps/scan.map.tif"));
        QCOMPARE(q(back->scans()[0].input), q(s.input));
        QCOMPARE(back->missingPaths().size(), size_t(1)); // the inside dataset, never created
        // The original is untouched.
        QCOMPARE(q(Project::open(p->dir())->runs()[0].modelPath), q(o.outPath));
    }

    void createRefusesAnExistingProject()
    {
        QTemporaryDir tmp;
        QVERIFY(Project::create(tmp.path().toStdString(), "a"));
        auto again = Project::create(tmp.path().toStdString(), "b");
        QVERIFY(!again);
        QCOMPARE(again.status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(q(Project::open(tmp.path().toStdString())->name()), QStringLiteral("a"));
    }
};

QTEST_GUILESS_MAIN(TstProject)
#include "tst_project.moc"
