// Cluster runs: shard assignment, manifests on disk and their merge (fisura/manifest.h).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include <QTemporaryDir>
#include <QtTest>

#include "fisura/image.h"
#include "fisura/infer.h"
#include "fisura/manifest.h"

using namespace fisura;
namespace fs = std::filesystem;

namespace
{

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// A small tiled TIFF standing in for a scan or a map.
void writeImage(const std::string& path, int w, int h)
{
    Image im = Image::make(w, h, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            im.row(y)[x] = uint8_t(x * 3 + y);
    TiffWriteOptions o;
    o.tileSize = 16;
    QVERIFY(writeTiff(path, im, o).isOk());
}

Manifest freshManifest(const std::string& in, const std::string& out, ShardSpec shard,
                       std::vector<std::string> assigned)
{
    Manifest m;
    m.shard = shard;
    m.inputFolder = in;
    m.outputFolder = out;
    m.mapKind = "probability";
    m.model.path = "/models/m.fisura";
    m.model.bytes = 1234;
    m.model.hash = "fnv1a64:00000000000000aa";
    m.settings = {{"tile", "0"}, {"window", "cosine"}};
    m.assigned = std::move(assigned);
    return m;
}

ScanRecord done(const std::string& in, const std::string& out, int w, int h)
{
    ScanRecord r;
    r.input = in;
    r.output = out;
    r.state = ScanState::Done;
    r.width = w;
    r.height = h;
    r.seconds = 0.5;
    return r;
}

ScanRecord failed(const std::string& in, const std::string& out, ScanState state)
{
    ScanRecord r;
    r.input = in;
    r.output = out;
    r.state = state;
    r.errorCode = state == ScanState::Cancelled ? "cancelled" : "corrupt";
    r.message = "bad strip 3";
    return r;
}

} // namespace

class TestManifest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesShards_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("message");
        QTest::newRow("first") << "1/3" << 0 << 3 << "";
        QTest::newRow("last") << "3/3" << 2 << 3 << "";
        QTest::newRow("one") << "1/1" << 0 << 1 << "";
        QTest::newRow("zero-based") << "0/3" << -1 << 0 << "count from 1";
        QTest::newRow("beyond") << "4/3" << -1 << 0 << "only 3 shards";
        QTest::newRow("no count") << "2" << -1 << 0 << "I/N";
        QTest::newRow("no shards") << "1/0" << -1 << 0 << "I/N";
        QTest::newRow("words") << "a/b" << -1 << 0 << "I/N";
        QTest::newRow("negative") << "-1/3" << -1 << 0 << "I/N";
        QTest::newRow("range") << "1/3/4" << -1 << 0 << "I/N";
    }
    void parsesShards()
    {
        QFETCH(QString, text);
        QFETCH(int, index);
        QFETCH(int, count);
        QFETCH(QString, message);
        auto s = parseShard(text.toStdString());
        if (index < 0) {
            QVERIFY(!s);
            QCOMPARE(s.status().code(), ErrorCode::InvalidArgument);
            QVERIFY2(s.status().detail().find(message.toStdString()) != std::string::npos,
                     s.status().detail().c_str());
        } else {
            QVERIFY(s.isOk());
            QCOMPARE(s->index, index);
            QCOMPARE(s->count, count);
        }
    }

    void shardFromSlurm()
    {
        auto none = shardFromSlurmEnvironment({});
        QVERIFY(none.isOk());
        QVERIFY(!none->has_value());
        // --array=4-6: task 5 is the second shard.
        auto r = shardFromSlurmEnvironment({{"SLURM_ARRAY_TASK_ID", "5"},
                                            {"SLURM_ARRAY_TASK_COUNT", "3"},
                                            {"SLURM_ARRAY_TASK_MIN", "4"},
                                            {"SLURM_ARRAY_TASK_MAX", "6"}});
        QVERIFY(r.isOk() && r->has_value());
        QCOMPARE((**r).index, 1);
        QCOMPARE((**r).count, 3);
        // --array=0-2, no MIN exported (older Slurm): from 0.
        r = shardFromSlurmEnvironment(
            {{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "3"}});
        QVERIFY(r.isOk() && r->has_value());
        QCOMPARE((**r).index, 2);
        // --array=1-7:3 is 1, 4, 7.
        r = shardFromSlurmEnvironment({{"SLURM_ARRAY_TASK_ID", "7"},
                                       {"SLURM_ARRAY_TASK_COUNT", "3"},
                                       {"SLURM_ARRAY_TASK_MIN", "1"},
                                       {"SLURM_ARRAY_TASK_MAX", "7"},
                                       {"SLURM_ARRAY_TASK_STEP", "3"}});
        QVERIFY(r.isOk() && r->has_value());
        QCOMPARE((**r).index, 2);
        // --array=1,5,9: not a range.
        r = shardFromSlurmEnvironment({{"SLURM_ARRAY_TASK_ID", "5"},
                                       {"SLURM_ARRAY_TASK_COUNT", "3"},
                                       {"SLURM_ARRAY_TASK_MIN", "1"},
                                       {"SLURM_ARRAY_TASK_MAX", "9"}});
        QVERIFY(!r);
        QVERIFY(r.status().detail().find("not a plain range") != std::string::npos);
        QVERIFY(r.status().detail().find("--shard") != std::string::npos);
        r = shardFromSlurmEnvironment({{"SLURM_ARRAY_TASK_ID", "x"}});
        QVERIFY(!r);
        r = shardFromSlurmEnvironment({{"SLURM_ARRAY_TASK_ID", "1"}});
        QVERIFY(!r); // no count
        QVERIFY(r.status().detail().find("SLURM_ARRAY_TASK_COUNT") != std::string::npos);
        r = shardFromSlurmEnvironment(
            {{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "3"}});
        QVERIFY(!r); // ids 0..2
    }

    void assignmentIsBalancedAndDeterministic()
    {
        std::vector<ScanFile> scans;
        std::mt19937 rng(7);
        for (int k = 0; k < 40; ++k)
            scans.push_back({"/survey/scan" + std::to_string(100 + k) + ".tif",
                             uint64_t(1000 + rng() % 50000)});
        scans.push_back({"/survey/same_a.tif", 7000});
        scans.push_back({"/survey/same_b.tif", 7000});
        std::sort(scans.begin(), scans.end(),
                  [](const ScanFile& a, const ScanFile& b) { return a.path < b.path; });
        for (int count : {1, 2, 3, 7}) {
            const auto shard = assignShards(scans, count);
            std::vector<uint64_t> load(size_t(count), 0);
            uint64_t largest = 0;
            for (size_t k = 0; k < scans.size(); ++k) {
                QVERIFY(shard[k] >= 0 && shard[k] < count);
                load[size_t(shard[k])] += scans[k].bytes;
                largest = std::max(largest, scans[k].bytes);
            }
            const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
            QVERIFY2(*hi - *lo <= largest, "groups differ by more than one scan");
            // The same groups whatever order a task listed the folder in.
            auto shuffled = scans;
            std::shuffle(shuffled.begin(), shuffled.end(), rng);
            size_t total = 0;
            for (int s = 0; s < count; ++s) {
                const auto mine = scansOfShard(shuffled, ShardSpec{s, count});
                total += mine.size();
                for (const auto& f : mine) {
                    const auto it =
                        std::find_if(scans.begin(), scans.end(),
                                     [&](const ScanFile& g) { return g.path == f.path; });
                    QCOMPARE(shard[size_t(it - scans.begin())], s);
                }
                QVERIFY(std::is_sorted(
                    mine.begin(), mine.end(),
                    [](const ScanFile& a, const ScanFile& b) { return a.path < b.path; }));
            }
            QCOMPARE(total, scans.size());
        }
        // More tasks than scans: some shards are empty, none gets two.
        const std::vector<ScanFile> two{{"/a.tif", 5}, {"/b.tif", 5}};
        const auto s = assignShards(two, 3);
        QVERIFY(s[0] != s[1]);
        // Empty files spread by count.
        const std::vector<ScanFile> empty{{"/a.tif", 0}, {"/b.tif", 0}, {"/c.tif", 0}};
        const auto e = assignShards(empty, 3);
        QVERIFY(e[0] != e[1] && e[1] != e[2] && e[0] != e[2]);
    }

    // One name for a map, whoever writes it (infer over a folder, the Analyze queue).
    void mapFileNames()
    {
        auto name = [](const std::string& scan, MapKind k, const std::string& tag = {}) {
            return QString::fromStdString(mapFileName(scan, k, tag));
        };
        QCOMPARE(name("/in/deck.tif", MapKind::Probability),
                 QStringLiteral("deck.probability.tif"));
        QCOMPARE(name("deck.png", MapKind::Heatmap), QStringLiteral("deck.heatmap.tif"));
        QCOMPARE(name("/in/a.b.TIFF", MapKind::Score), QStringLiteral("a.b.score.tif"));
        QCOMPARE(name("/in/deck.tif", MapKind::Probability, "run-20260101-101500"),
                 QStringLiteral("deck.run-20260101-101500.probability.tif"));
        QCOMPARE(name("/in/noext", MapKind::Probability), QStringLiteral("noext.probability.tif"));
        for (MapKind k : {MapKind::Probability, MapKind::Heatmap, MapKind::Score}) {
            QVERIFY(isMapFileName(mapFileName("/x/s.tif", k)));
            QVERIFY(isMapFileName(mapFileName("/x/s.tif", k, "m")));
            MapKind back = MapKind::Probability;
            QVERIFY(parseMapKind(mapKindName(k), back));
            QCOMPARE(back, k);
        }
        QVERIFY(!isMapFileName("deck.tif"));
        QVERIFY(!isMapFileName("deck.probability.png"));
        MapKind k = MapKind::Score;
        QVERIFY(!parseMapKind("mask", k));
        QCOMPARE(k, MapKind::Score);
    }

    void listsScansOfAFolder()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        for (const char* name : {"b.tif", "a.TIFF", "c.png", "notes.txt", ".hidden.tif",
                                 "a.probability.tif", "b.score.tif"})
            spit(d + "/" + name, "xx");
        fs::create_directory(d + "/sub.tif");
        auto all = listScans(d, false);
        QVERIFY(all.isOk());
        std::vector<std::string> names;
        for (const auto& s : *all)
            names.push_back(fs::path(s.path).filename().string());
        QCOMPARE(names, (std::vector<std::string>{"a.TIFF", "a.probability.tif", "b.score.tif",
                                                  "b.tif", "c.png"}));
        QCOMPARE(all->front().bytes, uint64_t(2));
        QVERIFY(fs::path(all->front().path).is_absolute());
        auto noMaps = listScans(d, true);
        QCOMPARE(noMaps->size(), size_t(3));
        QCOMPARE(listScans(d + "/none", false).status().code(), ErrorCode::NotFound);
    }

    void manifestRoundTrip()
    {
        Manifest m = freshManifest("/in", "/out", ShardSpec{1, 3}, {"/in/a.tif", "/in/b.tif"});
        m.model.mtimeNs = 1700000000123456789;
        m.host = "node07";
        m.fisuraVersion = "9.9";
        m.startedAt = "2026-01-01T00:00:00.000Z";
        m.updatedAt = "2026-01-01T00:01:00.000Z";
        ScanRecord a = done("/in/a.tif", "/out/a.probability.tif", 640, 480);
        a.inputBytes = 99;
        a.inputMtimeNs = 42;
        a.outputBytes = 1000;
        a.finishedAt = "2026-01-01T00:00:30.000Z";
        m.put(a);
        m.put(failed("/in/b.tif", "/out/b.probability.tif", ScanState::Failed));
        auto back = manifestFromJson(toJson(m));
        QVERIFY2(back.isOk(), back.status().toString().c_str());
        QCOMPARE(back->shard.index, 1);
        QCOMPARE(back->shard.count, 3);
        QCOMPARE(back->model.hash, m.model.hash);
        QCOMPARE(back->model.mtimeNs, m.model.mtimeNs);
        QCOMPARE(back->settings, m.settings);
        QCOMPARE(back->assigned, m.assigned);
        QCOMPARE(back->host, std::string("node07"));
        QCOMPARE(back->scans.size(), size_t(2));
        const ScanRecord* ra = back->find("/in/a.tif");
        QVERIFY(ra);
        QCOMPARE(ra->state, ScanState::Done);
        QCOMPARE(ra->width, 640);
        QCOMPARE(ra->outputBytes, uint64_t(1000));
        QCOMPARE(ra->inputMtimeNs, int64_t(42));
        const ScanRecord* rb = back->find("/in/b.tif");
        QCOMPARE(rb->state, ScanState::Failed);
        QCOMPARE(rb->errorCode, std::string("corrupt"));
        QCOMPARE(rb->message, std::string("bad strip 3"));
        QVERIFY(back->sameRunAs(m));
        Manifest other = m;
        other.settings["window"] = "gaussian";
        QVERIFY(!other.sameRunAs(m));
        // put() replaces the record of the same input.
        m.put(done("/in/b.tif", "/out/b.probability.tif", 1, 1));
        QCOMPARE(m.scans.size(), size_t(2));
        QCOMPARE(m.find("/in/b.tif")->state, ScanState::Done);
    }

    void corruptManifestIsReported()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        Manifest m = freshManifest("/in", "/out", ShardSpec{0, 1}, {"/in/a.tif"});
        m.put(done("/in/a.tif", "/out/a.tif", 4, 4));
        const std::string text = toJson(m);
        spit(d + "/truncated.json", text.substr(0, text.size() / 2));
        auto r = readManifest(d + "/truncated.json");
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY(r.status().detail().find("truncated.json") != std::string::npos);
        QCOMPARE(manifestFromJson("{\"format\": \"other\"}").status().code(), ErrorCode::Corrupt);
        QCOMPARE(manifestFromJson("[1,2]").status().code(), ErrorCode::Corrupt);
        std::string wrongType = text;
        wrongType.replace(wrongType.find("\"scans\": ["), 10, "\"scans\": 7, \"x\": [");
        QCOMPARE(manifestFromJson(wrongType).status().code(), ErrorCode::Corrupt);
        std::string newer = text;
        newer.replace(newer.find("\"format_version\": 1"), 19, "\"format_version\": 9");
        QCOMPARE(manifestFromJson(newer).status().code(), ErrorCode::Unsupported);
        QCOMPARE(readManifest(d + "/none.json").status().code(), ErrorCode::NotFound);
        // Cut anywhere (a copy that stopped, a full disk outside Fisura): refused, never a crash.
        for (size_t n = 0; n + 1 < text.size(); ++n) {
            auto cut = manifestFromJson(text.substr(0, n));
            QVERIFY2(!cut, std::to_string(n).c_str());
        }
        // A merge names the unreadable manifest and is not complete.
        spit(d + "/fisura-manifest.1-of-1.json", text.substr(0, 40));
        auto merged = mergeManifests({d});
        QVERIFY(merged.isOk());
        QCOMPARE(merged->manifestsUnreadable.size(), size_t(1));
        QVERIFY(!merged->complete());
    }

    void journalSkipsDoneScans()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        fs::create_directories(d + "/in");
        fs::create_directories(d + "/out");
        const std::string a = d + "/in/a.tif", b = d + "/in/b.tif";
        const std::string ma = d + "/out/a.probability.tif", mb = d + "/out/b.probability.tif";
        writeImage(a, 40, 30);
        writeImage(b, 40, 30);
        const std::string path = d + "/out/" + defaultManifestName(ShardSpec{0, 1});
        const Manifest fresh = freshManifest(d + "/in", d + "/out", ShardSpec{0, 1}, {a, b});
        {
            auto j = ShardJournal::open(path, fresh, false);
            QVERIFY(j.isOk());
            auto onDisk = readManifest(path); // written at once, with the assignment
            QVERIFY(onDisk.isOk());
            QCOMPARE(onDisk->assigned.size(), size_t(2));
            QVERIFY(onDisk->scans.empty());
            writeImage(ma, 40, 30);
            QVERIFY(j->record(done(a, ma, 40, 30)).isOk());
            QVERIFY(j->record(failed(b, mb, ScanState::Failed)).isOk());
            QVERIFY(!j->skipReason(a).empty());
            QVERIFY(j->skipReason(b).empty());
        }
        auto reopened = ShardJournal::open(path, fresh, false);
        QVERIFY(reopened.isOk());
        QVERIFY(reopened->previousProblem().empty());
        QVERIFY(!reopened->skipReason(a).empty()); // done, map intact
        QVERIFY(reopened->skipReason(b).empty());  // failed: runs again
        QCOMPARE(reopened->manifest().scans.size(), size_t(2));
        // --redo runs everything.
        auto redo = ShardJournal::open(path, fresh, true);
        QVERIFY(redo->skipReason(a).empty());
        QVERIFY(redo->manifest().scans.empty());
        // Another option: the old records do not count.
        auto j = ShardJournal::open(path, fresh, false);
        QVERIFY(j->record(done(a, ma, 40, 30)).isOk());
        Manifest otherOptions = fresh;
        otherOptions.settings["tile"] = "512";
        auto other = ShardJournal::open(path, otherOptions, false);
        QVERIFY(other->skipReason(a).empty());
        QVERIFY(other->previousProblem().find("another model") != std::string::npos);
        // A map that is gone, or not the map that was recorded, runs again.
        j = ShardJournal::open(path, fresh, false);
        QVERIFY(j->record(done(a, ma, 40, 30)).isOk());
        QVERIFY(!ShardJournal::open(path, fresh, false)->skipReason(a).empty());
        const std::string bytes = slurp(ma);
        spit(ma, bytes.substr(0, bytes.size() - 10));
        QVERIFY(ShardJournal::open(path, fresh, false)->skipReason(a).empty());
        QVERIFY(staleReason(*j->manifest().find(a)).find("size") != std::string::npos);
        fs::remove(ma);
        QCOMPARE(staleReason(*j->manifest().find(a)), std::string("map missing"));
        // An unreadable manifest is replaced, and said so.
        spit(path, "{\"format\": \"fisura-manifest\", \"form");
        auto fromBroken = ShardJournal::open(path, fresh, false);
        QVERIFY(fromBroken.isOk());
        QVERIFY(fromBroken->previousProblem().find("unreadable") != std::string::npos);
        QVERIFY(readManifest(path).isOk());
    }

    void mergeReportsDoneFailedMissing()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        fs::create_directories(d + "/in");
        fs::create_directories(d + "/out");
        const std::string in = d + "/in";
        auto scan = [&](const char* n) { return in + "/" + n + ".tif"; };
        auto map = [&](const char* n) { return d + "/out/" + n + ".probability.tif"; };
        for (const char* n : {"a", "b", "c", "d", "e"})
            writeImage(scan(n), 20, 20);
        // Shard 1/2: a done, b failed. Shard 2/2: c done but its map deleted, e never ran.
        // d is in no manifest (its shard's task died before writing? no: only --expect-in
        // knows it).
        Manifest m1 = freshManifest(in, d + "/out", ShardSpec{0, 2}, {scan("a"), scan("b")});
        Manifest m2 = freshManifest(in, d + "/out", ShardSpec{1, 2}, {scan("c"), scan("e")});
        auto j1 = ShardJournal::open(d + "/out/" + defaultManifestName(m1.shard), m1, false);
        auto j2 = ShardJournal::open(d + "/out/" + defaultManifestName(m2.shard), m2, false);
        writeImage(map("a"), 20, 20);
        writeImage(map("c"), 20, 20);
        QVERIFY(j1->record(done(scan("a"), map("a"), 20, 20)).isOk());
        QVERIFY(j1->record(failed(scan("b"), map("b"), ScanState::Failed)).isOk());
        QVERIFY(j2->record(done(scan("c"), map("c"), 20, 20)).isOk());
        fs::remove(map("c"));
        // An old manifest of another model, in the same folder, is not counted.
        Manifest old = freshManifest(in, d + "/out", ShardSpec{0, 1}, {scan("d")});
        old.model.hash = "fnv1a64:00000000000000bb";
        old.put(done(scan("d"), map("d"), 20, 20));
        old.updatedAt = "2000-01-01T00:00:00.000Z";
        QVERIFY(writeManifest(d + "/out/fisura-manifest.old.json", old).isOk());

        MergeOptions o;
        o.expectIn = in;
        auto r = mergeManifests({d + "/out"}, o);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->manifestsUsed.size(), size_t(2));
        QCOMPARE(r->manifestsOtherRun.size(), size_t(1));
        QCOMPARE(r->shardCount, 2);
        QVERIFY(r->shardsWithoutManifest.empty());
        QCOMPARE(r->scans.size(), size_t(5));
        auto state = [&](const char* n) {
            for (const auto& s : r->scans)
                if (s.input == scan(n))
                    return s;
            return MergedScan{};
        };
        QCOMPARE(state("a").state, MergedState::Done);
        QCOMPARE(state("b").state, MergedState::Failed);
        QCOMPARE(state("b").errorCode, std::string("corrupt"));
        QCOMPARE(state("c").state, MergedState::Missing);
        QCOMPARE(state("c").reason, std::string("map missing"));
        QCOMPARE(state("d").state, MergedState::Missing);
        QCOMPARE(state("d").reason, std::string("only in manifests of another run"));
        QCOMPARE(state("e").state, MergedState::Missing);
        QVERIFY(state("e").reason.find("not run") != std::string::npos);
        QCOMPARE(r->done, 1);
        QCOMPARE(r->failed, 1);
        QCOMPARE(r->missing, 3);
        QVERIFY(!r->complete());
        QCOMPARE(r->toRedo(),
                 (std::vector<std::string>{scan("b"), scan("c"), scan("d"), scan("e")}));
        const std::string json = toJson(*r);
        QVERIFY(json.find("\"complete\": false") != std::string::npos);

        // Without --expect-in only what the manifests know; a lost shard manifest is named.
        fs::remove(d + "/out/" + defaultManifestName(m2.shard));
        r = mergeManifests({d + "/out/" + defaultManifestName(m1.shard)});
        QVERIFY(r.isOk());
        QCOMPARE(r->scans.size(), size_t(2));
        QCOMPARE(r->shardsWithoutManifest, std::vector<int>{2});

        // Everything done: complete.
        Manifest whole = freshManifest(in, d + "/out", ShardSpec{0, 1}, {scan("a")});
        auto jw = ShardJournal::open(d + "/whole.json", whole, false);
        QVERIFY(jw->record(done(scan("a"), map("a"), 20, 20)).isOk());
        r = mergeManifests({d + "/whole.json"});
        QVERIFY(r.isOk());
        QVERIFY(r->complete());
        QVERIFY(r->toRedo().empty());

        QCOMPARE(mergeManifests({}).status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(mergeManifests({d + "/nowhere"}).status().code(), ErrorCode::NotFound);
        QCOMPARE(mergeManifests({in}).status().code(), ErrorCode::InvalidArgument);
    }

    void mergeRejectsEntriesOutsideTheirFolders_data()
    {
        QTest::addColumn<QString>("scan");
        QTest::addColumn<QString>("map");
        QTest::newRow("scan elsewhere") << "/etc/passwd"
                                        << "out/a.probability.tif";
        QTest::newRow("scan through ..") << "in/../secret.tif"
                                         << "out/a.probability.tif";
        QTest::newRow("scan in a subfolder") << "in/sub/a.tif"
                                             << "out/a.probability.tif";
        QTest::newRow("relative scan") << "a.tif"
                                       << "out/a.probability.tif";
        QTest::newRow("map elsewhere") << "in/a.tif"
                                       << "/tmp/a.probability.tif";
    }

    void mergeRejectsEntriesOutsideTheirFolders()
    {
        QFETCH(QString, scan);
        QFETCH(QString, map);
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        fs::create_directories(d + "/in");
        fs::create_directories(d + "/out");
        auto at = [&](const QString& p) {
            return p.startsWith(QLatin1Char('/')) || !p.contains(QLatin1Char('/'))
                       ? p.toStdString()
                       : d + "/" + p.toStdString();
        };
        Manifest m = freshManifest(d + "/in", d + "/out", ShardSpec{0, 1}, {at(scan)});
        m.put(failed(at(scan), at(map), ScanState::Failed));
        QVERIFY(writeManifest(d + "/out/" + defaultManifestName(m.shard), m).isOk());
        auto r = mergeManifests({d + "/out"});
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->manifestsUnreadable.size(), size_t(1));
        const std::string why = r->manifestsUnreadable.begin()->second;
        QVERIFY2(why.rfind("rejected: ", 0) == 0, why.c_str());
        QVERIFY(r->manifestsUsed.empty());
        QVERIFY(r->toRedo().empty());
        QVERIFY(!r->complete());
    }

    void mergeWithExpectInSkipsManifestsOfOtherInputFolders()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        for (const char* sub : {"in", "other", "out"})
            fs::create_directories(d + "/" + sub);
        writeImage(d + "/in/a.tif", 20, 20);
        Manifest m = freshManifest(d + "/other", d + "/out", ShardSpec{0, 1}, {d + "/other/x.tif"});
        m.put(failed(d + "/other/x.tif", d + "/out/x.probability.tif", ScanState::Failed));
        QVERIFY(writeManifest(d + "/out/" + defaultManifestName(m.shard), m).isOk());
        MergeOptions o;
        o.expectIn = d + "/in";
        auto r = mergeManifests({d + "/out"}, o);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->manifestsOtherRun.size(), size_t(1));
        QVERIFY(r->manifestsOtherRun.begin()->second.find("another input folder") !=
                std::string::npos);
        QCOMPARE(r->toRedo(), std::vector<std::string>{d + "/in/a.tif"});
    }

    void describesModelFiles()
    {
        QTemporaryDir dir;
        const std::string p = dir.path().toStdString() + "/m.fisura";
        spit(p, "weights one");
        auto a = describeModelFile(p);
        QVERIFY(a.isOk());
        QCOMPARE(a->bytes, uint64_t(11));
        QVERIFY(a->hash.rfind("fnv1a64:", 0) == 0);
        QCOMPARE(a->hash.size(), size_t(8 + 16));
        spit(p, "weights two");
        QVERIFY(describeModelFile(p)->hash != a->hash);
        QCOMPARE(describeModelFile(p + ".none").status().code(), ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestManifest)
#include "tst_manifest.moc"
