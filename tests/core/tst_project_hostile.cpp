// Projects against hostile or unlucky project.json files (issue 33): nesting that overflowed the
// stack or blew a 100 KB file up to 5 GB on save, fields Fisura does not know, file names that
// are not UTF-8, and a save that would not open again.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <fstream>

#include "fisura/bytetext.h"
#include "fisura/dataset.h"
#include "fisura/infer.h"
#include "fisura/project.h"
#include "fisura/score.h"
#include "project_fixtures.h"

using namespace fisura;
using namespace fisura::test;

namespace
{

std::string path(const QTemporaryDir& d, const QString& rel)
{
    return QDir(d.path()).filePath(rel).toStdString();
}

QByteArray readAll(const std::string& file)
{
    QFile f(q(file));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeText(const std::string& file, const QByteArray& text)
{
    QFile f(q(file));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

/// The case of issue 33: a dataset whose summary's "problems" hold an array nested `depth` deep.
QByteArray deepSummaryProject(int depth)
{
    QByteArray deep(depth, '[');
    deep.append(QByteArray(depth, ']'));
    return R"({"format":"fisura-project","schema":1,"name":"deep","next_id":2,"datasets":[)"
           R"({"id":"ds-1","name":"d","path":"/data/d","task":"segment","summary":)"
           R"({"items":3,"problems":)" +
           deep + "}}]}";
}

} // namespace

class TstProjectHostile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deepNestingIsRefusedNotACrash_data()
    {
        QTest::addColumn<int>("depth");
        QTest::newRow("80,000 deep (SIGSEGV before)") << 80000;
        QTest::newRow("50,000 deep (5 GB save before)") << 50000;
        QTest::newRow("just past the limit") << 63;
    }
    void deepNestingIsRefusedNotACrash()
    {
        QFETCH(int, depth);
        QTemporaryDir tmp;
        const std::string file = path(tmp, QStringLiteral("project.json"));
        const QByteArray text = deepSummaryProject(depth);
        writeText(file, text);
        auto p = Project::open(file);
        QVERIFY(!p);
        QCOMPARE(p.status().code(), ErrorCode::Corrupt);
        QVERIFY2(q(p.status().detail()).contains(q(file)), p.status().detail().c_str());
        QVERIFY2(q(p.status().detail()).contains(QStringLiteral("nested deeper than 64")),
                 p.status().detail().c_str());
        QCOMPARE(readAll(file), text); // opening never writes
    }

    void unknownAndOversizedFieldsAreNotSaved()
    {
        QTemporaryDir tmp;
        const std::string file = path(tmp, QStringLiteral("project.json"));
        // Junk inside every embedded object, at every level Fisura reads; all within the limits.
        QByteArray junk = "[";
        for (int i = 0; i < 200000; ++i)
            junk += "0,";
        junk += "0]";
        const QByteArray deep = QByteArray(40, '[') + QByteArray(40, ']');
        const QByteArray text =
            R"({"format":"fisura-project","schema":1,"name":"n","next_id":9,"extra":)" + junk +
            R"(,"datasets":[{"id":"ds-1","path":"/d","task":"classify","mystery":1,)"
            R"("summary":{"items":3,"classes":{"a":1,"b":2},"sizes":{"count":3,"junk":)" +
            junk + R"(},"problems":[{"path":"p","reason":"r","deep":)" + deep + R"(},)" + deep +
            R"(],"unknown":)" + junk +
            R"(}}],"runs":[{"id":"r","state":"finished","task":"segment",)"
            R"("options":{"epochs":3,"junk":)" +
            junk +
            R"(,"model":{"type":"unet","junk":1}},)"
            R"("policy":{"batch_size":4,"choices":[{"what":"w","value":"v","junk":)" +
            junk + R"(}],"junk":)" + junk +
            R"(}}],"scans":[{"id":"s","input":"/s.tif","stats":{"tiles":4,"writer":{"bytes_in":)"
            R"(5,"junk":)" +
            junk + R"(},"junk":)" + deep + R"(},"score":{"iou":0.5,"junk":)" + junk + "}}]}";
        writeText(file, text);
        auto p = Project::open(file);
        QVERIFY2(p, p.status().toString().c_str());
        QVERIFY(p->save());
        const QByteArray saved = readAll(file);
        QVERIFY2(saved.size() < 8000, QByteArray::number(saved.size()).constData());
        QVERIFY(!saved.contains("junk"));
        QVERIFY(!saved.contains("mystery"));
        QVERIFY(!saved.contains("unknown"));
        QVERIFY(!saved.contains("[["));
        // What Fisura knows is kept.
        auto back = Project::open(file);
        QVERIFY2(back, back.status().toString().c_str());
        const std::string summary = back->datasets().at(0).summaryJson;
        QVERIFY2(q(summary).contains(QStringLiteral("\"classes\":{\"a\":1,\"b\":2}")),
                 summary.c_str());
        QVERIFY2(
            q(summary).contains(QStringLiteral("\"problems\":[{\"path\":\"p\",\"reason\":\"r\"}]")),
            summary.c_str());
        QVERIFY(q(back->runs().at(0).optionsJson).contains(QStringLiteral("\"epochs\":3")));
        QVERIFY(q(back->runs().at(0).policyJson).contains(QStringLiteral("\"what\":\"w\"")));
        QVERIFY(q(back->scans().at(0).statsJson).contains(QStringLiteral("\"bytes_in\":5")));
        QVERIFY(q(back->scans().at(0).scoreJson).contains(QStringLiteral("\"iou\":0.5")));
    }

    void whatFisuraWritesIsKept()
    {
        // Every embedded kind as its own writer makes it, every list filled: nothing is dropped.
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        Dataset d;
        d.task = TaskKind::Classify;
        d.root = "/data/sdnet";
        d.classes = {"cracked", "uncracked"};
        d.classCounts = {3, 4};
        d.problems = {{"/data/sdnet/x.jpg", "unreadable"}, {"/data/sdnet/y.jpg", "empty"}};
        d.sizes = {7, 1, 2, 3, 4, 1.5, 3.5};
        const std::string dsId = p->addDataset("/data/sdnet", TaskKind::Classify);
        p->findDataset(dsId)->summaryJson = datasetSummaryJson(d);
        TrainOptions o = fullOptions();
        const std::string runId = p->beginRun(o, dsId);
        TrainResult t;
        t.policy.batchSize = 8;
        t.policy.choices.push_back({"batch_size", "8", "measured", "batch_measured", "8"});
        t.policy.choices.push_back({"precision", "fp32", "cpu", "cpu_fp32", ""});
        p->finishRun(runId, t);
        ProjectScan s;
        s.input = "/scans/a.tif";
        InferStats st;
        st.input = s.input;
        st.devices = {"cuda:0", "cuda:1"};
        st.tilesComputed = 17;
        st.writer.bytesOut = 99;
        s.statsJson = toJson(st, -1);
        ScoreCurve c;
        c.mapPath = "/m.tif";
        c.tpPath = "/l.tp.tif";
        c.fpPath = "/l.fp.tif";
        c.fnPath = "/l.fn.tif";
        s.scoreJson = toJson(c, 128, -1);
        p->recordScan(s);
        QVERIFY(p->save());

        auto back = Project::open(p->dir());
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(q(back->datasets().at(0).summaryJson), q(datasetSummaryJson(d)));
        QCOMPARE(q(back->runs().at(0).optionsJson), q(toJson(o)));
        QCOMPARE(q(back->runs().at(0).policyJson), q(p->runs().at(0).policyJson));
        QVERIFY(q(back->runs().at(0).policyJson).contains(QStringLiteral("cpu_fp32")));
        QCOMPARE(q(back->scans().at(0).statsJson), q(s.statsJson));
        QCOMPARE(q(back->scans().at(0).scoreJson), q(s.scoreJson));
    }

    void aSaveNeverGrowsBeyondWhatItRead()
    {
        // A project written compactly by hand: its save (indented) may add whitespace of the
        // known fields only, never anything proportional to unknown content.
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        for (int i = 0; i < 50; ++i)
            p->addDataset("/data/" + std::to_string(i), TaskKind::Segment);
        QVERIFY(p->save());
        const QByteArray first = readAll(p->file());
        auto again = Project::open(p->dir());
        QVERIFY(again);
        QVERIFY(again->save());
        QCOMPARE(readAll(p->file()), first); // a save of what was read is the same file
    }

    void namesThatAreNotUtf8RoundTrip()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "bridge\xff");
        QVERIFY2(p, p.status().toString().c_str());
        const std::string ds = p->addDataset("/data/caf\xe9", TaskKind::Segment);
        p->findDataset(ds)->summaryJson = R"({"root":"/data/caf\u00e9"})";
        ProjectScan s;
        s.input = "/scans/scan\xff\xfe.tif";
        s.mapPath = p->mapsDir() + "/scan\xff.probability.tif";
        p->recordScan(s);
        QVERIFY(p->save());
        const QByteArray text = readAll(p->file());
        QVERIFY(isUtf8(text.toStdString()));
        auto back = Project::open(p->dir());
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(back->name(), std::string("bridge\xff"));
        QCOMPARE(back->datasets().at(0).path, std::string("/data/caf\xe9"));
        QCOMPARE(back->scans().at(0).input, s.input);
        QCOMPARE(back->scans().at(0).mapPath, s.mapPath);
        QVERIFY(text.contains("maps/scan\xee\xbf\xbf.probability.tif")); // the documented rule
    }

    void aSaveThatWouldNotOpenIsRefused()
    {
        QTemporaryDir tmp;
        auto p = Project::create(path(tmp, QStringLiteral("p")), "p");
        QVERIFY(p);
        const QByteArray before = readAll(p->file());
        p->setName(std::string(65u << 20, 'x'));
        const Status s = p->save();
        QCOMPARE(s.code(), ErrorCode::TooLarge);
        QCOMPARE(readAll(p->file()), before);
        QVERIFY(Project::open(p->dir()));
    }

    void hugeFileIsRefusedUnread()
    {
        QTemporaryDir tmp;
        const std::string file = path(tmp, QStringLiteral("project.json"));
        {
            std::ofstream out(file, std::ios::binary);
            out.seekp((65 << 20) - 1);
            out.put(' ');
        }
        auto p = Project::open(file);
        QVERIFY(!p);
        QCOMPARE(p.status().code(), ErrorCode::TooLarge);
    }
};

QTEST_GUILESS_MAIN(TstProjectHostile)
#include "tst_project_hostile.moc"
