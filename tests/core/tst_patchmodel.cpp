// The patch-gaussian anomaly model: fitted on generated crack-free textures it finds drawn
// cracks (pixel AUROC), survives a save/load unchanged, scores a scan tile by tile exactly as the
// tiles alone, refuses a fit whose statistics cannot fit in memory, and cancels at once leaving
// nothing behind.
#include "compat/torch_compat.h"

#include <QtTest>

#include <QTemporaryDir>

#include <algorithm>
#include <atomic>

#include "fisura/image.h"
#include "fisura/infer.h"
#include "fisura/model.h"
#include "fisura/synth.h"
#include "fisura/testing.h"
#include "fisura/tiledimage.h"
#include "fisura/train.h"
#include "models/model_impl.h"

using namespace fisura;

namespace
{

constexpr int kSize = 64;

std::string s(const QString& q)
{
    return q.toStdString();
}

synth::Scene scene(uint64_t seed, int cracks, int size = kSize)
{
    synth::SceneOptions o;
    o.width = o.height = size;
    o.seed = seed;
    o.cracks = cracks;
    o.minWidthPx = 2.0;
    o.maxWidthPx = 4.0;
    auto r = synth::generateScene(o);
    if (!r)
        qFatal("scene: %s", r.status().toString().c_str());
    return *r;
}

/// Normalised input [1,3,H,W] for the model, as inference builds it.
torch::Tensor inputOf(const Image& im, const ModelInfo& info)
{
    auto x = torch::from_blob(const_cast<uint8_t*>(im.pixels.data()), {1, im.height, im.width, 3},
                              torch::kUInt8)
                 .permute({0, 3, 1, 2})
                 .to(torch::kFloat)
                 .div(255.f);
    const auto mean = torch::tensor(info.mean).view({1, 3, 1, 1});
    const auto stdv = torch::tensor(info.std).view({1, 3, 1, 1});
    return ((x - mean) / stdv).contiguous();
}

torch::Tensor scoreOf(Model& m, const Image& im)
{
    c10::InferenceMode guard;
    return m.impl()->predict(inputOf(im, m.info())).select(1, 0)[0].clone();
}

/// Rank-based AUROC of scores against a 0/255 mask (ties count half).
double auroc(const std::vector<float>& score, const std::vector<uint8_t>& truth)
{
    std::vector<size_t> idx(score.size());
    for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return score[a] < score[b]; });
    double pos = 0, neg = 0, rankSum = 0;
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j < idx.size() && score[idx[j]] == score[idx[i]])
            ++j;
        const double rank = 0.5 * double(i + 1 + j); // average 1-based rank of the tie group
        for (size_t k = i; k < j; ++k)
            if (truth[idx[k]])
                rankSum += rank;
        i = j;
    }
    for (uint8_t t : truth)
        (t ? pos : neg) += 1;
    return (rankSum - pos * (pos + 1) / 2) / std::max(1.0, pos * neg);
}

class CancelOnFirstBatch final : public TrainSink
{
public:
    explicit CancelOnFirstBatch(CancelToken t) : token(std::move(t)) {}
    void batch(const BatchProgress& b) override
    {
        ++batches;
        lastEta = b.etaSeconds;
        token.cancel();
    }
    CancelToken token;
    std::atomic<int> batches{0};
    double lastEta = -2;
};

} // namespace

class TstPatchModel : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;
    std::string clean_;

    TrainOptions options(const std::string& out, bool pooled = true,
                         PatchFeatures f = PatchFeatures::Cnn) const
    {
        TrainOptions o;
        o.task = TaskKind::Anomaly;
        o.dataDir = clean_;
        o.outPath = out;
        o.batchSize = 4;
        o.preferCpu = true;
        o.loaderThreads = 1;
        o.valFraction = 0.25;
        o.model.type = ModelType::PatchGaussian;
        o.model.inputSize = kSize;
        o.model.featureDim = 24;
        o.model.width = 8;
        o.model.patchFeatures = f;
        o.model.pooledPositions = pooled;
        return o;
    }

    Model fit(const std::string& name, bool pooled = true, PatchFeatures f = PatchFeatures::Cnn)
    {
        const std::string out = s(dir_.filePath(QString::fromStdString(name)));
        auto r = train(options(out, pooled, f));
        if (!r)
            qFatal("fit: %s", r.status().toString().c_str());
        auto m = Model::load(out);
        if (!m)
            qFatal("load: %s", m.status().toString().c_str());
        return std::move(*m);
    }

    double crackAuroc(Model& m)
    {
        std::vector<float> scores;
        std::vector<uint8_t> truth;
        for (uint64_t seed = 900; seed < 912; ++seed) {
            const synth::Scene sc = scene(seed, 1);
            const auto sm = scoreOf(m, sc.image).contiguous();
            scores.insert(scores.end(), sm.data_ptr<float>(), sm.data_ptr<float>() + sm.numel());
            truth.insert(truth.end(), sc.mask.pixels.begin(), sc.mask.pixels.end());
        }
        return auroc(scores, truth);
    }

private Q_SLOTS:
    void initTestCase()
    {
        clean_ = s(dir_.filePath(QStringLiteral("clean")));
        QVERIFY(QDir().mkpath(QString::fromStdString(clean_)));
        for (int i = 0; i < 24; ++i) {
            const std::string p = clean_ + "/good_" + std::to_string(i) + ".tif";
            QVERIFY(writeTiff(p, scene(100 + uint64_t(i), 0).image).isOk());
        }
    }

    void sizeIsKnownBeforeFitting()
    {
        ModelConfig c;
        c.type = ModelType::PatchGaussian;
        c.inputSize = 256;
        c.featureDim = 32;
        c.pooledPositions = false;
        auto z = patchGaussianSize(c);
        QVERIFY(z.isOk());
        QCOMPARE(z->gridSize, 128);
        QCOMPARE(z->positions, int64_t(128 * 128));
        QCOMPARE(z->featureDim, 32);
        QCOMPARE(z->modelBytes, uint64_t(128 * 128) * (32 * 32 + 32) * 4);
        QVERIFY(z->fitBytes >= uint64_t(128 * 128) * 32 * 32 * 12); // float64 sums + float32
        c.pooledPositions = true;
        QCOMPARE(patchGaussianSize(c)->positions, int64_t(1));
        c.featureDim = 0;
        QCOMPARE(patchGaussianSize(c).status().code(), ErrorCode::InvalidArgument);
    }

    void findsDrawnCracks_data()
    {
        QTest::addColumn<bool>("pooled");
        QTest::addColumn<int>("features");
        QTest::newRow("cnn pooled") << true << int(PatchFeatures::Cnn);
        QTest::newRow("cnn per position") << false << int(PatchFeatures::Cnn);
        QTest::newRow("pixels pooled") << true << int(PatchFeatures::Pixels);
    }
    void findsDrawnCracks()
    {
        // Seeded network and data, one loader thread: the same numbers on every run.
        QFETCH(bool, pooled);
        QFETCH(int, features);
        Model m = fit("auroc.fisura", pooled, PatchFeatures(features));
        QCOMPARE(m.info().config.type, ModelType::PatchGaussian);
        QVERIFY(m.info().threshold > 0);
        const double a = crackAuroc(m);
        qInfo("pixel AUROC %.4f", a);
        QVERIFY2(a > 0.95, qPrintable(QString::number(a)));
    }

    void saveLoadGivesIdenticalScores()
    {
        Model m = fit("rt.fisura");
        const std::string again = s(dir_.filePath(QStringLiteral("rt2.fisura")));
        QVERIFY(m.save(again).isOk());
        auto back = Model::load(again);
        QVERIFY(back.isOk());
        QCOMPARE(back->info().config.featureDim, m.info().config.featureDim);
        QCOMPARE(back->info().config.pooledPositions, true);
        QCOMPARE(back->info().threshold, m.info().threshold);
        const Image im = scene(7, 1).image;
        QVERIFY(torch::equal(scoreOf(m, im), scoreOf(*back, im)));
        QVERIFY(scoreOf(m, im).abs().sum().item<double>() > 0);
        // Metadata that does not match the statistics (pooled ones said to be per position).
        back->info().config.pooledPositions = false;
        const std::string lying = s(dir_.filePath(QStringLiteral("lying.fisura")));
        QVERIFY(back->save(lying).isOk());
        QCOMPARE(Model::load(lying).status().code(), ErrorCode::Corrupt);
    }

    void tiledScanEqualsTiles()
    {
        Model m = fit("tiles.fisura");
        const Image big = scene(42, 2, 2 * kSize).image; // 2 x 2 tiles
        const std::string in = s(dir_.filePath(QStringLiteral("big.tif")));
        const std::string out = s(dir_.filePath(QStringLiteral("big.score.tif")));
        QVERIFY(writeTiff(in, big).isOk());
        auto loaded = Model::load(s(dir_.filePath(QStringLiteral("tiles.fisura"))));
        QVERIFY(loaded.isOk());
        InferOptions o;
        o.preferCpu = true;
        o.overlap = 0;
        o.precision = Precision::FP32;
        auto e = TiledInference::create(std::move(*loaded), o);
        QVERIFY2(e.isOk(), e.status().toString().c_str());
        QCOMPARE((*e)->kind(), MapKind::Score);
        auto r = (*e)->run(in, out);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->tiles, int64_t(4));
        auto map = TiledImage::open(out);
        QVERIFY(map.isOk());
        const Image got = *(*map)->readLevel(0);
        const double scale = 128.0 / m.info().threshold;
        int worst = 0;
        for (int ty = 0; ty < 2; ++ty)
            for (int tx = 0; tx < 2; ++tx) {
                Image tile = Image::make(kSize, kSize, 3);
                for (int y = 0; y < kSize; ++y)
                    std::copy_n(big.row(ty * kSize + y) + tx * kSize * 3, kSize * 3, tile.row(y));
                const auto sc = (scoreOf(m, tile) * scale).round().clamp(0, 255).to(torch::kInt);
                const auto a = sc.accessor<int, 2>();
                for (int y = 0; y < kSize; ++y)
                    for (int x = 0; x < kSize; ++x)
                        worst =
                            std::max(worst, std::abs(a[y][x] -
                                                     int(got.row(ty * kSize + y)[tx * kSize + x])));
            }
        QVERIFY2(worst <= 1, qPrintable(QString::number(worst))); // rounding of the blend only
    }

    void refusesWhenStatisticsDoNotFit()
    {
        const std::string out = s(dir_.filePath(QStringLiteral("big.fisura")));
        TrainOptions o = options(out, false);
        testing::limitPatchStatisticsMemory(1024);
        auto r = train(o);
        testing::limitPatchStatisticsMemory(0);
        QVERIFY(!r.isOk());
        QCOMPARE(r.status().code(), ErrorCode::OutOfMemory);
        QVERIFY2(r.status().detail().find("MiB") != std::string::npos, r.status().detail().c_str());
        QVERIFY(r.status().detail().find("1024 positions") != std::string::npos);
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }

    void refusesToResume()
    {
        TrainOptions o = options(s(dir_.filePath(QStringLiteral("r.fisura"))));
        o.resumeFrom = o.outPath + ".ckpt";
        QCOMPARE(train(o).status().code(), ErrorCode::InvalidArgument);
    }

    void cancelLeavesNothing()
    {
        const std::string out = s(dir_.filePath(QStringLiteral("cancel.fisura")));
        TrainOptions o = options(out);
        o.batchSize = 2;
        CancelToken cancel;
        CancelOnFirstBatch sink(cancel);
        auto r = train(o, cancel, &sink);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QVERIFY(r->cancelled);
        QCOMPARE(sink.batches.load(), 1);
        QVERIFY(sink.lastEta >= 0);
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }
};

QTEST_GUILESS_MAIN(TstPatchModel)
#include "tst_patchmodel.moc"
