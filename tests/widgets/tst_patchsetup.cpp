// The patch-gaussian model in the panes: the Train setup offers it for the anomaly task only,
// with its memory estimate instead of epochs and size presets; the Analyze pane's model facts
// name it and its threshold, and its score map puts that threshold at 128 as the autoencoder's.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "analyze/modelfacts.h"
#include "fisura/model.h"
#include "fisura/threshold.h"
#include "train/trainsetup.h"

using namespace fisura;
using namespace fisura::ui;

class TstPatchSetup : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void offeredForAnomalyOnly()
    {
        TrainSetupPanel setup;
        auto* model = setup.findChild<QComboBox*>(QStringLiteral("anomalyModelBox"));
        auto* features = setup.findChild<QComboBox*>(QStringLiteral("patchFeaturesBox"));
        QVERIFY(model && features);
        setup.setTask(TaskKind::Segment);
        QVERIFY(model->isHidden());
        setup.setTask(TaskKind::Anomaly);
        QVERIFY(!model->isHidden());
        QVERIFY(features->isHidden()); // the autoencoder is the default
        QCOMPARE(setup.options().model.type, ModelType::Autoencoder);
        setup.setAnomalyModel(ModelType::PatchGaussian);
        QVERIFY(!features->isHidden());
        QVERIFY(setup.findChild<QComboBox*>(QStringLiteral("sizeBox"))->isHidden());
        QVERIFY(setup.findChild<QSpinBox*>(QStringLiteral("epochsSpin"))->isHidden());
        const TrainOptions o = setup.options();
        QCOMPARE(o.model.type, ModelType::PatchGaussian);
        QCOMPARE(o.epochs, 1);
        QVERIFY(o.model.pooledPositions);
        // Back to segmentation: the U-Net, whatever the anomaly choice.
        setup.setTask(TaskKind::Segment);
        QCOMPARE(setup.options().model.type, ModelType::UNet);
        QVERIFY(features->isHidden());
    }

    void showsTheMemoryItNeeds()
    {
        TrainSetupPanel setup;
        setup.setTask(TaskKind::Anomaly);
        setup.setAnomalyModel(ModelType::PatchGaussian);
        setup.setCropSize(256);
        auto* info = setup.findChild<QLabel*>(QStringLiteral("sizeInfo"));
        QVERIFY2(info->text().contains(QStringLiteral("of 32 features")), qPrintable(info->text()));
        setup.findChild<QCheckBox*>(QStringLiteral("perPositionCheck"))->setChecked(true);
        QVERIFY2(info->text().contains(QLocale().toString(16384)), qPrintable(info->text()));
        QVERIFY(info->text().contains(QStringLiteral("memory to fit")));
        setup.findChild<QSpinBox*>(QStringLiteral("featureDimSpin"))->setValue(64);
        QCOMPARE(setup.options().model.featureDim, 64);
        QVERIFY(info->text().contains(QStringLiteral("64 features")));
    }

    void modelFactsAndThreshold()
    {
        QTemporaryDir dir;
        ModelConfig c;
        c.type = ModelType::PatchGaussian;
        c.inputSize = 32;
        auto m = Model::create(c);
        QVERIFY(m.isOk());
        m->info().threshold = 3.5;
        const QString path = dir.filePath(QStringLiteral("pg.fisura"));
        QVERIFY(m->save(path.toStdString()).isOk());
        const ModelDescription d = describeModel(path);
        QVERIFY(d.ok);
        // The score map puts the model's threshold at 128, twice it (and beyond) at 255.
        const MapKind kind = mapKindFor(d.info.config.type);
        QCOMPARE(modelMapByteThreshold(kind, d.info.threshold), 128);
        QCOMPARE(modelMapByteThreshold(kind, d.info.threshold, 7.0), 255);
        QCOMPARE(modelMapByteThreshold(kind, d.info.threshold, 1.75), 64);
        ModelFactsWidget facts;
        facts.setDescription(d);
        const QList<QLabel*> labels = facts.findChildren<QLabel*>();
        bool named = false, threshold = false;
        for (QLabel* l : labels) {
            named = named || l->text().contains(QStringLiteral("PaDiM"));
            threshold = threshold || l->text().contains(QStringLiteral("Mahalanobis"));
        }
        QVERIFY(named && threshold);
        QVERIFY(facts.errorText().isEmpty());
    }
};

QTEST_MAIN(TstPatchSetup)
#include "tst_patchsetup.moc"
