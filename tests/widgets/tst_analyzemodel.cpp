// The Analyze pane's model side: what a model file's facts show, and the advanced options'
// policy preview (the GPU's fixed cuDNN algorithms in both languages, the tile the run will
// ask about). Runs over scans are tst_analyzepane's.
#include <QtTest>

#include <QDir>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <utility>

#include "analyze/advancedoptions.h"
#include "analyze/analyzecontroller.h"
#include "analyze/analyzepane.h"
#include "analyze/modelfacts.h"
#include "common/languagemanager.h"
#include "fakegpu.h"
#include "fisura/infer.h"
#include "fisura/model.h"
#include "tinymodel.h"

using namespace fisura;
using namespace fisura::ui;

class TestAnalyzeModel : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp_;
    QString model_;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the pane's settings and queue file
        QVERIFY(tmp_.isValid());
        model_ = writeTinyUNet(tmp_.path());
        QVERIFY(!model_.isEmpty());
    }

    // On a GPU the preview says cuDNN's algorithms stay fixed for inference, and why, in both
    // languages (FISURA_GRAB=<prefix> saves <prefix>.en.png and <prefix>.es.png to look at).
    void gpuPreviewSaysTheAlgorithmsAreFixed()
    {
        AdvancedOptionsWidget w;
        MachineInfo m;
        m.logicalCores = 16;
        w.setMachine(testing::withFakeGpu(m, "Test GPU 80GB", 9, 0, 80ull << 30));
        w.setExpanded(true);
        w.resize(900, 700);
        auto* tree = w.findChild<QTreeWidget*>(QStringLiteral("policyTree"));
        QVERIFY(tree);
        auto reasonOf = [&](const QString& label) {
            const auto items = tree->findItems(label, Qt::MatchExactly, 0);
            return items.size() == 1 ? items.first()->text(2) : QString();
        };
        QVERIFY(reasonOf(QStringLiteral("Convolution autotuning"))
                    .contains(QStringLiteral("the same map on every GPU")));
        const QString grab = qEnvironmentVariable("FISURA_GRAB");
        if (!grab.isEmpty())
            w.grab().save(grab + QStringLiteral(".en.png"));
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        w.retranslateUi();
        const QString es = reasonOf(QStringLiteral("Ajuste automático de convoluciones"));
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        QVERIFY2(es.contains(QStringLiteral("el mismo mapa en cada GPU")), qPrintable(es));
        if (!grab.isEmpty()) {
            LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
            w.retranslateUi();
            w.grab().save(grab + QStringLiteral(".es.png"));
            LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        }
        w.retranslateUi();
    }

    void modelFactsFromTheFile()
    {
        AnalyzePane pane;
        pane.setModelFile(model_);
        auto* facts = pane.findChild<ModelFactsWidget*>(QStringLiteral("modelFacts"));
        QVERIFY(facts);
        QVERIFY(facts->errorText().isEmpty());
        // Each fact's label shows what the file holds.
        const std::pair<const char*, const char*> shown[] = {{"modelType", "U-Net"},
                                                             {"modelInput", "64"},
                                                             {"modelNormalization", "0.25"},
                                                             {"modelTiles", "128"},
                                                             {"modelThreshold", "0.40"}};
        for (const auto& [name, text] : shown) {
            auto* label = pane.findChild<QLabel*>(QString::fromLatin1(name));
            QVERIFY2(label, name);
            QVERIFY2(label->text().contains(QString::fromLatin1(text)),
                     qPrintable(QString::fromLatin1(name) + QStringLiteral(": ") + label->text()));
        }
        QVERIFY(pane.controller()->model().ok);
        // The advanced fields start at the model's defaults, with the policy's reasons.
        InferOptions o = pane.advancedOptions()->options();
        QCOMPARE(o.tileSize, 0);
        QCOMPARE(o.overlap, -1);
        pane.advancedOptions()->setExpanded(true);
        QVERIFY(pane.findChild<QTreeWidget*>(QStringLiteral("policyTree"))->topLevelItemCount() >
                0);
    }

    // The policy preview asks about the tile the run will use (a U-Net trained on 256 px crops
    // runs on tiles of at least 512 px), not about the model's training input size.
    void previewAsksAboutTheRunsTile()
    {
        AdvancedOptionsWidget w;
        ModelInfo info;
        info.config.type = ModelType::UNet;
        info.config.inputSize = 256;
        info.config.depth = 4;
        w.setModel(info);
        PolicyRequest r = w.policyRequest();
        QCOMPARE(r.kind, JobKind::Infer);
        QCOMPARE(r.inputSize, 512);
        QCOMPARE(r.inputSize, policyRequestFor(info, w.options()).inputSize); // what the run asks
        InferOptions o = w.options();
        o.tileSize = 768;
        w.setOptions(o);
        QCOMPARE(w.policyRequest().inputSize, 768);
        info.tileSize = 1024; // the model file's own tile, when the user leaves it
        w.setModel(info);
        o.tileSize = 0;
        w.setOptions(o);
        QCOMPARE(w.policyRequest().inputSize, 1024);
    }
};

QTEST_MAIN(TestAnalyzeModel)
#include "tst_analyzemodel.moc"
