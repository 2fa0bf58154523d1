// Training that starts from a model (TrainOptions::startFrom): the starting model's network and
// weights are kept, its BatchNorm statistics re-estimated on the new data; the starter model
// found through FISURA_MODELS; refusals (another task, a missing file, no starter); and epochs
// of a few images made longer by samplesPerEpoch.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <mutex>

#include "fisura/model.h"
#include "fisura/starter.h"
#include "fisura/synth.h"
#include "fisura/train.h"
#include "models/model_impl.h"
#include "scoped_env.h"
#include "train_fixtures.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

class Recorder final : public TrainSink
{
public:
    void started(const TrainStarted& t) override
    {
        std::lock_guard<std::mutex> l(m);
        start = t;
    }
    void notice(const std::string& code, const std::string&) override
    {
        std::lock_guard<std::mutex> l(m);
        notices.push_back(code);
    }
    bool noticed(const std::string& code) const
    {
        return std::find(notices.begin(), notices.end(), code) != notices.end();
    }
    std::mutex m;
    TrainStarted start;
    std::vector<std::string> notices;
};

/// Largest absolute difference between the same-named tensors of two models.
double maxDiff(const Model& a, const Model& b, bool buffers)
{
    auto ta = buffers ? a.impl()->net->named_buffers(true) : a.impl()->net->named_parameters(true);
    auto tb = buffers ? b.impl()->net->named_buffers(true) : b.impl()->net->named_parameters(true);
    double d = 0;
    for (const auto& t : ta) {
        if (t.value().scalar_type() != torch::kFloat)
            continue; // num_batches_tracked
        d = std::max(d, (t.value() - tb[t.key()]).abs().max().item<double>());
    }
    return d;
}

using test::ScopedEnv;

} // namespace

class TstTrainStart : public QObject
{
    Q_OBJECT
    QTemporaryDir data_;
    std::string seg_, cls_, base_;

    TrainOptions segOptions(const QString& out) const
    {
        return test::tinyOptions(TaskKind::Segment, seg_, out, 1);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::TinyDemo demo;
        QVERIFY(test::writeTinyDemo(data_.path(), 8, 4, &demo));
        seg_ = demo.segmentation;
        cls_ = demo.classification;
        auto r = train(segOptions(data_.filePath(QStringLiteral("base.fisura"))));
        QVERIFY2(r, r.status().toString().c_str());
        base_ = r->modelPath;
    }

    void keepsTheNetworkAndAdaptsBatchNorm()
    {
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("tuned.fisura")));
        o.startFrom = base_;
        o.model.width = 8; // the starting model's network wins
        o.model.depth = 3;
        // The schema's smallest rate: a few Adam steps move a weight by about 1e-6 each, far below
        // the check; only BatchNorm moves.
        o.learningRate = 1e-6;
        o.valFraction = 0.25;
        Recorder rec;
        auto r = train(o, {}, &rec);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(rec.start.startedFrom, base_);
        QVERIFY(rec.noticed("start_from"));
        QVERIFY(rec.noticed("batchnorm_adapted"));
        auto base = Model::load(base_), tuned = Model::load(o.outPath);
        QVERIFY(base && tuned);
        QCOMPARE(tuned->info().config.width, 4);
        QCOMPARE(tuned->info().config.depth, 2);
        QCOMPARE(tuned->info().mean, base->info().mean);
        QVERIFY2(maxDiff(*base, *tuned, false) < 1e-5, "weights moved");
        QVERIFY2(maxDiff(*base, *tuned, true) > 1e-4, "BatchNorm statistics not re-estimated");
        QCOMPARE(provenanceOf(tuned->info()).startedFrom, base_);
        // From scratch nothing of the kind happens.
        Recorder plain;
        o.startFrom = "scratch";
        o.outPath = s(tmp.filePath(QStringLiteral("scratch.fisura")));
        auto fresh = train(o, {}, &plain);
        QVERIFY(fresh);
        QVERIFY(plain.start.startedFrom.empty());
        QVERIFY(!plain.noticed("batchnorm_adapted"));
        QCOMPARE(Model::load(o.outPath)->info().config.width, 8);
    }

    void starterComesFromTheModelsFolder()
    {
        QTemporaryDir models, empty, tmp;
        QVERIFY(QFile::copy(QString::fromStdString(base_),
                            models.filePath(QString::fromLatin1(kStarterModelFile))));
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("s.fisura")));
        o.startFrom = "starter";
        {
            ScopedEnv env("FISURA_MODELS", models.path().toUtf8());
            QCOMPARE(QString::fromStdString(findStarterModel()),
                     models.filePath(QString::fromLatin1(kStarterModelFile)));
            Recorder rec;
            auto r = train(o, {}, &rec);
            QVERIFY2(r, r.status().toString().c_str());
            QCOMPARE(QString::fromStdString(rec.start.startedFrom),
                     models.filePath(QString::fromLatin1(kStarterModelFile)));
        }
        ScopedEnv env("FISURA_MODELS", empty.path().toUtf8());
        QVERIFY(findStarterModel().empty());
        auto r = train(o);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::NotFound);
        QVERIFY(r.status().detail().find(s(empty.path())) != std::string::npos);
    }

    void refusals()
    {
        QTemporaryDir tmp;
        TrainOptions o = segOptions(tmp.filePath(QStringLiteral("r.fisura")));
        o.startFrom = s(tmp.filePath(QStringLiteral("missing.fisura")));
        QCOMPARE(train(o).status().code(), ErrorCode::NotFound);
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("r.fisura.split.json"))));
        o.startFrom = base_; // a U-Net cannot start a classifier
        o.task = TaskKind::Classify;
        o.dataDir = cls_;
        auto r = train(o);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("r.fisura"))));
    }

    void samplesPerEpochRepeatsAFewImages()
    {
        QTemporaryDir few;
        QDir().mkpath(few.filePath(QStringLiteral("images")));
        QDir().mkpath(few.filePath(QStringLiteral("masks")));
        const QStringList files =
            QDir(QString::fromStdString(seg_) + QStringLiteral("/images")).entryList(QDir::Files);
        for (int i = 0; i < 2; ++i)
            for (const char* sub : {"/images/", "/masks/"})
                QVERIFY(QFile::copy(QString::fromStdString(seg_) + QLatin1String(sub) + files[i],
                                    few.path() + QLatin1String(sub) + files[i]));
        TrainOptions o = segOptions(few.filePath(QStringLiteral("m.fisura")));
        o.dataDir = s(few.path());
        o.valFraction = 0;
        Recorder once;
        QVERIFY(train(o, {}, &once));
        QCOMPARE(once.start.batchesPerEpoch, 1); // two crops, one (short) batch
        o.samplesPerEpoch = 16;
        o.outPath = s(few.filePath(QStringLiteral("n.fisura")));
        Recorder more;
        auto r = train(o, {}, &more);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(more.start.trainItems, 2);
        QCOMPARE(more.start.batchesPerEpoch, 4); // 16 crops of the same two images
    }
};

QTEST_GUILESS_MAIN(TstTrainStart)
#include "tst_train_start.moc"
