// Device inventory, execution policy, batch probing and telemetry. Runs without a GPU: policies
// are computed for fake devices; the probe drives a fake step whose memory limit we know.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "fisura/gpumemory.h"
#include "fisura/infer.h"
#include "fisura/policy.h"
#include "fisura/sysinfo.h"
#include "fisura/telemetry.h"
#include "fisura/train.h"

using namespace fisura;

namespace
{

constexpr unsigned long long GB = 1000ull * 1000ull * 1000ull;

MachineInfo fakeMachine(int ccMajor, int ccMinor, unsigned long long memory, int cores = 16)
{
    MachineInfo m;
    m.logicalCores = cores;
    m.torchBuiltWithCuda = true;
    if (ccMajor > 0) {
        GpuInfo g;
        g.name = "Fake GPU";
        g.computeMajor = ccMajor;
        g.computeMinor = ccMinor;
        g.totalMemoryBytes = memory;
        deriveGpuFeatures(g);
        m.gpus.push_back(g);
        m.cudaUsable = true;
        m.cudaStatus = "1 CUDA device(s) usable";
    } else {
        m.cudaStatus = "no NVIDIA driver found (libcuda.so.1 is missing)";
    }
    return m;
}

const PolicyChoice* findChoice(const ExecutionPolicy& p, const std::string& what)
{
    for (const auto& c : p.choices)
        if (c.what == what)
            return &c;
    return nullptr;
}

/// A step that "runs out of memory" above `limit` and takes `perImage` seconds per sample plus a
/// fixed overhead, so throughput rises with the batch size.
BatchStep fakeStep(int limit, double perImage, double overhead, std::atomic<int>* calls = nullptr)
{
    return [=](int batch) -> Status {
        if (calls)
            ++*calls;
        if (batch > limit)
            return {ErrorCode::OutOfMemory, "CUDA out of memory (fake)"};
        std::this_thread::sleep_for(std::chrono::duration<double>(overhead + perImage * batch));
        return Status::ok();
    };
}

BatchProbeOptions fastOptions()
{
    BatchProbeOptions o;
    o.warmupSteps = 0;
    o.timedSteps = 1;
    return o;
}

} // namespace

class TstDevice : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // ---- policy over fake devices ----------------------------------------------------------
    void policyForDevice_data()
    {
        QTest::addColumn<int>("ccMajor");
        QTest::addColumn<int>("ccMinor");
        QTest::addColumn<qulonglong>("memory");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<bool>("lossScaling");
        QTest::addColumn<bool>("tf32");
        QTest::addColumn<bool>("channelsLast");
        QTest::addColumn<int>("batch");
        QTest::addColumn<bool>("cuda");

        QTest::newRow("pascal 6.1 4 GB")
            << 6 << 1 << qulonglong(4 * GB) << "fp32" << false << false << false << 64 << true;
        QTest::newRow("pascal 6.1 3 GB")
            << 6 << 1 << qulonglong(3 * GB) << "fp32" << false << false << false << 32 << true;
        QTest::newRow("turing 7.5 6 GB")
            << 7 << 5 << qulonglong(6 * GB) << "fp16" << true << false << true << 64 << true;
        QTest::newRow("turing 7.5 16 GB")
            << 7 << 5 << qulonglong(16 * GB) << "fp16" << true << false << true << 128 << true;
        QTest::newRow("ampere 8.6 8 GB")
            << 8 << 6 << qulonglong(8 * GB) << "bf16" << false << true << true << 128 << true;
        QTest::newRow("ampere 8.6 7.9 GB")
            << 8 << 6 << qulonglong(7900000000ull) << "bf16" << false << true << true << 64 << true;
        QTest::newRow("hopper 9.0 80 GB")
            << 9 << 0 << qulonglong(80 * GB) << "bf16" << false << true << true << 128 << true;
        QTest::newRow("cpu only") << 0 << 0 << qulonglong(0) << "fp32" << false << false << false
                                  << 16 << false;
    }
    void policyForDevice()
    {
        QFETCH(int, ccMajor);
        QFETCH(int, ccMinor);
        QFETCH(qulonglong, memory);
        QFETCH(QString, precision);
        QFETCH(bool, lossScaling);
        QFETCH(bool, tf32);
        QFETCH(bool, channelsLast);
        QFETCH(int, batch);
        QFETCH(bool, cuda);

        const auto m = fakeMachine(ccMajor, ccMinor, memory);
        const auto p = choosePolicy(m, PolicyRequest{});
        QCOMPARE(p.useCuda, cuda);
        QCOMPARE(QString::fromLatin1(precisionName(p.precision)), precision);
        QCOMPARE(p.lossScaling, lossScaling);
        QCOMPARE(p.tf32, tf32);
        QCOMPARE(p.cudnnBenchmark, cuda);
        QCOMPARE(p.pinnedMemory, cuda);
        QCOMPARE(p.channelsLast, channelsLast);
        QCOMPARE(p.batchSize, batch);
        QVERIFY(!p.batchSizeMeasured);
        // Inference keeps cuDNN's choice fixed (the same map on every GPU), and says so.
        PolicyRequest infer;
        infer.kind = JobKind::Infer;
        const auto pi = choosePolicy(m, infer);
        QVERIFY(!pi.cudnnBenchmark);
        QCOMPARE(QString::fromStdString(findChoice(pi, "cudnn_benchmark")->reasonId),
                 cuda ? QStringLiteral("cudnn_infer_fixed") : QStringLiteral("cudnn_off"));
        // Every decision is explained, and the explanation is the value the policy holds.
        for (const char* what : {"device", "precision", "tf32", "cudnn_benchmark", "channels_last",
                                 "pinned_memory", "batch_size", "loader_threads"}) {
            const PolicyChoice* c = findChoice(p, what);
            QVERIFY2(c, what);
            QVERIFY2(!c->reason.empty(), what);
            QVERIFY2(!c->reasonId.empty(), what); // the GUI translates by id
        }
        QCOMPARE(QString::fromStdString(findChoice(p, "precision")->value), precision);
        QCOMPARE(findChoice(p, "batch_size")->value, std::to_string(batch));
        QCOMPARE(findChoice(p, "loss_scaling") != nullptr, lossScaling);
        if (!cuda)
            QVERIFY(findChoice(p, "device")->reason.find("libcuda") != std::string::npos);
    }

    // The policy is asked about the job that runs: training about the model it trains and its
    // input size; tiled inference about the tile it runs on (a U-Net trained on 256 px crops
    // runs on 512 px tiles), never the model's training input size.
    void requestsAskAboutTheJobThatRuns()
    {
        TrainOptions t; // segment: a U-Net
        t.model.inputSize = 320;
        t.precision = Precision::BF16;
        t.batchSize = 12;
        t.preferCpu = true;
        t.intraOpThreads = 3;
        t.interOpThreads = 2;
        const PolicyRequest r = policyRequestFor(t);
        QCOMPARE(r.kind, JobKind::Train);
        QCOMPARE(QString::fromStdString(r.model), QStringLiteral("unet"));
        QCOMPARE(r.inputSize, 320);
        QCOMPARE(r.precision, Precision::BF16);
        QCOMPARE(r.batchSize, 12);
        QVERIFY(r.preferCpu);
        QCOMPARE(r.intraOpThreads, 3);
        QCOMPARE(r.interOpThreads, 2);
        t.task = TaskKind::Anomaly;
        QCOMPARE(QString::fromStdString(policyRequestFor(t).model), QStringLiteral("autoencoder"));
        t.model.type = ModelType::PatchGaussian;
        QCOMPARE(QString::fromStdString(policyRequestFor(t).model),
                 QStringLiteral("patch-gaussian"));
        t.task = TaskKind::Classify; // the task decides: a classifier
        QCOMPARE(QString::fromStdString(policyRequestFor(t).model), QStringLiteral("classifier"));
        QCOMPARE(QString::fromStdString(policyRequestFor(TrainOptions{}).model),
                 QStringLiteral("unet"));

        ModelInfo unet;
        unet.config.type = ModelType::UNet;
        unet.config.inputSize = 256;
        unet.config.depth = 4;
        InferOptions io;
        io.precision = Precision::FP16;
        io.batchSize = 6;
        io.intraOpThreads = 5;
        const PolicyRequest ri = policyRequestFor(unet, io);
        QCOMPARE(ri.kind, JobKind::Infer);
        QCOMPARE(QString::fromStdString(ri.model), QStringLiteral("unet"));
        QCOMPARE(ri.inputSize, 512);
        QCOMPARE(ri.inputSize, inferenceTile(unet, io));
        QCOMPARE(ri.precision, Precision::FP16);
        QCOMPARE(ri.batchSize, 6);
        QCOMPARE(ri.intraOpThreads, 5);
        unet.config.inputSize = 600;
        unet.config.depth = 5; // a multiple of 32 at least 600
        QCOMPARE(policyRequestFor(unet, io).inputSize, 608);
        unet.tileSize = 1024; // the model file's own tile
        QCOMPARE(policyRequestFor(unet, io).inputSize, 1024);
        io.tileSize = 768; // the user's
        QCOMPARE(policyRequestFor(unet, io).inputSize, 768);
        ModelInfo classifier;
        classifier.config.type = ModelType::Classifier;
        classifier.config.inputSize = 224;
        QCOMPARE(policyRequestFor(classifier, InferOptions{}).inputSize, 224);
    }

    void inferenceNeedsNoLossScaling()
    {
        PolicyRequest r;
        r.kind = JobKind::Infer;
        const auto p = choosePolicy(fakeMachine(7, 5, 16 * GB), r);
        QCOMPARE(p.precision, Precision::FP16);
        QVERIFY(!p.lossScaling);
    }

    void precisionOverride_data()
    {
        QTest::addColumn<int>("ccMajor");
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("reasonPart");
        QTest::newRow("fp32 on hopper") << 9 << "fp32"
                                        << "fp32"
                                        << "requested";
        QTest::newRow("fp16 on ampere") << 8 << "fp16"
                                        << "fp16"
                                        << "requested";
        QTest::newRow("bf16 on turing") << 7 << "bf16"
                                        << "fp16"
                                        << "no bf16";
        QTest::newRow("bf16 on pascal") << 6 << "bf16"
                                        << "fp32"
                                        << "no bf16";
        QTest::newRow("fp16 on pascal") << 6 << "fp16"
                                        << "fp32"
                                        << "no fp16";
        QTest::newRow("bf16 on cpu") << 0 << "bf16"
                                     << "fp32"
                                     << "only runs on a GPU";
    }
    void precisionOverride()
    {
        QFETCH(int, ccMajor);
        QFETCH(QString, requested);
        QFETCH(QString, expected);
        QFETCH(QString, reasonPart);
        PolicyRequest r;
        QVERIFY(parsePrecision(requested.toStdString(), r.precision));
        const auto p = choosePolicy(fakeMachine(ccMajor, 0, 16 * GB), r);
        QCOMPARE(QString::fromLatin1(precisionName(p.precision)), expected);
        QVERIFY2(findChoice(p, "precision")->reason.find(reasonPart.toStdString()) !=
                     std::string::npos,
                 findChoice(p, "precision")->reason.c_str());
    }

    void userBatchAndCpuOverride()
    {
        PolicyRequest r;
        r.batchSize = 7;
        r.preferCpu = true;
        const auto p = choosePolicy(fakeMachine(9, 0, 80 * GB, 4), r);
        QVERIFY(!p.useCuda);
        QCOMPARE(p.batchSize, 7);
        QCOMPARE(p.precision, Precision::FP32);
        QCOMPARE(p.loaderThreads, 2);
        Precision bad;
        QVERIFY(!parsePrecision("fp8", bad));
    }

    void fallbackTable()
    {
        QCOMPARE(fallbackBatchSize(80 * GB), 128);
        QCOMPARE(fallbackBatchSize(8 * GB), 128);
        QCOMPARE(fallbackBatchSize(8 * GB - 1), 64);
        QCOMPARE(fallbackBatchSize(4 * GB), 64);
        QCOMPARE(fallbackBatchSize(4 * GB - 1), 32);
        QCOMPARE(fallbackBatchSize(0), 32);
    }

    void policyJsonIsStable()
    {
        const auto p = choosePolicy(fakeMachine(8, 6, 24 * GB), PolicyRequest{});
        const auto j = nlohmann::json::parse(toJson(p, 2)); // policy.h's (train.h has another)
        QCOMPARE(QString::fromStdString(j.at("precision").get<std::string>()),
                 QStringLiteral("bf16"));
        QCOMPARE(j.at("batch_size").get<int>(), 128);
        QCOMPARE(j.at("choices").size(), p.choices.size());
    }

    // ---- batch probe with a fake step -----------------------------------------------------
    void probeFindsMemoryBoundaryWithHeadroom()
    {
        // 1 ms overhead + 0.05 ms/image: throughput rises with the batch, so the choice is the
        // largest size within the headroom: floor(37 * 0.9) = 33.
        BatchProbeOptions o = fastOptions();
        const auto r = probeBatchSize(fakeStep(37, 0.00005, 0.001), o, CancelToken{});
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->largestFit, 37);
        QVERIFY(r->hitOutOfMemory);
        QCOMPARE(r->headroomLimit, 33);
        // 33 (timed at the limit) and 32 differ by under 2 % in throughput, less than sleep
        // jitter on a loaded machine: either is right; nothing above the headroom is.
        QVERIFY2(r->batchSize == 33 || r->batchSize == 32, std::to_string(r->batchSize).c_str());
        QVERIFY(r->imagesPerSecond > 0);
        QVERIFY(r->reason.find("37") != std::string::npos);
        // Sizes tried: 1 2 4 8 16 32 64(oom), bisection 48 40 36 38 37, then 33.
        QVERIFY(r->samples.size() >= 10);
        QVERIFY(!r->samples[6].fits);
        QCOMPARE(r->samples[6].batch, 64);
    }

    void probePicksBestThroughputNotLargest()
    {
        // Above 8 the fake step gets much slower per image (e.g. a cache spill): 8 wins. Steps
        // of 10 ms and more, so that a loaded machine's sleep jitter (a millisecond or two)
        // cannot reorder 4 (333 images/s) and 8 (571).
        auto step = [](int batch) -> Status {
            const double perImage = batch <= 8 ? 0.0005 : 0.0075;
            std::this_thread::sleep_for(std::chrono::duration<double>(0.01 + perImage * batch));
            return Status::ok();
        };
        BatchProbeOptions o = fastOptions();
        o.maxBatch = 32;
        const auto r = probeBatchSize(step, o, CancelToken{});
        QVERIFY(r.isOk());
        QVERIFY(!r->hitOutOfMemory);
        QCOMPARE(r->largestFit, 32);
        QCOMPARE(r->batchSize, 8);
        ExecutionPolicy p = choosePolicy(fakeMachine(0, 0, 0), PolicyRequest{});
        applyProbe(p, *r);
        QCOMPARE(p.batchSize, 8);
        QVERIFY(p.batchSizeMeasured);
        QCOMPARE(findChoice(p, "batch_size")->reason, r->reason);
    }

    void probeCpuSweepStopsOnTime()
    {
        std::atomic<int> calls{0};
        BatchProbeOptions o = fastOptions();
        o.maxStepSeconds = 0.015; // 1 ms/image: 16 takes 16 ms and ends the sweep
        const auto r = probeBatchSize(fakeStep(1 << 20, 0.001, 0, &calls), o, CancelToken{});
        QVERIFY(r.isOk());
        QCOMPARE(r->samples.back().batch, 16);
        QCOMPARE(calls.load(), 5);
        QVERIFY(r->reason.find("one step already took") != std::string::npos);
    }

    void probeErrorPaths()
    {
        // Nothing fits.
        auto r = probeBatchSize(fakeStep(0, 0, 0), fastOptions(), CancelToken{});
        QCOMPARE(r.status().code(), ErrorCode::OutOfMemory);
        // A real error is not mistaken for out-of-memory.
        auto broken = [](int batch) -> Status {
            return batch >= 4 ? Status(ErrorCode::DeviceError, "illegal memory access")
                              : Status::ok();
        };
        r = probeBatchSize(broken, fastOptions(), CancelToken{});
        QCOMPARE(r.status().code(), ErrorCode::DeviceError);
        // Cancellation.
        CancelToken cancel;
        cancel.cancel();
        r = probeBatchSize(fakeStep(64, 0, 0), fastOptions(), cancel);
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        // Bad options.
        BatchProbeOptions o = fastOptions();
        o.minBatch = 8;
        o.maxBatch = 4;
        QCOMPARE(probeBatchSize(fakeStep(64, 0, 0), o, CancelToken{}).status().code(),
                 ErrorCode::InvalidArgument);
        QCOMPARE(probeBatchSize(BatchStep{}, fastOptions(), CancelToken{}).status().code(),
                 ErrorCode::InvalidArgument);
    }

    // ---- inventory and memory ------------------------------------------------------------
    void inventoryExplainsCuda()
    {
        const auto m = queryMachine();
        QVERIFY(m.logicalCores > 0);
        QVERIFY(m.totalRamBytes > 0);
        QVERIFY(!m.cudaStatus.empty());
        QCOMPARE(m.cudaUsable, !m.gpus.empty());
        for (const auto& g : m.gpus) {
            QVERIFY(g.totalMemoryBytes > 0);
            QCOMPARE(g.bf16, g.computeMajor >= 8);
            QVERIFY(!g.pciBusId.empty());
        }
        const auto j = nlohmann::json::parse(toJson(m));
        QVERIFY(j.at("cuda").contains("driver_version"));
        QVERIFY(j.at("cuda").contains("cudnn_version"));
    }

    void gpuMemoryWithoutCudaIsAnError()
    {
        const auto m = queryMachine();
        if (m.cudaUsable) {
            const auto s = gpuMemoryStats(0);
            QVERIFY(s.isOk());
            QVERIFY(s->driverTotalBytes > 0);
            QCOMPARE(gpuMemoryStats(999).status().code(), ErrorCode::InvalidArgument);
            QVERIFY(releaseGpuMemory(0).isOk());
        } else {
            QCOMPARE(gpuMemoryStats(0).status().code(), ErrorCode::Unsupported);
            QCOMPARE(releaseGpuMemory(0).status().code(), ErrorCode::Unsupported);
            QVERIFY(synchronizeGpu(0).isOk());
        }
    }

    // ---- telemetry ------------------------------------------------------------------------
    void historyRingKeepsNewest()
    {
        TelemetryHistory h(4);
        TelemetrySample s;
        QVERIFY(!h.latest(s));
        for (int i = 0; i < 10; ++i) {
            s.seconds = i;
            h.push(s);
        }
        QCOMPARE(h.size(), size_t(4));
        QCOMPARE(h.pushed(), uint64_t(10));
        const auto all = h.snapshot();
        QCOMPARE(all.size(), size_t(4));
        for (int i = 0; i < 4; ++i)
            QCOMPARE(all[size_t(i)].seconds, double(6 + i));
        QVERIFY(h.latest(s));
        QCOMPARE(s.seconds, 9.0);
        const auto recent = h.snapshot(1.5); // samples at 8 and 9
        QCOMPARE(recent.size(), size_t(2));
        QCOMPARE(recent.front().seconds, 8.0);
        h.clear();
        QCOMPARE(h.size(), size_t(0));
    }

    void historyConcurrentReadersAndWriter()
    {
        TelemetryHistory h(50);
        std::atomic<bool> done{false};
        std::atomic<int> badOrder{0};
        std::thread writer([&] {
            TelemetrySample s;
            for (int i = 0; i < 20000; ++i) {
                s.seconds = i;
                h.push(s);
            }
            done = true;
        });
        auto reader = [&] {
            while (!done) {
                const auto snap = h.snapshot();
                for (size_t i = 1; i < snap.size(); ++i)
                    if (snap[i].seconds != snap[i - 1].seconds + 1)
                        ++badOrder;
            }
        };
        std::thread r1(reader), r2(reader);
        writer.join();
        r1.join();
        r2.join();
        QCOMPARE(badOrder.load(), 0);
        QCOMPARE(h.snapshot().back().seconds, 19999.0);
    }

    void samplerWithoutNvmlStillSamplesCpu()
    {
        TelemetryOptions o;
        o.hz = 10;
        o.historySeconds = 0.5; // ring of 5 samples
        o.nvmlLibrary = "libnvidia-ml-fisura-absent.so.1";
        TelemetrySampler sampler(o);
        QVERIFY(!sampler.hasGpuTelemetry());
        QVERIFY(sampler.gpuStatus().find("not available") != std::string::npos);
        QVERIFY(sampler.driverVersion().empty());
        QCOMPARE(sampler.history().capacity(), size_t(5));
        QVERIFY(sampler.start().isOk());
        QVERIFY(sampler.isRunning());
        // Burn some CPU on this thread so the process CPU % has something to see.
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(900);
        volatile double sink = 0;
        while (std::chrono::steady_clock::now() < until)
            sink = sink + 1.0;
        QTRY_VERIFY_WITH_TIMEOUT(sampler.history().pushed() >= 8, 5000);
        sampler.stop();
        QVERIFY(!sampler.isRunning());
        const uint64_t pushed = sampler.history().pushed();
        const auto snap = sampler.history().snapshot();
        QCOMPARE(snap.size(), size_t(5));
        for (size_t i = 1; i < snap.size(); ++i) {
            const double dt = snap[i].seconds - snap[i - 1].seconds;
            QVERIFY2(dt > 0.05 && dt < 0.5, qPrintable(QString::number(dt)));
        }
        const auto& last = snap.back();
        QVERIFY(last.gpus.empty());
        QVERIFY(last.ramTotalBytes > 0 && last.ramUsedBytes > 0);
        QVERIFY(last.ramUsedBytes <= last.ramTotalBytes);
        QVERIFY(last.processRssBytes > 0);
        QVERIFY(last.systemCpuPercent >= 0 && last.systemCpuPercent <= 100.0);
        double maxProc = 0;
        for (const auto& s : snap)
            maxProc = std::max(maxProc, s.processCpuPercent);
        QVERIFY2(maxProc > 20, qPrintable(QString::number(maxProc)));
        // Stopped means stopped.
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        QCOMPARE(sampler.history().pushed(), pushed);
        const auto j = nlohmann::json::parse(toJson(last));
        QVERIFY(j.at("gpus").empty());
        QVERIFY(j.at("ram_total_bytes").get<uint64_t>() > 0);
    }

    void samplerRateIsValidatedAndChangesLive()
    {
        TelemetryOptions o;
        o.hz = 0.5;
        TelemetrySampler sampler(o);
        QCOMPARE(sampler.setRate(0.1).code(), ErrorCode::InvalidArgument);
        QCOMPARE(sampler.setRate(11).code(), ErrorCode::InvalidArgument);
        QCOMPARE(sampler.rate(), 0.5);
        QVERIFY(sampler.start().isOk());
        QVERIFY(sampler.start().isOk());     // idempotent
        QVERIFY(sampler.setRate(10).isOk()); // wakes the sleeping thread
        QTRY_VERIFY_WITH_TIMEOUT(sampler.history().pushed() >= 5, 2000);
        // Destruction stops the thread.
    }

    void samplerOutOfRangeRateIsClamped()
    {
        TelemetryOptions o;
        o.hz = 100;
        TelemetrySampler sampler(o);
        QCOMPARE(sampler.rate(), TelemetrySampler::kMaxHz);
    }
};

QTEST_GUILESS_MAIN(TstDevice)
#include "tst_device.moc"
