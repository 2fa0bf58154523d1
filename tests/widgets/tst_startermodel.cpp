// The starter model in the panes (a tiny model stands in for it through FISURA_MODELS): Analyze's
// model chooser lists it with its facts and uses it, saying so, when nothing else is there; the
// Train setup starts from it by default for segmentation, with its network and the fine-tuning
// defaults, offers the project's runs and scratch, and says what each choice means.
#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "analyze/modelchooser.h"
#include "analyze/modelfacts.h"
#include "fisura/starter.h"
#include "fisura/train.h"
#include "train/startfrom.h"
#include "train/trainsetup.h"

using namespace fisura;
using namespace fisura::ui;

class TstStarterModel : public QObject
{
    Q_OBJECT
    QTemporaryDir models_, empty_, files_;
    QString starter_, other_;

    static QString makeModel(const QString& path, int width, int depth, const char* provenance)
    {
        ModelConfig c;
        c.width = width;
        c.depth = depth;
        auto m = Model::create(c, 1);
        if (!m || !m->save(path.toStdString()))
            return {};
        if (provenance && !setModelProvenance(path.toStdString(), provenance))
            return {};
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        starter_ =
            makeModel(models_.filePath(QString::fromLatin1(kStarterModelFile)), 8, 3,
                      R"({"name": "starter-crack-unet", "starter": true, "licence": "GPL-3.0-only",
                "trained_on": ["fisura-procedural", "UAV75"],
                "scores": [{"dataset": "DeepCrack/test", "images": 20, "tolerance_px": 2,
                            "ods_f1": 0.61, "ois_f1": 0.64, "miou": 0.7}]})");
        other_ = makeModel(files_.filePath(QStringLiteral("mine.fisura")), 4, 2, nullptr);
        QVERIFY(!starter_.isEmpty() && !other_.isEmpty());
        qputenv("FISURA_MODELS", models_.path().toUtf8());
    }

    void chooserUsesTheStarterAndSaysSo()
    {
        ModelChooser chooser;
        auto* box = chooser.findChild<QComboBox*>(QStringLiteral("modelBox"));
        auto* note = chooser.findChild<QLabel*>(QStringLiteral("starterNote"));
        QVERIFY(box && note);
        QCOMPARE(box->count(), 1);
        QCOMPARE(
            box->itemText(0),
            QStringLiteral("Starter model (trained on procedural scenes + UAV75, GPL-3.0-only)"));
        QVERIFY(chooser.choice().ok);
        QCOMPARE(chooser.choice().path, starter_);
        QVERIFY(chooser.starterChosen());
        QVERIFY(!note->isHidden());
        QVERIFY(note->text().contains(QStringLiteral("starter model is used")));
        auto* facts = chooser.facts();
        const auto text = [&](const char* name) {
            return facts->findChild<QLabel*>(QLatin1String(name))->text();
        };
        QCOMPARE(text("modelLicence"), QStringLiteral("GPL-3.0-only"));
        QCOMPARE(text("modelTrainedOn"), QStringLiteral("procedural scenes + UAV75"));
        QVERIFY2(text("modelHeldOutScores").contains(QStringLiteral("DeepCrack/test (20 image")) &&
                     text("modelHeldOutScores").contains(QStringLiteral("ODS F1 0.61")),
                 qPrintable(text("modelHeldOutScores")));
        // A model of one's own replaces it; the starter stays listed, last.
        chooser.setModelFile(other_);
        QCOMPARE(chooser.choice().path, other_);
        QVERIFY(!chooser.starterChosen());
        QVERIFY(note->isHidden());
        QCOMPARE(box->count(), 2);
        QCOMPARE(box->itemData(1).toString(), starter_);
        // A model without a provenance record shows no such rows.
        QVERIFY(text("modelLicence").isEmpty());
    }

    void trainSetupStartsFromTheStarter()
    {
        TrainSetupPanel setup;
        setup.setTask(TaskKind::Segment);
        auto* box = setup.findChild<QComboBox*>(QStringLiteral("startFromBox"));
        auto* reason = setup.findChild<QLabel*>(QStringLiteral("startFromReason"));
        auto* size = setup.findChild<QComboBox*>(QStringLiteral("sizeBox"));
        QVERIFY(box && reason && size);
        QCOMPARE(box->currentText(), QStringLiteral("Starter model"));
        QVERIFY2(reason->text().contains(QStringLiteral("width 8, depth 3")),
                 qPrintable(reason->text()));
        TrainOptions o = setup.options();
        QCOMPARE(o.startFrom, std::string("starter"));
        QCOMPARE(o.model.width, 8);
        QCOMPARE(o.model.depth, 3);
        QCOMPARE(o.epochs, FineTuneDefaults::epochs);
        QCOMPARE(o.learningRate, FineTuneDefaults::learningRate);
        QCOMPARE(o.samplesPerEpoch, FineTuneDefaults::samplesPerEpoch);
        QVERIFY(!size->isEnabled()); // the network is the starter's
        // Classification has no starter: scratch, the presets and the engine's defaults again.
        setup.setTask(TaskKind::Classify);
        QCOMPARE(box->count(), 1);
        o = setup.options();
        QVERIFY(o.startFrom.empty());
        QCOMPARE(o.epochs, TrainOptions().epochs);
        QCOMPARE(o.learningRate, TrainOptions().learningRate);
        QCOMPARE(o.samplesPerEpoch, 0);
        QVERIFY(size->isEnabled());
        QVERIFY(reason->text().contains(QStringLiteral("Random weights")));
    }

    void trainSetupOffersTheProjectsRuns()
    {
        TrainSetupPanel setup;
        setup.setTask(TaskKind::Segment);
        ProjectRun done, failed, other;
        done.id = "run-1";
        done.task = TaskKind::Segment;
        done.state = RunState::Finished;
        done.modelPath = other_.toStdString();
        done.datasetPath = "/data/bridge";
        failed = done;
        failed.id = "run-2";
        failed.state = RunState::Failed;
        other = done;
        other.id = "run-3";
        other.task = TaskKind::Classify;
        setup.setProjectRuns({done, failed, other});
        auto* box = setup.findChild<QComboBox*>(QStringLiteral("startFromBox"));
        QCOMPARE(box->count(), 3); // starter, run-1, scratch
        QCOMPARE(box->itemText(1), QStringLiteral("Run run-1 (bridge)"));
        QCOMPARE(box->currentIndex(), 0); // the starter stays the default
        QVERIFY(setup.startFrom()->choose(other_.toStdString()));
        TrainOptions o = setup.options();
        QCOMPARE(o.startFrom, other_.toStdString());
        QCOMPARE(o.model.width, 4);
        QVERIFY(setup.startFrom()->choose(""));
        o = setup.options();
        QVERIFY(o.startFrom.empty());
        QCOMPARE(o.epochs, TrainOptions().epochs);
    }

    void withoutAStarter()
    {
        qputenv("FISURA_MODELS", empty_.path().toUtf8());
        ModelChooser chooser;
        QCOMPARE(chooser.findChild<QComboBox*>(QStringLiteral("modelBox"))->count(), 0);
        QVERIFY(!chooser.choice().ok);
        TrainSetupPanel setup;
        setup.setTask(TaskKind::Segment);
        QVERIFY(setup.options().startFrom.empty());
        auto* reason = setup.findChild<QLabel*>(QStringLiteral("startFromReason"));
        QVERIFY(reason->text().contains(QStringLiteral("no starter model is installed")));
        qputenv("FISURA_MODELS", models_.path().toUtf8());
    }
};

QTEST_MAIN(TstStarterModel)
#include "tst_startermodel.moc"
