// Evaluation of trained models on their validation split: report shapes and sums for each task
// (tiny models trained for one short epoch on the CPU), exact answers from models whose output
// is known (TorchScript modules written here, see tst_infer.cpp), the error paths and
// cancellation; the footprint estimate and the threshold edit.
#include <torch/script.h>

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <chrono>
#include <fstream>

#include "fisura/evaluate.h"
#include "fisura/image.h"
#include "fisura/synth.h"
#include "fisura/train.h"
#include "train_fixtures.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

void writeScript(const std::string& path, const std::string& body, const std::string& sidecar)
{
    torch::jit::Module m("FisuraTestModel");
    m.define("def forward(self, x):\n" + body + "\n");
    m.save(path);
    std::ofstream(path + ".json") << sidecar;
}

/// Pictures of a gallery sample have the documented sizes.
void checkSample(const GallerySample& g, TaskKind task, int size)
{
    QCOMPARE(g.size, size);
    QCOMPARE(g.rgb.size(), size_t(size) * size * 3);
    QVERIFY(!g.image.empty());
    QVERIFY(g.item >= 0);
    if (task == TaskKind::Segment) {
        QCOMPARE(g.truth.size(), size_t(size) * size);
        QCOMPARE(g.prediction.size(), size_t(size) * size);
        QVERIFY(!g.mask.empty());
    } else if (task == TaskKind::Anomaly) {
        QVERIFY(g.truth.empty());
        QCOMPARE(g.prediction.size(), size_t(size) * size);
    } else {
        QVERIFY(g.truth.empty() && g.prediction.empty());
        QVERIFY(g.trueLabel >= 0 && g.predictedLabel >= 0);
    }
}

void checkGallery(const EvaluationReport& r, int k, int size)
{
    QCOMPARE(int(r.best.size()), std::min(k, r.items));
    QCOMPARE(int(r.worst.size()), std::min(k, r.items));
    for (size_t i = 1; i < r.best.size(); ++i)
        QVERIFY(r.best[i - 1].quality >= r.best[i].quality);
    for (size_t i = 1; i < r.worst.size(); ++i)
        QVERIFY(r.worst[i - 1].quality <= r.worst[i].quality);
    if (!r.best.empty())
        QVERIFY(r.best.front().quality >= r.worst.front().quality);
    for (const auto& g : r.best)
        checkSample(g, r.task, size);
    for (const auto& g : r.worst)
        checkSample(g, r.task, size);
}

/// A 64 px scene: bright background, pure black crack pixels (exactly the mask).
void writeExactScene(const std::string& dir, const std::string& name, int seed)
{
    Image im = Image::make(64, 64, 3, 210);
    Image mask = Image::make(64, 64, 1, 0);
    for (int y = 0; y < 64; ++y) {
        const int x = (y * (seed + 1) / 3 + seed * 7) % 64;
        for (int dx = 0; dx < 2; ++dx) {
            const int xx = (x + dx) % 64;
            for (int c = 0; c < 3; ++c)
                im.row(y)[xx * 3 + c] = 0;
            mask.row(y)[xx] = 255;
        }
    }
    QVERIFY(writeTiff(dir + "/images/" + name + ".tif", im));
    QVERIFY(writeTiff(dir + "/masks/" + name + ".tif", mask));
}

} // namespace

class TstEvaluate : public QObject
{
    Q_OBJECT
    QTemporaryDir data_;
    std::string seg_, cls_, clean_;
    std::string segModel_, clsModel_, aeModel_;

    std::string trainTiny(TaskKind task, const std::string& dir, const QString& name)
    {
        TrainOptions o = test::tinyOptions(task, dir, data_.filePath(name), 1);
        o.valFraction = 0.4;
        auto r = train(o);
        if (!r)
            qWarning("%s", r.status().toString().c_str());
        return r ? r->modelPath : std::string();
    }

    static EvaluateOptions optionsFor(const std::string& model)
    {
        EvaluateOptions o;
        o.splitPath = model + ".split.json";
        o.preferCpu = true;
        o.modelLoad.allowTorchScript = true; // the test's own modules
        o.threads = 1;
        o.gallery = 3;
        o.curvePoints = 11;
        o.histogramBins = 7;
        return o;
    }

    int valItems(const std::string& dir, TaskKind task, const std::string& split)
    {
        auto ds = scanDataset(dir, task);
        auto sp = loadSplit(split, *ds);
        return sp ? int(sp->val.size()) : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::TinyDemo demo;
        QVERIFY(test::writeTinyDemo(data_.path(), 10, 8, &demo));
        seg_ = demo.segmentation;
        cls_ = demo.classification;
        clean_ = demo.uncracked;
        segModel_ = trainTiny(TaskKind::Segment, seg_, QStringLiteral("seg.fisura"));
        clsModel_ = trainTiny(TaskKind::Classify, cls_, QStringLiteral("cls.fisura"));
        aeModel_ = trainTiny(TaskKind::Anomaly, clean_, QStringLiteral("ae.fisura"));
        QVERIFY(!segModel_.empty() && !clsModel_.empty() && !aeModel_.empty());
    }

    void segmentation()
    {
        const EvaluateOptions o = optionsFor(segModel_);
        auto r = evaluateModel(segModel_, seg_, o);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->task, TaskKind::Segment);
        QCOMPARE(r->items, valItems(seg_, TaskKind::Segment, o.splitPath));
        QCOMPARE(r->threshold, Model::load(segModel_)->info().threshold);
        QCOMPARE(int(r->prCurve.size()), o.curvePoints);
        QCOMPARE(r->prCurve.front().threshold, 0.0);
        QCOMPARE(r->prCurve.back().threshold, 1.0);
        QCOMPARE(r->prCurve.front().recall, 1.0); // every pixel has probability >= 0
        for (size_t i = 1; i < r->prCurve.size(); ++i) {
            const PrPoint& p = r->prCurve[i];
            QVERIFY(p.threshold > r->prCurve[i - 1].threshold);
            QVERIFY(p.recall <= r->prCurve[i - 1].recall);
            for (double v : {p.precision, p.recall, p.f1, p.iou})
                QVERIFY(v >= 0 && v <= 1);
            QVERIFY(p.iou <= p.f1 + 1e-12);
        }
        checkGallery(*r, o.gallery, 32);
        QVERIFY(r->confusion.empty() && r->histogram.empty());
        QVERIFY(r->seconds > 0);
    }

    void classification()
    {
        const EvaluateOptions o = optionsFor(clsModel_);
        auto r = evaluateModel(clsModel_, cls_, o);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->task, TaskKind::Classify);
        QCOMPARE(r->items, valItems(cls_, TaskKind::Classify, o.splitPath));
        QCOMPARE(r->classes, (std::vector<std::string>{"cracked", "uncracked"}));
        QCOMPARE(int(r->confusion.size()), 2);
        int64_t sum = 0;
        for (const auto& row : r->confusion) {
            QCOMPARE(int(row.size()), 2);
            for (int64_t n : row)
                sum += n;
        }
        QCOMPARE(sum, int64_t(r->items));
        checkGallery(*r, o.gallery, 32);
        for (const auto& g : r->best) {
            QVERIFY(g.quality >= 0 && g.quality <= 1);
            QVERIFY(g.value >= 0 && g.value <= 1);
        }
    }

    void anomaly()
    {
        const EvaluateOptions o = optionsFor(aeModel_);
        auto r = evaluateModel(aeModel_, clean_, o);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->task, TaskKind::Anomaly);
        QCOMPARE(r->items, valItems(clean_, TaskKind::Anomaly, o.splitPath));
        QCOMPARE(r->threshold, Model::load(aeModel_)->info().threshold);
        QCOMPARE(int(r->errors.size()), r->items);
        QCOMPARE(int(r->histogram.size()), o.histogramBins);
        QCOMPARE(int(r->histogramEdges.size()), o.histogramBins + 1);
        int64_t sum = 0;
        for (int64_t n : r->histogram)
            sum += n;
        QCOMPARE(sum, int64_t(r->items));
        for (size_t i = 1; i < r->histogramEdges.size(); ++i)
            QVERIFY(r->histogramEdges[i] > r->histogramEdges[i - 1]);
        for (double e : r->errors)
            QVERIFY(e >= r->histogramEdges.front() && e <= r->histogramEdges.back());
        checkGallery(*r, o.gallery, 32);
        for (const auto& g : r->best)
            QCOMPARE(g.quality, -g.value);
    }

    void maxItemsCapsTheEvaluation()
    {
        EvaluateOptions o = optionsFor(clsModel_);
        o.maxItems = 2;
        auto r = evaluateModel(clsModel_, cls_, o);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->items, 2);
        QCOMPARE(int(r->best.size()), 2);
    }

    void perfectSegmenterGivesAPerfectCurve()
    {
        QTemporaryDir d;
        const std::string dir = s(d.path());
        QDir().mkpath(d.filePath(QStringLiteral("images")));
        QDir().mkpath(d.filePath(QStringLiteral("masks")));
        for (int i = 0; i < 4; ++i)
            writeExactScene(dir, "scene" + std::to_string(i), i);
        auto ds = scanDataset(dir, TaskKind::Segment);
        QVERIFY(ds);
        const std::string split = dir + "/split.json";
        QVERIFY(saveSplit(split, *ds, makeSplit(*ds, 0.5, 0, 1)));
        // Crack probability = 1 - red / 255: 1 on crack pixels, 0.18 elsewhere.
        const std::string model = dir + "/dark.pt";
        writeScript(model, "    return 1.0 - x[:, 0:1]",
                    R"({"type": "unet", "input_size": 32, "output": "probabilities",
                        "threshold": 0.5,
                        "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}})");
        EvaluateOptions o;
        o.splitPath = split;
        o.preferCpu = true;
        o.modelLoad.allowTorchScript = true; // the test's own module
        o.curvePoints = 11;
        o.gallery = 2;
        auto r = evaluateModel(model, dir, o);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->items, 2);
        for (const PrPoint& p : r->prCurve) {
            if (p.threshold > 0.2 && p.threshold < 0.95) {
                QCOMPARE(p.precision, 1.0);
                QCOMPARE(p.recall, 1.0);
                QCOMPARE(p.f1, 1.0);
                QCOMPARE(p.iou, 1.0);
            } else if (p.threshold < 0.15) { // every pixel called crack: precision = crack share
                QCOMPARE(p.recall, 1.0);
                QVERIFY(std::abs(p.precision - 2.0 / 64.0) < 1e-9);
            }
        }
        for (const auto& g : r->best) {
            QCOMPARE(g.quality, 1.0);
            for (size_t i = 0; i < g.truth.size(); ++i)
                QCOMPARE(g.prediction[i] > 128, g.truth[i] > 0);
        }
        // The crack protocol over the whole validation images agrees: perfect everywhere.
        QVERIFY(r->hasCrackScores);
        QCOMPARE(r->crack.images, 2);
        QCOMPARE(r->crack.odsF1, 1.0);
        QCOMPARE(r->crack.oisF1, 1.0);
        QCOMPARE(r->crack.miou, 1.0);
        QCOMPARE(r->crack.f1, 1.0);
        // Without a split: every image of the folder, the protocol only.
        o.splitPath.clear();
        o.tolerancePx = 0;
        auto all = evaluateModel(model, dir, o);
        QVERIFY2(all, all.status().toString().c_str());
        QCOMPARE(all->items, 4);
        QVERIFY(all->hasCrackScores && all->prCurve.empty() && all->best.empty());
        QCOMPARE(all->crack.images, 4);
        QCOMPARE(all->crack.tolerancePx, 0);
        QCOMPARE(all->crack.odsF1, 1.0);
        QVERIFY(all->crack.odsThreshold > 0.18 && all->crack.odsThreshold <= 1.0);
    }

    void perfectClassifierGivesADiagonalMatrix()
    {
        QTemporaryDir d;
        const std::string dir = s(d.path());
        for (const char* cls : {"cracked", "uncracked"}) {
            QDir().mkpath(d.filePath(QString::fromLatin1(cls)));
            for (int i = 0; i < 3; ++i) {
                const uint8_t v =
                    std::string(cls) == "cracked" ? uint8_t(40 + i) : uint8_t(200 + i);
                QVERIFY(writeTiff(dir + "/" + cls + "/" + std::to_string(i) + ".tif",
                                  Image::make(32, 32, 3, v)));
            }
        }
        auto ds = scanDataset(dir, TaskKind::Classify);
        QVERIFY(ds);
        const std::string split = dir + "/split.json";
        QVERIFY(saveSplit(split, *ds, makeSplit(*ds, 0.7, 0, 1)));
        // Dark images are cracked.
        const std::string model = dir + "/dark.pt";
        writeScript(model,
                    "    m = x.mean(dim=[1, 2, 3]).unsqueeze(1)\n"
                    "    return torch.cat([1.0 - m, m], 1)",
                    R"({"type": "classifier", "input_size": 32, "output": "probabilities",
                        "class_names": ["cracked", "uncracked"],
                        "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}})");
        EvaluateOptions o;
        o.splitPath = split;
        o.preferCpu = true;
        o.modelLoad.allowTorchScript = true; // the test's own module
        auto r = evaluateModel(model, dir, o);
        QVERIFY2(r, r.status().toString().c_str());
        QVERIFY(r->items >= 2);
        QCOMPARE(r->confusion[0][1], int64_t(0));
        QCOMPARE(r->confusion[1][0], int64_t(0));
        QCOMPARE(r->confusion[0][0] + r->confusion[1][1], int64_t(r->items));
        for (const auto& g : r->best)
            QCOMPARE(g.trueLabel, g.predictedLabel);
    }

    void errors()
    {
        EvaluateOptions o = optionsFor(segModel_);
        QCOMPARE(evaluateModel(segModel_ + ".missing", seg_, o).status().code(),
                 ErrorCode::NotFound);
        QCOMPARE(evaluateModel(segModel_, seg_ + "/nowhere", o).status().code(),
                 ErrorCode::NotFound);
        EvaluateOptions noSplit = o;
        noSplit.splitPath = o.splitPath + ".missing";
        QCOMPARE(evaluateModel(segModel_, seg_, noSplit).status().code(), ErrorCode::NotFound);
        noSplit.splitPath.clear(); // a folder without a split: segmentation models only
        QCOMPARE(evaluateModel(clsModel_, cls_, noSplit).status().code(),
                 ErrorCode::InvalidArgument);
        auto whole = evaluateModel(segModel_, seg_, noSplit);
        QVERIFY2(whole, whole.status().toString().c_str());
        QCOMPARE(whole->items, 10);
        QVERIFY(whole->hasCrackScores);
        for (double v : {whole->crack.odsF1, whole->crack.oisF1, whole->crack.miou})
            QVERIFY(v >= 0 && v <= 1);

        // The classification run's split names files the segmentation data does not have.
        EvaluateOptions other = o;
        other.splitPath = clsModel_ + ".split.json";
        QCOMPARE(evaluateModel(segModel_, seg_, other).status().code(), ErrorCode::Corrupt);
        // A split without validation items.
        QTemporaryDir tmp;
        auto ds = scanDataset(seg_, TaskKind::Segment);
        QVERIFY(ds);
        EvaluateOptions empty = o;
        empty.splitPath = s(tmp.filePath(QStringLiteral("novalidation.json")));
        QVERIFY(saveSplit(empty.splitPath, *ds, makeSplit(*ds, 0.0, 0.0, 1)));
        QCOMPARE(evaluateModel(segModel_, seg_, empty).status().code(), ErrorCode::InvalidArgument);
        EvaluateOptions bad = o;
        bad.curvePoints = 1;
        QCOMPARE(evaluateModel(segModel_, seg_, bad).status().code(), ErrorCode::InvalidArgument);
    }

    void cancelIsPrompt()
    {
        EvaluateOptions o = optionsFor(segModel_);
        o.batchSize = 1;
        CancelToken cancel;
        std::chrono::steady_clock::time_point cancelledAt;
        CallbackProgressSink sink([&](const Progress&) {
            if (!cancel.isCancelled()) {
                cancelledAt = std::chrono::steady_clock::now();
                cancel.cancel();
            }
        });
        auto r = evaluateModel(segModel_, seg_, o, cancel, &sink);
        const double latency =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelledAt).count();
        QVERIFY(cancel.isCancelled());
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        QVERIFY2(latency < 0.5, qPrintable(QStringLiteral("cancel took %1 s").arg(latency)));
    }

    void footprint_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("depth");
        QTest::addColumn<int>("width");
        QTest::newRow("unet default") << int(ModelType::UNet) << 4 << 16;
        QTest::newRow("unet tiny") << int(ModelType::UNet) << 2 << 4;
        QTest::newRow("classifier") << int(ModelType::Classifier) << 4 << 16;
        QTest::newRow("autoencoder") << int(ModelType::Autoencoder) << 0 << 16;
    }
    void footprint()
    {
        QFETCH(int, type);
        QFETCH(int, depth);
        QFETCH(int, width);
        ModelConfig c;
        c.type = ModelType(type);
        c.depth = depth;
        c.width = width;
        c.inputSize = 256;
        const auto t0 = std::chrono::steady_clock::now();
        auto f = estimateFootprint(c);
        const double took =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(f, f.status().toString().c_str());
        QVERIFY2(took < 1.0, qPrintable(QStringLiteral("estimate took %1 s").arg(took)));
        qInfo("%lld parameters, %.1f MiB of activations per 256 px image, %.0f ms",
              static_cast<long long>(f->parameters), f->activationBytesPerImage / 1048576.0,
              took * 1000);
        QCOMPARE(f->parameters, Model::create(c)->parameterCount());
        QCOMPARE(f->weightBytes, uint64_t(f->parameters) * 16u);
        QVERIFY(f->activationBytesPerImage > 0);
        QVERIFY(f->trainingBytes(8) > f->trainingBytes(1));
        ModelConfig bigger = c;
        bigger.inputSize = 512;
        auto g = estimateFootprint(bigger);
        QVERIFY(g);
        QVERIFY(g->activationBytesPerImage > f->activationBytesPerImage);
        if (c.type != ModelType::Autoencoder) // its depth follows the size
            QCOMPARE(g->parameters, f->parameters);
        auto half = estimateFootprint(c, Precision::BF16);
        QVERIFY(half);
        QVERIFY(half->activationBytesPerImage < f->activationBytesPerImage);
    }

    void footprintRefusesBadSizes()
    {
        ModelConfig c;
        c.inputSize = 8;
        QCOMPARE(estimateFootprint(c).status().code(), ErrorCode::InvalidArgument);
        c.inputSize = 36; // not a multiple of 2^4
        QCOMPARE(estimateFootprint(c).status().code(), ErrorCode::InvalidArgument);
    }

    void thresholdRoundTrip()
    {
        QTemporaryDir tmp;
        const std::string path = s(tmp.filePath(QStringLiteral("m.fisura")));
        QVERIFY(QFile::copy(QString::fromStdString(segModel_), QString::fromStdString(path)));
        const auto before = Model::load(path);
        QVERIFY(before);
        QVERIFY(setModelThreshold(path, 0.37));
        auto after = Model::load(path);
        QVERIFY(after);
        QCOMPARE(after->info().threshold, 0.37);
        QCOMPARE(after->parameterCount(), before->parameterCount());
        QVERIFY(after->info().metricsJson == before->info().metricsJson);
        QCOMPARE(setModelThreshold(path, -1).code(), ErrorCode::InvalidArgument);
        QCOMPARE(setModelThreshold(path + ".missing", 0.5).code(), ErrorCode::NotFound);
        const std::string script = s(tmp.filePath(QStringLiteral("s.pt")));
        writeScript(script, "    return x[:, 0:1]", R"({"type": "unet", "input_size": 32})");
        QCOMPARE(setModelThreshold(script, 0.5).code(), ErrorCode::Unsupported);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
    }
};

QTEST_GUILESS_MAIN(TstEvaluate)
#include "tst_evaluate.moc"
