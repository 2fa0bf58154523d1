// The CPU side of the execution policy: LibTorch's threads from the cores (and the user's
// override), bf16 and channels-last where the processor has bf16 instructions, glibc's malloc
// settings, BatchNorm folded into the convolutions for inference, and bf16 maps close to fp32.
#include "compat/torch_compat.h"

#include <QtTest>

#include <QTemporaryDir>

#include <cstdlib>
#include <map>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "fisura/infer.h"
#include "fisura/model.h"
#include "fisura/policy.h"
#include "fisura/sysinfo.h"
#include "fisura/tiledimage.h"
#include "map_fixtures.h"
#include "models/model_impl.h"
#include "models/networks.h"
#include "train/micro_batch.h"
#include "util/malloc_tuning.h"

using namespace fisura;

namespace
{

MachineInfo cpuMachine(int cores, bool bf16 = false)
{
    MachineInfo m;
    m.logicalCores = cores;
    m.cpuBf16 = bf16;
    m.cudaStatus = "no CUDA";
    return m;
}

MachineInfo gpuMachine(int cores)
{
    MachineInfo m = cpuMachine(cores);
    m.cudaUsable = true;
    GpuInfo g;
    g.name = "Fake GPU";
    g.computeMajor = 9;
    g.totalMemoryBytes = 80ull << 30;
    deriveGpuFeatures(g);
    m.gpus.push_back(g);
    return m;
}

const PolicyChoice* choice(const ExecutionPolicy& p, const std::string& what)
{
    for (const auto& c : p.choices)
        if (c.what == what)
            return &c;
    return nullptr;
}

PolicyRequest request(JobKind kind, Precision precision = Precision::Auto)
{
    PolicyRequest r;
    r.kind = kind;
    r.precision = precision;
    return r;
}

/// A network with BatchNorm statistics far from the identity, so folding has work to do.
void randomiseBatchNorm(torch::nn::Module& net)
{
    torch::NoGradGuard g;
    for (auto& b : net.named_buffers(true)) {
        if (b.key().find("running_mean") != std::string::npos)
            b.value().uniform_(-0.5, 0.5);
        else if (b.key().find("running_var") != std::string::npos)
            b.value().uniform_(0.5, 2.0);
    }
    for (auto& p : net.named_parameters(true))
        if (p.key().find("bias") != std::string::npos && p.value().dim() == 1)
            p.value().uniform_(-0.2, 0.2);
}

using mapfixtures::pattern;
using mapfixtures::readMap;

} // namespace

class TstCpuPolicy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void threadsFollowTheCores_data()
    {
        QTest::addColumn<int>("cores");
        QTest::addColumn<bool>("gpu");
        QTest::addColumn<int>("intra");
        QTest::addColumn<int>("intraInfer"); // tiled inference's readers may take more cores
        QTest::addColumn<QString>("reason");
        QTest::newRow("1 core") << 1 << false << 1 << 1 << "threads_cpu";
        QTest::newRow("2 cores") << 2 << false << 2 << 2 << "threads_cpu";
        QTest::newRow("16 cores") << 16 << false << 14 << 14 << "threads_cpu";
        QTest::newRow("64 cores") << 64 << false << 56 << 56 << "threads_cpu";
        QTest::newRow("GPU, 16 cores: 8 loaders, 14 readers")
            << 16 << true << 8 << 2 << "threads_gpu";
        QTest::newRow("GPU, 2 cores: 1 loader") << 2 << true << 1 << 1 << "threads_gpu";
    }
    void threadsFollowTheCores()
    {
        QFETCH(int, cores);
        QFETCH(bool, gpu);
        QFETCH(int, intra);
        QFETCH(int, intraInfer);
        QFETCH(QString, reason);
        for (JobKind kind : {JobKind::Train, JobKind::Infer}) {
            const auto p = choosePolicy(gpu ? gpuMachine(cores) : cpuMachine(cores), request(kind));
            const int want = kind == JobKind::Infer ? intraInfer : intra;
            QCOMPARE(p.intraOpThreads, want);
            QCOMPARE(p.interOpThreads, 1);
            const PolicyChoice* c = choice(p, "intra_op_threads");
            QVERIFY(c);
            QCOMPARE(QString::fromStdString(c->reasonId), reason);
            QCOMPARE(c->value, std::to_string(want));
            QCOMPARE(choice(p, "inter_op_threads")->reasonId, std::string("interop_chain"));
            const auto j = toJson(p);
            QVERIFY(j.find("\"intra_op_threads\": " + std::to_string(want)) != std::string::npos);
        }
    }

    void threadsCanBeOverridden()
    {
        PolicyRequest r = request(JobKind::Infer);
        r.intraOpThreads = 3;
        r.interOpThreads = 2;
        const auto p = choosePolicy(cpuMachine(2), r);
        QCOMPARE(p.intraOpThreads, 3);
        QCOMPARE(p.interOpThreads, 2);
        QCOMPARE(choice(p, "intra_op_threads")->reasonId, std::string("user"));
        QCOMPARE(choice(p, "inter_op_threads")->reasonId, std::string("user"));
    }

    void cpuFeaturesFromFlags()
    {
        MachineInfo m;
        deriveCpuFeatures("fpu sse2 avx2 avx512f avx512_bf16 avx512_vnni", m);
        QVERIFY(m.cpuBf16);
        QVERIFY(!m.cpuAmx);
        deriveCpuFeatures("fpu avx2 amx_tile amx_bf16 amx_int8", m);
        QVERIFY(m.cpuBf16);
        QVERIFY(m.cpuAmx);
        deriveCpuFeatures("fpu avx2 avx512f avx512_bf16x", m); // whole names only
        QVERIFY(!m.cpuBf16);
        QVERIFY(!m.cpuAmx);
        deriveCpuFeatures("", m);
        QVERIFY(!m.cpuBf16);
    }

    void cpuPrecisionAndLayout()
    {
        // bf16 processor: inference and training in bf16 autocast with channels-last.
        auto p = choosePolicy(cpuMachine(2, true), request(JobKind::Infer));
        QCOMPARE(p.precision, Precision::BF16);
        QVERIFY(p.channelsLast);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("cpu_bf16"));
        QCOMPARE(choice(p, "precision")->reasonArg, std::string("AVX512-BF16"));
        QCOMPARE(choice(p, "channels_last")->reasonId, std::string("nhwc_cpu"));
        QVERIFY(p.foldBatchNorm);
        QCOMPARE(choice(p, "batchnorm_fold")->reasonId, std::string("bn_fold_infer"));

        p = choosePolicy(cpuMachine(2, true), request(JobKind::Train));
        QCOMPARE(p.precision, Precision::BF16); // measured: faster than fp32 (RESULTS.md)
        QVERIFY(p.channelsLast);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("cpu_bf16_train"));
        QVERIFY(!p.foldBatchNorm);
        QCOMPARE(choice(p, "batchnorm_fold")->reasonId, std::string("bn_fold_train"));

        p = choosePolicy(cpuMachine(2, true), request(JobKind::Train, Precision::BF16));
        QCOMPARE(p.precision, Precision::BF16);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("user"));
        p = choosePolicy(cpuMachine(2, false), request(JobKind::Train));
        QCOMPARE(p.precision, Precision::FP32);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("cpu_fp32"));

        p = choosePolicy(cpuMachine(2, true), request(JobKind::Infer, Precision::BF16));
        QCOMPARE(p.precision, Precision::BF16);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("user"));

        // No bf16 instructions: fp32, the layout LibTorch gives.
        p = choosePolicy(cpuMachine(2, false), request(JobKind::Infer));
        QCOMPARE(p.precision, Precision::FP32);
        QVERIFY(!p.channelsLast);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("cpu_fp32"));
        QCOMPARE(choice(p, "channels_last")->reasonId, std::string("nhwc_cpu_off"));
        p = choosePolicy(cpuMachine(2, false), request(JobKind::Infer, Precision::BF16));
        QCOMPARE(p.precision, Precision::FP32);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("bf16_cpu_unsupported"));
        p = choosePolicy(cpuMachine(2, true), request(JobKind::Infer, Precision::FP16));
        QCOMPARE(p.precision, Precision::FP32);
        QCOMPARE(choice(p, "precision")->reasonId, std::string("reduced_needs_gpu"));
    }

    void mallocGuard()
    {
        std::map<std::string, std::string> env;
        auto get = [&](const char* n) -> const char* {
            auto it = env.find(n);
            return it == env.end() ? nullptr : it->second.c_str();
        };
        QVERIFY(!fisura::detail::userMallocSettings(get));
        env["GLIBC_TUNABLES"] = "glibc.rtld.optional_static_tls=4096";
        QVERIFY(!fisura::detail::userMallocSettings(get));
        env["GLIBC_TUNABLES"] = "glibc.malloc.trim_threshold=1";
        QVERIFY(fisura::detail::userMallocSettings(get));
        env.clear();
        env["MALLOC_ARENA_MAX"] = "2";
        QVERIFY(fisura::detail::userMallocSettings(get));

        const fisura::detail::MallocTuning first = fisura::detail::tuneMallocForJobs();
        const fisura::detail::MallocTuning second = fisura::detail::tuneMallocForJobs();
#if defined(__GLIBC__)
        const bool user =
            fisura::detail::userMallocSettings([](const char* n) { return std::getenv(n); });
        QCOMPARE(first, user ? fisura::detail::MallocTuning::UserSettings
                             : fisura::detail::MallocTuning::Applied);
        QCOMPARE(second, user ? fisura::detail::MallocTuning::UserSettings
                              : fisura::detail::MallocTuning::Already);
#else
        QCOMPARE(first, fisura::detail::MallocTuning::NotGlibc);
        QCOMPARE(second, fisura::detail::MallocTuning::NotGlibc);
#endif
        // Allocation still works both ways round after the change.
        auto big = torch::ones({64, 1024, 1024});
        QCOMPARE(big.sum().item<double>(), 64.0 * 1024 * 1024);
    }

    // A CPU training job's scope maps large blocks (so they go back when freed) and gives the
    // job-time settings back when the last scope ends.
    void trainingMallocScope()
    {
#if !defined(__GLIBC__)
        QSKIP("glibc's malloc only");
#else
        using namespace fisura::detail;
        if (tuneMallocForJobs() == MallocTuning::UserSettings)
            QSKIP("the environment sets malloc tunables: Fisura leaves malloc alone");
        auto mapped = [](size_t bytes) {
            const size_t before = mallinfo2().hblkhd;
            void* volatile p = std::malloc(bytes);
            const size_t after = mallinfo2().hblkhd;
            std::free(p);
            return after > before;
        };
        // Larger than any free chunk the earlier tests left in the heap (glibc serves a request
        // from a free chunk before it maps one); never touched, so it costs no memory.
        const size_t block = size_t(1) << 30;
        QVERIFY(!mapped(block)); // the job-time settings keep it in the heap
        {
            TrainingMallocScope outer;
            QVERIFY(outer.active());
            QCOMPARE(trainingMallocScopes(), 1);
            QVERIFY(mapped(block));
            QVERIFY(!mapped(size_t(kTrainingMmapThreshold) / 4)); // small blocks stay in the heap
            {
                TrainingMallocScope inner;
                QCOMPARE(trainingMallocScopes(), 2);
            }
            QCOMPARE(trainingMallocScopes(), 1);
            QVERIFY(mapped(block)); // the outer scope still holds
        }
        QCOMPARE(trainingMallocScopes(), 0);
        QVERIFY(!mapped(block));
#endif
    }

    // The CPU step's parts: the largest divisor of the batch whose estimate fits the budget.
    void microBatchFromBudget_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<quint64>("fixed");
        QTest::addColumn<quint64>("perImage");
        QTest::addColumn<quint64>("budget");
        QTest::addColumn<int>("part");
        const quint64 mib = 1ull << 20;
        QTest::newRow("fits whole") << 16 << 100 * mib << 50 * mib << 2000 * mib << 16;
        QTest::newRow("exactly at the budget") << 16 << 100 * mib << 50 * mib << 900 * mib << 16;
        QTest::newRow("half fits") << 16 << 100 * mib << 50 * mib << 899 * mib << 8;
        QTest::newRow("divisor, not the largest count") << 12 << 0ull << 10 * mib << 110 * mib << 6;
        QTest::newRow("a prime batch") << 7 << 0ull << 10 * mib << 60 * mib << 1;
        QTest::newRow("nothing fits: parts of 1") << 16 << 900 * mib << 50 * mib << 100 * mib << 1;
        QTest::newRow("no estimate") << 16 << 0ull << 0ull << 1ull << 16;
        QTest::newRow("batch of 1") << 1 << 900 * mib << 50 * mib << 100 * mib << 1;
    }
    void microBatchFromBudget()
    {
        QFETCH(int, batch);
        QFETCH(quint64, fixed);
        QFETCH(quint64, perImage);
        QFETCH(quint64, budget);
        QFETCH(int, part);
        QCOMPARE(fisura::train_detail::microBatchWithin(batch, fixed, perImage, budget), part);
    }

    void applyingSetsLibTorchThreads()
    {
        ExecutionPolicy p;
        p.intraOpThreads = 2;
        p.interOpThreads = 1;
        auto a = applyCpuSettings(p);
        QCOMPARE(a.intraOpThreads, 2);
        QCOMPARE(at::get_num_threads(), 2);
        QCOMPARE(a.interOpThreads, 1);
        QVERIFY(!a.interOpFixed);
        QVERIFY(a.mallocTuning == "already" || a.mallocTuning == "user_settings" ||
                a.mallocTuning == "not_glibc");
        p.intraOpThreads = 1;
        p.interOpThreads = 3; // the inter-op pool keeps its first size in a process
        a = applyCpuSettings(p);
        QCOMPARE(a.intraOpThreads, 1);
        QCOMPARE(a.interOpThreads, 1);
        QVERIFY(a.interOpFixed);
    }

    void foldedNetworksMatch_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("size");
        QTest::newRow("unet") << int(ModelType::UNet) << 32;
        QTest::newRow("classifier") << int(ModelType::Classifier) << 32;
        QTest::newRow("autoencoder") << int(ModelType::Autoencoder) << 32;
    }
    void foldedNetworksMatch()
    {
        QFETCH(int, type);
        QFETCH(int, size);
        ModelConfig c;
        c.type = ModelType(type);
        c.inputSize = size;
        c.depth = 2;
        c.width = 4;
        c.classes = 2;
        torch::manual_seed(3);
        auto net = models::makeNetwork(c);
        randomiseBatchNorm(*net);
        net->eval();
        const auto before = net->named_parameters(true).size();
        torch::NoGradGuard g;
        const auto x = torch::randn({2, 3, size, size});
        const auto ref = models::forwardNetwork(*net, c.type, x);
        auto folded = models::foldedCopy(*net, c);
        const auto y = models::forwardNetwork(*folded, c.type, x);
        QVERIFY(y.sizes() == ref.sizes());
        const double err = (y - ref).abs().max().item<double>();
        const double scale = ref.abs().max().item<double>();
        QVERIFY2(err <= 1e-4 * std::max(1.0, scale), std::to_string(err).c_str());
        // No BatchNorm after a convolution left in the copy (the autoencoder keeps those after
        // its transposed convolutions); the original keeps its own.
        auto countBn = [](torch::nn::Module& n) {
            int k = 0;
            for (const auto& m : n.modules(false))
                k += m->as<torch::nn::BatchNorm2dImpl>() ? 1 : 0;
            return k;
        };
        const int left = countBn(*folded), had = countBn(*net);
        QVERIFY(had > 0);
        if (c.type == ModelType::Autoencoder)
            QCOMPARE(left, c.depth); // one after each transposed convolution
        else
            QCOMPARE(left, 0);
        QCOMPARE(net->named_parameters(true).size(), before);
        QVERIFY((models::forwardNetwork(*net, c.type, x) - ref).abs().max().item<double>() == 0);
    }

    void bf16MapsWithinTwoGreyLevels()
    {
        if (!queryMachine().cpuBf16)
            QSKIP("the processor has no bf16 instructions");
        QTemporaryDir d;
        ModelConfig c;
        c.type = ModelType::UNet;
        c.inputSize = 64;
        c.depth = 3;
        c.width = 8;
        auto m = Model::create(c, 7);
        QVERIFY(m.isOk());
        randomiseBatchNorm(*m->impl()->net);
        {
            // Spread the logits as a trained model's are (random weights give a flat map).
            torch::NoGradGuard g;
            static_cast<models::UNetImpl&>(*m->impl()->net).out->weight.mul_(60);
        }
        const std::string mp = (d.path() + QStringLiteral("/u.fmodel")).toStdString();
        QVERIFY(m->save(mp).isOk());
        const std::string in = (d.path() + QStringLiteral("/in.tif")).toStdString();
        QVERIFY(writeTiff(in, pattern(600, 200), {128, true, 0}).isOk());
        Image maps[2];
        int i = 0;
        for (Precision p : {Precision::FP32, Precision::BF16}) {
            auto loaded = Model::load(mp);
            QVERIFY(loaded.isOk());
            InferOptions o;
            o.preferCpu = true;
            o.precision = p;
            o.tileSize = 256;
            auto e = TiledInference::create(std::move(*loaded), o);
            QVERIFY2(e.isOk(), e.status().toString().c_str());
            QCOMPARE((*e)->policy().precision, p);
            QCOMPARE((*e)->policy().channelsLast, p == Precision::BF16);
            const std::string out = (d.path() + QStringLiteral("/m%1.tif").arg(i)).toStdString();
            QVERIFY((*e)->run(in, out).isOk());
            maps[i++] = readMap(out);
        }
        QCOMPARE(maps[0].pixels.size(), maps[1].pixels.size());
        int worst = 0, spread = 0;
        uint8_t lo = 255, hi = 0;
        for (size_t k = 0; k < maps[0].pixels.size(); ++k) {
            worst = std::max(worst, std::abs(int(maps[0].pixels[k]) - int(maps[1].pixels[k])));
            lo = std::min(lo, maps[0].pixels[k]);
            hi = std::max(hi, maps[0].pixels[k]);
        }
        spread = hi - lo;
        QVERIFY2(worst <= 2, (std::to_string(worst) + " grey levels").c_str());
        QVERIFY2(spread > 20, std::to_string(spread).c_str()); // not a flat map
    }
};

QTEST_GUILESS_MAIN(TstCpuPolicy)
#include "tst_cpu_policy.moc"
