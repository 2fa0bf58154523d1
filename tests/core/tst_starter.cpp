// The starter model: how Fisura finds it (FISURA_MODELS, the source tree) with any model file
// standing in, its provenance record, and the shipped file itself
// (resources/models/starter-crack-unet.fisura): it loads, says what it was trained on (never
// the non-commercial test sets), fits the size limit and finds the cracks of a generated
// scene. The last test fails while the file is missing or broken.
#include <QtTest>

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>

#include "fisura/evaluate.h"
#include "fisura/infer.h"
#include "fisura/starter.h"
#include "fisura/synth.h"
#include "fisura/train.h"
#include "scoped_env.h"

using namespace fisura;

namespace
{

using test::ScopedEnv;

/// Crack probability map of `image` by `model` (CPU), through the tiled inference.
Result<Image> predict(Model model, const Image& image)
{
    InferOptions o;
    o.preferCpu = true;
    auto engine = TiledInference::create(std::move(model), o);
    if (!engine)
        return engine.status();
    return (*engine)->runImage(image);
}

} // namespace

class TstStarter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void foundThroughTheModelsFolder()
    {
        QTemporaryDir models, empty;
        {
            ScopedEnv env("FISURA_MODELS", models.path().toUtf8());
            QCOMPARE(starterModelSearchPath(),
                     std::vector<std::string>{models.path().toStdString()});
            QVERIFY(findStarterModel().empty()); // the folder has no starter yet
            auto m = Model::create(ModelConfig{}, 1);
            QVERIFY(m);
            const QString path = models.filePath(QString::fromLatin1(kStarterModelFile));
            QVERIFY(m->save(path.toStdString()));
            QCOMPARE(QString::fromStdString(findStarterModel()), path);
        }
        ScopedEnv env("FISURA_MODELS", empty.path().toUtf8());
        QVERIFY(findStarterModel().empty());
        // Without the variable: beside the installation, then the source tree.
        qunsetenv("FISURA_MODELS");
        const auto dirs = starterModelSearchPath();
        QVERIFY(dirs.size() >= 2);
        QVERIFY(
            QString::fromStdString(dirs.front()).endsWith(QStringLiteral("share/fisura/models")));
        QCOMPARE(QString::fromStdString(dirs.back()),
                 QFileInfo(QStringLiteral(FISURA_STARTER_MODEL)).absolutePath());
    }

    void provenanceRoundTrip()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("m.fisura")).toStdString();
        auto m = Model::create(ModelConfig{}, 1);
        QVERIFY(m && m->save(path));
        QVERIFY(!provenanceOf(Model::load(path)->info()).present);
        const std::string json =
            R"({"name": "starter-crack-unet", "starter": true, "licence": "GPL-3.0-or-later",
                "trained_on": ["fisura-procedural", "UAV75"], "recipe": "r.sh", "seed": 5,
                "commit": "0123abc", "future_key": {"kept": 1},
                "scores": [{"dataset": "CrackForest", "images": 88, "tolerance_px": 2,
                            "ods_f1": 0.55, "ois_f1": 0.6, "miou": 0.7}]})";
        QVERIFY(setModelProvenance(path, json));
        auto back = Model::load(path);
        QVERIFY(back);
        const ModelProvenance p = provenanceOf(back->info());
        QVERIFY(p.present && p.starter);
        QCOMPARE(p.name, std::string("starter-crack-unet"));
        QCOMPARE(p.licence, std::string("GPL-3.0-or-later"));
        QCOMPARE(p.trainedOn, (std::vector<std::string>{"fisura-procedural", "UAV75"}));
        QCOMPARE(p.seed, uint64_t(5));
        QCOMPARE(p.commit, std::string("0123abc"));
        QCOMPARE(int(p.scores.size()), 1);
        QCOMPARE(p.scores[0].dataset, std::string("CrackForest"));
        QCOMPARE(p.scores[0].images, 88);
        QCOMPARE(p.scores[0].odsF1, 0.55);
        QVERIFY(back->metadataJson().find("future_key") != std::string::npos);
        // The weights are untouched.
        QCOMPARE(back->parameterCount(), m->parameterCount());
        QCOMPARE(setModelProvenance(path, "[1]").code(), ErrorCode::InvalidArgument);
        QCOMPARE(setModelProvenance(path + ".missing", "{}").code(), ErrorCode::NotFound);
    }

    void shippedModelFindsCracks()
    {
        const QString path = QStringLiteral(FISURA_STARTER_MODEL);
        QVERIFY2(QFile::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        QVERIFY(QFileInfo(path).size() <= 10 * 1024 * 1024);
        auto m = Model::load(path.toStdString());
        QVERIFY2(m, m.status().toString().c_str());
        QCOMPARE(m->info().config.type, ModelType::UNet);
        const ModelProvenance p = provenanceOf(m->info());
        QVERIFY(p.present && p.starter);
        QVERIFY(!p.licence.empty());
        QVERIFY(std::count(p.trainedOn.begin(), p.trainedOn.end(), "fisura-procedural") == 1);
        for (const auto& d : p.trainedOn) // its test sets, non-commercial: never trained on
            for (const char* held : {"CrackForest", "DeepCrack", "CrackConglomerate", "CRACK500"})
                QVERIFY2(QString::fromStdString(d).indexOf(QLatin1String(held), 0,
                                                           Qt::CaseInsensitive) < 0,
                         d.c_str());
        // A scene it has not seen, with two clear cracks: found at the model's threshold.
        synth::SceneOptions so;
        so.style = synth::SceneStyle::Realistic;
        so.seed = 20261127;
        so.cracks = 2;
        so.minWidthPx = 2;
        so.maxWidthPx = 5;
        so.crackContrast = 0.8;
        so.noiseSigma = 2;
        auto scene = synth::generateScene(so);
        QVERIFY(scene);
        auto map = predict(std::move(*m), scene->image);
        QVERIFY2(map, map.status().toString().c_str());
        CrackScoreAccumulator acc(2);
        QVERIFY(acc.add(*map, scene->mask));
        const double threshold = Model::load(path.toStdString())->info().threshold;
        const CrackScores s = acc.scores(threshold);
        QVERIFY2(
            s.f1 >= 0.5,
            qPrintable(
                QStringLiteral("F1 %1 (P %2, R %3)").arg(s.f1).arg(s.precision).arg(s.recall)));
    }
};

QTEST_GUILESS_MAIN(TstStarter)
#include "tst_starter.moc"
