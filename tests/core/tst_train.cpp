#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>

#include "fisura/evaluate.h"
#include "fisura/model.h"
#include "fisura/synth.h"
#include "fisura/sysinfo.h"
#include "fisura/testing.h"
#include "fisura/train.h"
#include "train_fixtures.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// Rows marked "cuda" run where CUDA is usable (the `gpu` ctest label) and skip elsewhere.
bool cudaUsable()
{
    static const bool usable = queryMachine().cudaUsable;
    return usable;
}

/// Records events; lets a test wait for a given number of batches or epochs.
class RecordingSink final : public TrainSink
{
public:
    void batch(const BatchProgress& b) override
    {
        std::lock_guard<std::mutex> l(m);
        ++batches;
        lastBatch = b;
        cv.notify_all();
    }
    void epoch(const EpochMetrics& e) override
    {
        std::lock_guard<std::mutex> l(m);
        epochs.push_back(e);
        cv.notify_all();
    }
    void notice(const std::string& code, const std::string&) override
    {
        std::lock_guard<std::mutex> l(m);
        notices.push_back(code);
    }
    bool waitFor(int nEpochs, int nBatchesAfter, std::chrono::seconds timeout)
    {
        std::unique_lock<std::mutex> l(m);
        if (!cv.wait_for(l, timeout, [&] { return int(epochs.size()) >= nEpochs; }))
            return false;
        const int target = batches + nBatchesAfter;
        return cv.wait_for(l, timeout, [&] { return batches >= target; });
    }
    std::mutex m;
    std::condition_variable cv;
    int batches = 0;
    BatchProgress lastBatch;
    std::vector<EpochMetrics> epochs;
    std::vector<std::string> notices;
};

} // namespace

class TstTrain : public QObject
{
    Q_OBJECT
    QTemporaryDir data_;
    std::string seg_, cls_, clean_;

    TrainOptions segOptions(const QString& out) const
    {
        return test::tinyOptions(TaskKind::Segment, seg_, out, 2);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::TinyDemo demo;
        QVERIFY(test::writeTinyDemo(data_.path(), 12, 8, &demo));
        seg_ = demo.segmentation;
        cls_ = demo.classification;
        clean_ = demo.uncracked;
    }

    void modelRoundTrip_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("classifier") << int(ModelType::Classifier);
        QTest::newRow("unet") << int(ModelType::UNet);
        QTest::newRow("autoencoder") << int(ModelType::Autoencoder);
    }
    void modelRoundTrip()
    {
        QFETCH(int, type);
        QTemporaryDir tmp;
        ModelConfig c;
        c.type = ModelType(type);
        c.inputSize = 64;
        c.depth = 2;
        c.width = 4;
        auto m = Model::create(c, 3);
        QVERIFY2(m, m.status().toString().c_str());
        m->info().classNames = {"cracked", "uncracked"};
        m->info().threshold = 0.42;
        const std::string path = s(tmp.filePath(QStringLiteral("m.fisura")));
        QVERIFY(m->save(path));
        auto back = Model::load(path);
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(int(back->info().config.type), type);
        QCOMPARE(back->info().threshold, 0.42);
        QCOMPARE(back->info().classNames, m->info().classNames);
        QCOMPARE(back->parameterCount(), m->parameterCount());
        QVERIFY(back->metadataJson() == m->metadataJson());
    }

    void atomicSaveSurvivesInjectedFailure()
    {
        QTemporaryDir tmp;
        ModelConfig c;
        c.inputSize = 32;
        c.depth = 2;
        c.width = 4;
        auto good = Model::create(c, 1);
        good->info().threshold = 0.25;
        const std::string path = s(tmp.filePath(QStringLiteral("m.fisura")));
        QVERIFY(good->save(path));
        std::ifstream before(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(before)), {});

        auto other = Model::create(c, 2);
        other->info().threshold = 0.75;
        testing::failNextAtomicWriteAfter(1000);
        const Status st = other->save(path);
        QCOMPARE(st.code(), ErrorCode::IoError);

        std::ifstream after(path, std::ios::binary);
        const std::string now((std::istreambuf_iterator<char>(after)), {});
        QVERIFY(now == bytes); // the good model is untouched
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temp left
        auto loaded = Model::load(path);
        QVERIFY(loaded);
        QCOMPARE(loaded->info().threshold, 0.25);
        QVERIFY(other->save(path)); // the injection fires once
    }

    void loadRefusesBadFiles()
    {
        QTemporaryDir tmp;
        const std::string junk = s(tmp.filePath(QStringLiteral("junk.fisura")));
        std::ofstream(junk) << "not a model";
        QCOMPARE(Model::load(junk).status().code(), ErrorCode::Corrupt);
        QVERIFY(!Model::load(junk + ".missing"));
        ModelConfig c;
        c.inputSize = 36; // not a multiple of 2^depth
        QCOMPARE(Model::create(c).status().code(), ErrorCode::InvalidArgument);
    }

    void cancelIsQuickAndKeepsCheckpoint()
    {
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("seg.fisura")));
        o.epochs = 1000;
        CancelToken cancel;
        RecordingSink sink;
        auto fut = std::async(std::launch::async, [&] { return train(o, cancel, &sink); });
        QVERIFY(sink.waitFor(1, 2, std::chrono::seconds(60)));
        const auto t0 = std::chrono::steady_clock::now();
        cancel.cancel();
        QVERIFY(fut.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        const double latency =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        auto r = fut.get();
        QVERIFY2(r, r.status().toString().c_str());
        QVERIFY(r->cancelled);
        QVERIFY2(latency < 0.5, qPrintable(QStringLiteral("cancel took %1 s").arg(latency)));
        QVERIFY(r->epochsRun >= 1);
        QVERIFY(Model::load(o.outPath));
        // The checkpoint is complete: training continues from it.
        TrainOptions again = o;
        again.resumeFrom = r->checkpointPath;
        again.epochs = r->epochsRun + 1;
        auto resumed = train(again);
        QVERIFY2(resumed, resumed.status().toString().c_str());
        QCOMPARE(resumed->epochsRun, r->epochsRun + 1);
    }

    void resumeEqualsUninterrupted()
    {
        QTemporaryDir tmp;
        TrainOptions a = segOptions(tmp.filePath(QStringLiteral("a.fisura")));
        a.epochs = 3;
        auto full = train(a);
        QVERIFY2(full, full.status().toString().c_str());

        TrainOptions b = segOptions(tmp.filePath(QStringLiteral("b.fisura")));
        b.epochs = 3;
        b.stopAfterEpoch = 1;
        auto first = train(b);
        QVERIFY2(first, first.status().toString().c_str());
        QVERIFY(first->paused);
        QCOMPARE(first->epochsRun, 1);
        b.stopAfterEpoch = 0;
        b.resumeFrom = first->checkpointPath;
        auto rest = train(b);
        QVERIFY2(rest, rest.status().toString().c_str());
        QCOMPARE(rest->epochsRun, 3);
        QCOMPARE(int(rest->history.size()), 3);
        for (int e = 0; e < 3; ++e) {
            const auto& x = full->history[size_t(e)];
            const auto& y = rest->history[size_t(e)];
            QVERIFY2(std::abs(x.trainLoss - y.trainLoss) < 1e-5 * std::max(1.0, x.trainLoss),
                     qPrintable(QStringLiteral("epoch %1 train loss %2 vs %3")
                                    .arg(e)
                                    .arg(x.trainLoss)
                                    .arg(y.trainLoss)));
            QVERIFY(std::abs(x.valLoss - y.valLoss) < 1e-5 * std::max(1.0, x.valLoss));
        }
        // A checkpoint of another task is refused with a clear code.
        TrainOptions wrong = b;
        wrong.task = TaskKind::Anomaly;
        wrong.dataDir = clean_;
        wrong.outPath = s(tmp.filePath(QStringLiteral("w.fisura")));
        QCOMPARE(train(wrong).status().code(), ErrorCode::InvalidArgument);
        wrong.resumeFrom = a.outPath + ".split.json";
        QCOMPARE(train(wrong).status().code(), ErrorCode::Corrupt);
    }

    // The multi-tensor optimiser step and the device-side clipping are the same arithmetic as
    // torch::optim::AdamW::step() and clip_grad_norm_; reading the loss back every few steps
    // (as on a GPU) changes when progress is reported, not what is trained.
    void optimizerKernelsAndLaggedReadBackAgree()
    {
        QTemporaryDir tmp;
        auto runWith = [&](const std::string& kernel, int readBack, const char* name,
                           int* batchEvents) {
            testing::forceAdamWKernel(kernel);
            testing::setLossReadBackSteps(readBack);
            TrainOptions o = segOptions(tmp.filePath(QString::fromLatin1(name)));
            o.epochs = 2;
            o.clipNorm = 0.05; // small, so clipping scales the gradients of every step
            struct Count : TrainSink {
                int batches = 0;
                std::string optimizer;
                void started(const TrainStarted& st) override
                {
                    for (const auto& c : st.policy.choices)
                        if (c.what == "optimizer")
                            optimizer = c.value;
                }
                void batch(const BatchProgress&) override { ++batches; }
            } sink;
            auto r = train(o, {}, &sink);
            testing::forceAdamWKernel("");
            testing::setLossReadBackSteps(0);
            if (batchEvents)
                *batchEvents = sink.batches;
            if (!kernel.empty())
                [&] { QCOMPARE(sink.optimizer, kernel); }();
            return r;
        };
        int perStepEvents = 0, laggedEvents = 0;
        auto ref = runWith("per-tensor", 1, "ref.fisura", &perStepEvents);
        QVERIFY2(ref, ref.status().toString().c_str());
        auto multi = runWith("foreach", 1, "multi.fisura", nullptr);
        QVERIFY2(multi, multi.status().toString().c_str());
        auto lagged = runWith("foreach", 3, "lagged.fisura", &laggedEvents);
        QVERIFY2(lagged, lagged.status().toString().c_str());
        for (const auto* other : {&*multi, &*lagged}) {
            QCOMPARE(other->history.size(), ref->history.size());
            for (size_t e = 0; e < ref->history.size(); ++e) {
                const double x = ref->history[e].trainLoss, y = other->history[e].trainLoss;
                QVERIFY2(std::abs(x - y) < 1e-4 * std::max(1.0, x),
                         qPrintable(QStringLiteral("epoch %1: %2 vs %3").arg(e).arg(x).arg(y)));
                QVERIFY(std::abs(ref->history[e].valLoss - other->history[e].valLoss) <
                        1e-4 * std::max(1.0, ref->history[e].valLoss));
            }
        }
        // Every step reported at read-back 1; about a third of them (plus each epoch's last
        // window) at read-back 3.
        QVERIFY(perStepEvents >= 4);
        QVERIFY2(laggedEvents < perStepEvents && laggedEvents >= perStepEvents / 3,
                 qPrintable(QStringLiteral("%1 vs %2").arg(laggedEvents).arg(perStepEvents)));
    }

    void pauseRequestedEndsAfterTheEpoch()
    {
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("p.fisura")));
        o.epochs = 5;
        // Asked mid-epoch (on the first batch), the pause takes effect when that epoch ends.
        struct PauseSink final : TrainSink {
            CancelToken pause;
            void batch(const BatchProgress&) override { pause.cancel(); }
        } sink;
        sink.pause = o.pauseRequested;
        auto r = train(o, {}, &sink);
        QVERIFY2(r, r.status().toString().c_str());
        QVERIFY(r->paused);
        QVERIFY(!r->cancelled);
        QCOMPARE(r->epochsRun, 1);
        QCOMPARE(int(r->history.size()), 1);
        QVERIFY(std::any_of(r->notices.begin(), r->notices.end(),
                            [](const std::string& n) { return n.rfind("paused:", 0) == 0; }));
        // Resuming with a fresh flag runs to the end.
        TrainOptions rest = o;
        rest.pauseRequested = CancelToken();
        rest.resumeFrom = r->checkpointPath;
        auto done = train(rest);
        QVERIFY2(done, done.status().toString().c_str());
        QVERIFY(!done->paused);
        QCOMPARE(done->epochsRun, 5);
    }

    void outOfMemoryHalvesBatch_data()
    {
        QTest::addColumn<bool>("cuda");
        QTest::newRow("cpu") << false;
        QTest::newRow("cuda") << true; // the CUDA step (graph capture included) recovers too
    }
    void outOfMemoryHalvesBatch()
    {
        QFETCH(bool, cuda);
        if (cuda && !cudaUsable())
            QSKIP("no usable CUDA GPU");
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("oom.fisura")));
        o.preferCpu = !cuda;
        o.batchSize = 8;
        o.epochs = 1;
        RecordingSink sink;
        testing::injectOutOfMemoryAtStep(0);
        auto r = train(o, {}, &sink);
        testing::injectOutOfMemoryAtStep(-1);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->outOfMemoryRecoveries, 1);
        QCOMPARE(r->finalBatchSize, 4);
        QCOMPARE(r->epochsRun, 1);
        QVERIFY(std::find(sink.notices.begin(), sink.notices.end(), "out_of_memory") !=
                sink.notices.end());
        QCOMPARE(sink.lastBatch.batchSize, 4);
        QVERIFY(!r->history.empty() && r->history[0].trainLoss > 0);
        QCOMPARE(r->policy.useCuda, cuda);
    }

    // A CPU batch whose estimated training memory is over the budget trains in equal parts with
    // the gradients added up: the log says so, the batch (so the steps and the samples per step)
    // stays, the losses are numbers. Within the budget the batch trains whole, silently.
    void cpuBatchOverBudgetTrainsInParts_data()
    {
        QTest::addColumn<int>("imagesInBudget"); // activations of this many images fit
        QTest::addColumn<QString>("notice");     // "" = none
        QTest::newRow("two parts") << 4 << QStringLiteral("train in 2 parts of 4");
        QTest::newRow("three images: parts of 2") << 3 << QStringLiteral("train in 4 parts of 2");
        QTest::newRow("not even one: parts of 1") << 0 << QStringLiteral("train in 8 parts of 1");
        QTest::newRow("whole") << 8 << QString();
    }
    void cpuBatchOverBudgetTrainsInParts()
    {
        QFETCH(int, imagesInBudget);
        QFETCH(QString, notice);
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("parts.fisura")));
        o.batchSize = 8;
        o.epochs = 1;
        o.precision = Precision::FP32;
        auto fp = estimateFootprint(o.model, Precision::FP32);
        QVERIFY(fp && fp->activationBytesPerImage > 0);
        // The option in MiB, exact as a double: the budget is these bytes to the byte.
        o.cpuMemoryMb =
            double(fp->trainingBytes(std::max(1, imagesInBudget)) - (imagesInBudget == 0 ? 1 : 0)) /
            1048576.0;
        RecordingSink sink;
        auto r = train(o, {}, &sink);
        QVERIFY2(r, r.status().toString().c_str());
        const auto it =
            std::find_if(r->notices.begin(), r->notices.end(),
                         [](const std::string& n) { return n.rfind("cpu_micro_batch:", 0) == 0; });
        if (notice.isEmpty()) {
            QVERIFY(it == r->notices.end());
        } else {
            QVERIFY(it != r->notices.end());
            QVERIFY2(it->find(notice.toStdString()) != std::string::npos, it->c_str());
        }
        QCOMPARE(r->finalBatchSize, 8);
        QCOMPARE(sink.lastBatch.batchSize, 8);
        QCOMPARE(r->epochsRun, 1);
        QVERIFY(!r->history.empty() && std::isfinite(r->history[0].trainLoss) &&
                r->history[0].trainLoss > 0);
    }

    // On a GPU (the `gpu` label): the policy puts the job there, the epochs report the device's
    // memory, the losses are numbers, and the saved model loads.
    void trainsOnTheGpu()
    {
        if (!cudaUsable())
            QSKIP("no usable CUDA GPU");
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("gpu.fisura")));
        o.preferCpu = false;
        o.epochs = 3;
        auto r = train(o);
        QVERIFY2(r, r.status().toString().c_str());
        QVERIFY(r->policy.useCuda);
        QCOMPARE(r->policy.deviceIndex, 0);
        QCOMPARE(r->epochsRun, 3);
        for (const auto& e : r->history) {
            QVERIFY2(std::isfinite(e.trainLoss) && e.trainLoss > 0,
                     qPrintable(QString::number(e.trainLoss)));
            QVERIFY(std::isfinite(e.valLoss));
            QVERIFY(e.gpuPeakBytes > 0);
            QVERIFY(e.segF1 >= 0 && e.segF1 <= 1);
        }
        auto m = Model::load(o.outPath);
        QVERIFY2(m, m.status().toString().c_str());
        QCOMPARE(m->info().config.depth, 2);
    }

    void classifierAndAutoencoderRun()
    {
        QTemporaryDir tmp;
        TrainOptions c = segOptions(tmp.filePath(QStringLiteral("cls.fisura")));
        c.task = TaskKind::Classify;
        c.dataDir = cls_;
        c.model.depth = 2;
        auto r = train(c);
        QVERIFY2(r, r.status().toString().c_str());
        const auto& m = r->history.back();
        QVERIFY(m.accuracy >= 0 && m.accuracy <= 1 && m.f1 >= 0 && m.f1 <= 1);
        auto model = Model::load(c.outPath);
        QVERIFY(model);
        QCOMPARE(model->info().classNames, (std::vector<std::string>{"cracked", "uncracked"}));

        TrainOptions a = segOptions(tmp.filePath(QStringLiteral("ae.fisura")));
        a.task = TaskKind::Anomaly;
        a.dataDir = clean_;
        a.model.depth = 0; // sized from the input
        auto ae = train(a);
        QVERIFY2(ae, ae.status().toString().c_str());
        const auto& e = ae->history.back();
        QVERIFY(e.errorP50 > 0);
        QVERIFY(e.errorP50 <= e.errorP95 && e.errorP95 <= e.errorP99 && e.errorP99 <= e.errorMax);
        QCOMPARE(e.anomalyThreshold, e.errorP99);
        auto aem = Model::load(a.outPath);
        QVERIFY(aem);
        QVERIFY(aem->info().threshold > 0);
    }

    void badDataIsAnError()
    {
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("x.fisura")));
        o.dataDir = s(tmp.path()) + "/missing";
        QCOMPARE(train(o).status().code(), ErrorCode::NotFound);
        o.dataDir = seg_;
        o.epochs = 0;
        QCOMPARE(train(o).status().code(), ErrorCode::InvalidArgument);
    }
};

QTEST_GUILESS_MAIN(TstTrain)
#include "tst_train.moc"
