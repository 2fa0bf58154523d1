// Data-parallel training on the CPU: the rendezvous variables, the gradient buckets, gloo
// collectives between threads, and whole training jobs of two ranks (threads of this process
// meeting over a real TCP store on localhost) against one rank with the same global batch.
#include <QtTest>

#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <thread>

#include "compat/torch_compat.h"
#include "dist/communicator.h"
#include "dist/grad_buckets.h"
#include "fisura/distributed.h"
#include "fisura/synth.h"
#include "fisura/testing.h"
#include "fisura/train.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// A port nobody listens on right now (bound to 0, read back, closed).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

void collectTensors(torch::serialize::InputArchive& ar, const std::string& prefix,
                    std::map<std::string, torch::Tensor>& out)
{
    for (const auto& k : ar.keys()) {
        torch::Tensor t;
        torch::serialize::InputArchive sub;
        if (ar.try_read(k, t))
            out[prefix + k] = t;
        else if (ar.try_read(k, sub))
            collectTensors(sub, prefix + k + ".", out);
    }
}

/// The weights in a checkpoint, by name (modules save their children as nested archives).
std::map<std::string, torch::Tensor> checkpointWeights(const std::string& path)
{
    torch::serialize::InputArchive ar, mar;
    ar.load_from(path);
    ar.read("model", mar);
    std::map<std::string, torch::Tensor> out;
    collectTensors(mar, "", out);
    return out;
}

struct WeightDiff {
    double maxAbs = 0;
    double meanAbs = 0;
    double meanMagnitude = 0;
};

WeightDiff compareWeights(const std::map<std::string, torch::Tensor>& a,
                          const std::map<std::string, torch::Tensor>& b)
{
    WeightDiff d;
    int64_t n = 0;
    for (const auto& [k, t] : a) {
        auto it = b.find(k);
        if (it == b.end() || !t.is_floating_point())
            continue;
        const auto diff = (t - it->second).abs();
        d.maxAbs = std::max(d.maxAbs, diff.max().item<double>());
        d.meanAbs += diff.sum().item<double>();
        d.meanMagnitude += t.abs().sum().item<double>();
        n += t.numel();
    }
    d.meanAbs /= std::max<int64_t>(1, n);
    d.meanMagnitude /= std::max<int64_t>(1, n);
    return d;
}

} // namespace

class TstDist : public QObject
{
    Q_OBJECT
    QTemporaryDir data_;
    std::string cls_;

    TrainOptions options(const QString& dir, int batch) const
    {
        TrainOptions o;
        o.task = TaskKind::Classify;
        o.dataDir = cls_;
        o.outPath = s(dir) + "/m.fisura";
        o.splitPath = s(dir) + "/../split.json"; // one split for every job of a test
        o.epochs = 2;
        o.batchSize = batch;
        o.preferCpu = true;
        o.precision = Precision::FP32;
        o.model.inputSize = 32;
        o.model.depth = 2;
        o.model.width = 4;
        o.loaderThreads = 1;
        o.patience = 0;
        o.valFraction = 0.25;
        o.learningRate = 1e-3;
        return o;
    }

    /// `world` ranks as threads of this process, meeting over TCP on localhost; `tweak` may
    /// change one rank's options.
    std::vector<Result<TrainResult>>
    runRanks(const TrainOptions& base, int world,
             const std::function<void(int, TrainOptions&)>& tweak = {})
    {
        if (world == 1)
            return {train(base)};
        const int port = freePort();
        std::vector<std::future<Result<TrainResult>>> f;
        for (int r = 0; r < world; ++r) {
            TrainOptions o = base;
            if (tweak)
                tweak(r, o);
            o.distributed.rank = o.distributed.localRank = r;
            o.distributed.worldSize = o.distributed.localWorldSize = world;
            o.distributed.masterAddr = "127.0.0.1";
            o.distributed.masterPort = port;
            o.distributed.timeoutSeconds = 20;
            f.push_back(std::async(std::launch::async, [o] { return train(o); }));
        }
        std::vector<Result<TrainResult>> out;
        for (auto& x : f)
            out.push_back(x.get());
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        synth::DemoDatasetOptions demo;
        demo.segmentationImages = 0;
        demo.classificationImages = 16;
        demo.patchSize = 32;
        demo.scanSize = 0;
        QVERIFY(synth::writeDemoDataset(s(data_.path()), demo));
        cls_ = s(data_.path()) + "/classification";
        testing::freezeBatchNormStatistics(true);
    }
    void cleanupTestCase() { testing::freezeBatchNormStatistics(false); }

    void rendezvous_data()
    {
        QTest::addColumn<QString>("env");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("localRank");
        QTest::addColumn<QString>("master");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("launcher");
        QTest::newRow("alone") << QStringLiteral("") << 0 << 1 << 0 << QString() << 0 << QString();
        QTest::newRow("torchrun") << QStringLiteral("RANK=3;WORLD_SIZE=4;LOCAL_RANK=1;LOCAL_WORLD_"
                                                    "SIZE=2;MASTER_ADDR=node7;MASTER_PORT=29400")
                                  << 3 << 4 << 1 << QStringLiteral("node7") << 29400
                                  << QStringLiteral("torchrun");
        QTest::newRow("torchrun default port")
            << QStringLiteral("RANK=0;WORLD_SIZE=2;MASTER_ADDR=127.0.0.1;"
                              "TORCHELASTIC_USE_AGENT_STORE=True;TORCHELASTIC_RESTART_COUNT=0")
            << 0 << 2 << 0 << QStringLiteral("127.0.0.1") << 29500 << QStringLiteral("torchrun");
        QTest::newRow("slurm launch node")
            << QStringLiteral(
                   "SLURM_PROCID=5;SLURM_NTASKS=8;SLURM_LOCALID=1;SLURM_TASKS_PER_NODE=4(x2);SLURM_"
                   "LAUNCH_NODE_IPADDR=10.0.0.9;SLURM_JOB_NODELIST=gpu[03-04]")
            << 5 << 8 << 1 << QStringLiteral("10.0.0.9") << 29500 << QStringLiteral("slurm");
        QTest::newRow("slurm node list")
            << QStringLiteral("SLURM_PROCID=2;SLURM_NTASKS=4;SLURM_NTASKS_PER_NODE=2;SLURM_JOB_"
                              "NODELIST=gpu[03-04,9],cpu1;MASTER_PORT=1234")
            << 2 << 4 << 0 << QStringLiteral("gpu03") << 1234 << QStringLiteral("slurm");
        QTest::newRow("torchrun wins over slurm")
            << QStringLiteral("RANK=1;WORLD_SIZE=2;MASTER_ADDR=h;SLURM_PROCID=0;SLURM_NTASKS=1")
            << 1 << 2 << 1 << QStringLiteral("h") << 29500 << QStringLiteral("torchrun");
    }
    void rendezvous()
    {
        QFETCH(QString, env);
        std::map<std::string, std::string> e;
        for (const auto& kv : env.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            e[s(kv.section(QLatin1Char('='), 0, 0))] = s(kv.section(QLatin1Char('='), 1));
        auto id = readDistributedEnvironment(e);
        QVERIFY2(id, id.status().toString().c_str());
        QTEST(id->rank, "rank");
        QTEST(id->worldSize, "world");
        QTEST(id->localRank, "localRank");
        QTEST(QString::fromStdString(id->masterAddr), "master");
        QTEST(id->masterPort, "port");
        QTEST(QString::fromStdString(id->launcher), "launcher");
        QCOMPARE(id->launcherHostsStore, e.count("TORCHELASTIC_USE_AGENT_STORE") > 0);
    }

    void rendezvousRejects_data()
    {
        QTest::addColumn<QString>("env");
        QTest::addColumn<QString>("names");
        QTest::newRow("rank not a number")
            << QStringLiteral("RANK=x;WORLD_SIZE=2;MASTER_ADDR=h") << QStringLiteral("RANK=x");
        QTest::newRow("rank outside")
            << QStringLiteral("RANK=2;WORLD_SIZE=2;MASTER_ADDR=h") << QStringLiteral("RANK=2");
        QTest::newRow("no world") << QStringLiteral("RANK=0") << QStringLiteral("WORLD_SIZE");
        QTest::newRow("world without rank")
            << QStringLiteral("WORLD_SIZE=4") << QStringLiteral("RANK");
        QTest::newRow("bad port") << QStringLiteral(
                                         "RANK=0;WORLD_SIZE=2;MASTER_ADDR=h;MASTER_PORT=70000")
                                  << QStringLiteral("MASTER_PORT=70000");
        QTest::newRow("no master")
            << QStringLiteral("RANK=0;WORLD_SIZE=2") << QStringLiteral("MASTER_ADDR");
        QTest::newRow("slurm bad ntasks")
            << QStringLiteral("SLURM_PROCID=0;SLURM_NTASKS=0") << QStringLiteral("SLURM_NTASKS=0");
        QTest::newRow("local rank outside")
            << QStringLiteral("RANK=1;WORLD_SIZE=2;LOCAL_WORLD_SIZE=1;LOCAL_RANK=1;MASTER_ADDR=h")
            << QStringLiteral("LOCAL_RANK=1");
        QTest::newRow("bad timeout")
            << QStringLiteral("FISURA_DIST_TIMEOUT=-3") << QStringLiteral("FISURA_DIST_TIMEOUT=-3");
    }
    void rendezvousRejects()
    {
        QFETCH(QString, env);
        QFETCH(QString, names);
        std::map<std::string, std::string> e;
        for (const auto& kv : env.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            e[s(kv.section(QLatin1Char('='), 0, 0))] = s(kv.section(QLatin1Char('='), 1));
        auto id = readDistributedEnvironment(e);
        QVERIFY(!id);
        QCOMPARE(id.status().code(), ErrorCode::InvalidArgument);
        QVERIFY2(id.status().detail().find(s(names)) != std::string::npos,
                 id.status().detail().c_str());
    }

    void slurmHosts()
    {
        QCOMPARE(firstSlurmHost("node7"), std::string("node7"));
        QCOMPARE(firstSlurmHost("gpu[03-05,7],cpu1"), std::string("gpu03"));
        QCOMPARE(firstSlurmHost("a1,b2"), std::string("a1"));
        QCOMPARE(firstSlurmHost("n[9]"), std::string("n9"));
    }

    void bucketLayout()
    {
        // Parameters of 400, 40, 4000 and 4 floats, and 100 doubles; a cap of 1 KB.
        std::vector<torch::Tensor> p{torch::zeros({20, 20}).requires_grad_(),
                                     torch::zeros({40}).requires_grad_(),
                                     torch::zeros({4000}).requires_grad_(),
                                     torch::zeros({4}).requires_grad_(),
                                     torch::zeros({100}, torch::kDouble).requires_grad_(),
                                     torch::zeros({3})};
        const auto layout = dist::planBuckets(p, 1024);
        // Floats from last to first: [3] (16 B) then [2] alone (too large), then [1] + [0]
        // would be 1760 B > 1 KB, so [1] closes its own bucket; [0] alone; the doubles apart;
        // p[5] needs no gradient.
        std::vector<std::vector<size_t>> order;
        for (const auto& b : layout) {
            std::vector<size_t> idx;
            for (const auto& sl : b.slots)
                idx.push_back(sl.param);
            order.push_back(idx);
        }
        const std::vector<std::vector<size_t>> want{{3}, {2}, {1}, {0}, {4}};
        QCOMPARE(order, want);
        QCOMPARE(int(layout.back().dtype), int(torch::kDouble));
        QCOMPARE(dist::planBuckets(p, 1 << 20).size(), size_t(2)); // one per dtype

        // Gradients are views of the buckets: backward accumulates into the flat buffers.
        dist::GradBuckets gb(p, 1 << 20);
        const auto loss = (p[0].sum() * 2 + p[2].sum() * 3 + p[4].sum()).to(torch::kFloat);
        loss.backward();
        QCOMPARE(gb.buffers().size(), size_t(2));
        QCOMPARE(gb.buffers()[0].sum().item<double>(), 2.0 * 400 + 3.0 * 4000);
        QCOMPARE(p[0].grad().data_ptr<float>() >= gb.buffers()[0].data_ptr<float>(), true);
        gb.zero();
        QCOMPARE(p[2].grad().abs().sum().item<double>(), 0.0);
    }

    void glooCollectives()
    {
        if (!dist::glooBuilt())
            QSKIP("this LibTorch has no gloo");
        auto store = dist::makeInProcessStore();
        auto rank = [store](int r) -> std::vector<double> {
            auto c =
                dist::Communicator::overStore(store, r, 2, torch::kCPU, std::chrono::seconds(10));
            if (!c)
                return {-1};
            auto a = torch::tensor({double(r + 1), 10.0 * (r + 1)});
            (*c)->allReduceSum(a);
            auto b = torch::tensor({r == 0 ? 7.0 : -1.0});
            (*c)->broadcastFromRoot(b);
            auto m = torch::tensor({double(5 - r)});
            (*c)->allReduceMin(m);
            (*c)->barrier();
            return {a[0].item<double>(), a[1].item<double>(), b[0].item<double>(),
                    m[0].item<double>()};
        };
        auto f0 = std::async(std::launch::async, rank, 0);
        auto f1 = std::async(std::launch::async, rank, 1);
        const std::vector<double> want{3, 30, 7, 4};
        QCOMPARE(f0.get(), want);
        QCOMPARE(f1.get(), want);
    }

    void bucketSizesAgree()
    {
        if (!dist::glooBuilt())
            QSKIP("this LibTorch has no gloo");
        // Each rank's gradients of a small network on its own input, averaged through the
        // buckets; the same with no buckets, tiny ones and one big one; and the mean computed
        // here directly.
        // Weights and inputs made here: the threads must not share the global generator.
        auto makeNet = [] {
            return torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 3)),
                                         torch::nn::ReLU(), torch::nn::Flatten(),
                                         torch::nn::Linear(4 * 6 * 6, 2));
        };
        torch::manual_seed(11);
        auto reference = makeNet();
        const std::vector<torch::Tensor> inputs{torch::randn({2, 3, 8, 8}),
                                                torch::randn({2, 3, 8, 8})};
        bool overlap = false;
        bool startedInBackward[2] = {false, false};
        auto gradsOf = [&](int r, int64_t cap, dist::Communicator* comm) {
            auto net = makeNet();
            auto params = net->parameters();
            {
                torch::NoGradGuard ng;
                const auto ref = reference->parameters();
                for (size_t i = 0; i < params.size(); ++i)
                    params[i].copy_(ref[i]);
            }
            std::unique_ptr<dist::GradBuckets> gb;
            if (comm) {
                gb = std::make_unique<dist::GradBuckets>(params, cap);
                if (overlap) {
                    gb->overlapWith(*comm);
                    gb->beginStep();
                }
            }
            net->forward(inputs[size_t(r)]).pow(2).mean().backward();
            if (comm && overlap) {
                // Every bucket started from the backward pass itself.
                startedInBackward[size_t(r)] = gb->startedBuckets() == gb->layout().size();
                gb->finishStep();
            } else if (comm) {
                gb->allReduceMean(*comm);
            }
            std::vector<torch::Tensor> g;
            for (auto& p : params)
                g.push_back(p.grad().clone());
            return g;
        };
        const auto g0 = gradsOf(0, 0, nullptr), g1 = gradsOf(1, 0, nullptr);
        for (int64_t cap : {int64_t(-1), int64_t(64), int64_t(dist::kDefaultBucketBytes),
                            int64_t(-64), int64_t(-dist::kDefaultBucketBytes)}) {
            // Negative here: the same size, its all-reduces started during the backward pass.
            overlap = cap < -1;
            cap = overlap ? -cap : cap;
            auto store = dist::makeInProcessStore();
            auto run = [&, store](int r) {
                auto c = dist::Communicator::overStore(store, r, 2, torch::kCPU,
                                                       std::chrono::seconds(10));
                return gradsOf(r, cap, c ? c->get() : nullptr);
            };
            auto f0 = std::async(std::launch::async, run, 0);
            auto f1 = std::async(std::launch::async, run, 1);
            const auto a = f0.get(), b = f1.get();
            for (size_t i = 0; i < g0.size(); ++i) {
                const auto mean = (g0[i] + g1[i]) * 0.5;
                QVERIFY2(torch::equal(a[i], mean), qPrintable(QStringLiteral("cap %1").arg(cap)));
                QVERIFY(torch::equal(b[i], a[i]));
            }
            if (overlap)
                QVERIFY(startedInBackward[0] && startedInBackward[1]);
        }
    }

    void twoRanksTrainAsOne_data()
    {
        QTest::addColumn<qint64>("bucketBytes");
        QTest::newRow("25 MB buckets during the backward pass") << qint64(0);
        QTest::newRow("1 KB buckets during the backward pass") << qint64(1024);
        QTest::newRow("no buckets, after the backward pass") << qint64(-1);
    }
    void twoRanksTrainAsOne()
    {
        if (!dist::glooBuilt())
            QSKIP("this LibTorch has no gloo");
        QFETCH(qint64, bucketBytes);
        QTemporaryDir tmp;
        QDir(tmp.path()).mkpath(QStringLiteral("one"));
        QDir(tmp.path()).mkpath(QStringLiteral("two"));
        auto one = runRanks(options(tmp.filePath(QStringLiteral("one")), 8), 1);
        QVERIFY2(one[0], one[0].status().toString().c_str());
        TrainOptions twoOptions = options(tmp.filePath(QStringLiteral("two")), 4);
        twoOptions.bucketBytes = bucketBytes;
        auto two = runRanks(twoOptions, 2);
        QVERIFY2(two[0], two[0].status().toString().c_str());
        QVERIFY2(two[1], two[1].status().toString().c_str());
        // Rank 0 wrote the files; rank 1 nothing (its paths are the same: one model file).
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("two/m.fisura"))));
        QCOMPARE(two[0]->epochsRun, 2);
        QCOMPARE(two[1]->epochsRun, 2);
        QCOMPARE(two[0]->history.size(), size_t(2));
        // The same global samples per step, so the same losses and weights.
        for (int e = 0; e < 2; ++e)
            qInfo("epoch %d: loss %.6f / %.6f, val %.6f / %.6f", e, one[0]->history[e].trainLoss,
                  two[0]->history[e].trainLoss, one[0]->history[e].valLoss,
                  two[0]->history[e].valLoss);
        for (int e = 0; e < 2; ++e)
            QVERIFY2(std::abs(two[0]->history[e].trainLoss - one[0]->history[e].trainLoss) < 1e-4,
                     qPrintable(QStringLiteral("epoch %1: %2 vs %3")
                                    .arg(e)
                                    .arg(two[0]->history[e].trainLoss)
                                    .arg(one[0]->history[e].trainLoss)));
        const auto d =
            compareWeights(checkpointWeights(s(tmp.filePath(QStringLiteral("one/m.fisura.ckpt")))),
                           checkpointWeights(s(tmp.filePath(QStringLiteral("two/m.fisura.ckpt")))));
        qInfo("weights: max diff %g, mean diff %g, mean magnitude %g", d.maxAbs, d.meanAbs,
              d.meanMagnitude);
        QVERIFY(d.meanMagnitude > 0);
        QVERIFY2(d.meanAbs < 1e-5, qPrintable(QString::number(d.meanAbs)));
        QVERIFY2(d.maxAbs < 1e-3, qPrintable(QString::number(d.maxAbs)));
        // What the policy tells.
        bool said = false;
        for (const auto& c : two[0]->policy.choices)
            said = said || (c.what == "data_parallel" && c.reasonId == "dp_gloo" && c.value == "2");
        QVERIFY(said);
    }

    void resumeWithOtherWorldSizes_data()
    {
        QTest::addColumn<int>("firstWorld");
        QTest::addColumn<int>("secondWorld");
        QTest::newRow("2 then 1") << 2 << 1;
        QTest::newRow("1 then 2") << 1 << 2;
    }
    void resumeWithOtherWorldSizes()
    {
        if (!dist::glooBuilt())
            QSKIP("this LibTorch has no gloo");
        QFETCH(int, firstWorld);
        QFETCH(int, secondWorld);
        QTemporaryDir tmp;
        QDir(tmp.path()).mkpath(QStringLiteral("straight"));
        QDir(tmp.path()).mkpath(QStringLiteral("resumed"));
        auto straight = runRanks(options(tmp.filePath(QStringLiteral("straight")), 8), 1);
        QVERIFY2(straight[0], straight[0].status().toString().c_str());

        TrainOptions first = options(tmp.filePath(QStringLiteral("resumed")), 8 / firstWorld);
        first.stopAfterEpoch = 1;
        auto a = runRanks(first, firstWorld);
        QVERIFY2(a[0], a[0].status().toString().c_str());
        QVERIFY(a[0]->paused);
        QCOMPARE(a.back()->paused, true); // every rank took rank 0's decision
        TrainOptions second = options(tmp.filePath(QStringLiteral("resumed")), 0); // from ckpt
        second.resumeFrom = first.outPath + ".ckpt";
        auto b = runRanks(second, secondWorld);
        QVERIFY2(b[0], b[0].status().toString().c_str());
        QCOMPARE(b[0]->epochsRun, 2);
        QCOMPARE(b[0]->finalBatchSize, 8 / secondWorld);
        const auto d = compareWeights(
            checkpointWeights(s(tmp.filePath(QStringLiteral("straight/m.fisura.ckpt")))),
            checkpointWeights(s(tmp.filePath(QStringLiteral("resumed/m.fisura.ckpt")))));
        qInfo("weights: max diff %g, mean diff %g", d.maxAbs, d.meanAbs);
        QVERIFY2(d.meanAbs < 1e-5, qPrintable(QString::number(d.meanAbs)));
    }

    void failingRankEndsTheOthers()
    {
        if (!dist::glooBuilt())
            QSKIP("this LibTorch has no gloo");
        // Rank 1 fails after joining (its checkpoint is missing) while rank 0 waits in the
        // broadcast of the starting weights: rank 0 must end with a Status, not hang.
        QTemporaryDir tmp;
        QDir(tmp.path()).mkpath(QStringLiteral("job"));
        const auto t0 = std::chrono::steady_clock::now();
        auto r = runRanks(options(tmp.filePath(QStringLiteral("job")), 4), 2,
                          [&](int rank, TrainOptions& o) {
                              if (rank == 1)
                                  o.resumeFrom = s(tmp.filePath(QStringLiteral("none.ckpt")));
                          });
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY(!r[1]);
        QCOMPARE(r[1].status().code(), ErrorCode::NotFound);
        QVERIFY(!r[0]);
        QCOMPARE(r[0].status().code(), ErrorCode::IoError);
        QVERIFY2(r[0].status().detail().find("another process") != std::string::npos,
                 r[0].status().detail().c_str());
        QVERIFY2(secs < 20, qPrintable(QString::number(secs)));
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("job/m.fisura"))));
    }

    void missingPeerTimesOut_data()
    {
        QTest::addColumn<int>("rank");
        QTest::newRow("rank 0 waits for rank 1") << 0;
        QTest::newRow("rank 1 finds no rank 0") << 1;
    }
    void missingPeerTimesOut()
    {
        if (!dist::glooBuilt())
            QSKIP("this LibTorch has no gloo");
        QFETCH(int, rank);
        QTemporaryDir tmp;
        TrainOptions o = options(tmp.path(), 4);
        o.splitPath = s(tmp.filePath(QStringLiteral("split.json")));
        o.distributed.rank = o.distributed.localRank = rank;
        o.distributed.worldSize = o.distributed.localWorldSize = 2;
        o.distributed.masterAddr = "127.0.0.1";
        o.distributed.masterPort = freePort();
        o.distributed.timeoutSeconds = 2;
        const auto t0 = std::chrono::steady_clock::now();
        auto r = train(o);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::IoError);
        QVERIFY2(r.status().detail().find("did not all meet") != std::string::npos,
                 r.status().detail().c_str());
        QVERIFY2(secs < 15, qPrintable(QString::number(secs)));
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("m.fisura"))));
    }
};

QTEST_GUILESS_MAIN(TstDist)
#include "tst_dist.moc"
