// The JSON of TrainOptions and EpochMetrics (what a project records about each run), run state
// names and the time stamps of project records.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "fisura/project.h"
#include "project_fixtures.h"

using namespace fisura;
using namespace fisura::test;

class TstProjectOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void trainOptionsRoundTrip()
    {
        const TrainOptions o = fullOptions();
        auto back = trainOptionsFromJson(toJson(o));
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(q(toJson(*back)), q(toJson(o)));
        QCOMPARE(back->task, TaskKind::Classify);
        QCOMPARE(q(back->resumeFrom), q(o.resumeFrom));
        QCOMPARE(back->precision, Precision::BF16);
        QCOMPARE(back->model.type, ModelType::Classifier);
        QCOMPARE(back->model.inputSize, 224);
        QCOMPARE(back->model.classes, 3);
        QCOMPARE(back->model.depth, 5);
        QCOMPARE(back->model.width, 24);
        QCOMPARE(back->schedule, Schedule::Cosine);
        QCOMPARE(back->seed, o.seed);
        QCOMPARE(back->stopAfterEpoch, 4);
        QCOMPARE(back->scan.rules.size(), size_t(2));
        QCOMPARE(q(back->scan.rules[0].folder), QStringLiteral("D/CD"));
        QCOMPARE(q(back->scan.rules[1].className), QStringLiteral("uncracked"));
        QCOMPARE(back->scan.verify, false);
        QCOMPARE(back->valFraction, 0.25);
        QCOMPARE(back->startFrom, std::string("/models/bridge.fisura"));
        QCOMPARE(back->samplesPerEpoch, 96);
        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(toJson(o))).object();
        QCOMPARE(j[QStringLiteral("precision")].toString(), QStringLiteral("bf16"));
        QCOMPARE(j[QStringLiteral("model")][QStringLiteral("type")].toString(),
                 QStringLiteral("classifier"));

        // Unknown keys are ignored, missing ones keep the defaults.
        auto partial = trainOptionsFromJson(R"({"epochs":3,"future_option":true})");
        QVERIFY(partial);
        QCOMPARE(partial->epochs, 3);
        QCOMPARE(partial->learningRate, TrainOptions().learningRate);
    }

    void trainOptionsBadValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not json") << QStringLiteral("epochs=3") << QString();
        QTest::newRow("array") << QStringLiteral("[]") << QString();
        QTest::newRow("zero epochs")
            << QStringLiteral(R"({"epochs":0})") << QStringLiteral("epochs");
        QTest::newRow("epochs text")
            << QStringLiteral(R"({"epochs":"3"})") << QStringLiteral("epochs");
        QTest::newRow("task") << QStringLiteral(R"({"task":"paint"})") << QStringLiteral("paint");
        QTest::newRow("precision")
            << QStringLiteral(R"({"precision":"fp8"})") << QStringLiteral("precision");
        QTest::newRow("schedule") << QStringLiteral(R"({"schedule":"linear"})")
                                  << QStringLiteral("schedule");
        QTest::newRow("model type")
            << QStringLiteral(R"({"model":{"type":"vit"}})") << QStringLiteral("model.type");
        QTest::newRow("model size") << QStringLiteral(R"({"model":{"input_size":-4}})")
                                    << QStringLiteral("model.input_size");
        QTest::newRow("negative seed")
            << QStringLiteral(R"({"seed":-1})") << QStringLiteral("seed");
        QTest::newRow("val fraction")
            << QStringLiteral(R"({"val_fraction":1.5})") << QStringLiteral("val_fraction");
        QTest::newRow("learning rate")
            << QStringLiteral(R"({"learning_rate":0})") << QStringLiteral("learning_rate");
        QTest::newRow("bool") << QStringLiteral(R"({"augment":1})") << QStringLiteral("augment");
        QTest::newRow("rules") << QStringLiteral(R"({"scan":{"rules":[{"folder":1}]}})")
                               << QStringLiteral("scan.rules");
    }

    void trainOptionsBadValues()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        auto o = trainOptionsFromJson(text.toStdString());
        QVERIFY(!o);
        QCOMPARE(o.status().code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(o.status().detail()).contains(mentions), o.status().detail().c_str());
    }

    void epochMetricsFromJsonRoundTrip()
    {
        const EpochMetrics m = fullMetrics(3);
        auto back = epochMetricsFromJson(toJson(m));
        QVERIFY(back);
        compareMetrics(*back, m);
        auto sparse = epochMetricsFromJson(toJson(EpochMetrics{}));
        QVERIFY(sparse);
        QCOMPARE(sparse->iou, -1.0);
        QVERIFY(!epochMetricsFromJson("nope"));
        QVERIFY(!epochMetricsFromJson(R"({"improved":"yes"})"));
    }

    void runStateNamesAndTime()
    {
        for (RunState s : {RunState::Running, RunState::Finished, RunState::Cancelled,
                           RunState::Paused, RunState::Failed}) {
            RunState back = RunState::Running;
            QVERIFY(parseRunState(runStateName(s), back));
            QCOMPARE(back, s);
        }
        RunState x;
        QVERIFY(!parseRunState("dancing", x));
        QVERIFY(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$"))
                    .match(q(utcNowIso()))
                    .hasMatch());
    }
};

QTEST_GUILESS_MAIN(TstProjectOptions)
#include "tst_project_options.moc"
