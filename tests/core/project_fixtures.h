// Shared by the project tests: records with every field set, and their comparison.
#pragma once

#include <QString>
#include <QtTest>

#include "fisura/project.h"

namespace fisura::test
{

inline QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

inline EpochMetrics fullMetrics(int epoch)
{
    EpochMetrics m;
    m.epoch = epoch;
    double v = 0.01 + epoch;
    for (double* f : {&m.trainLoss, &m.valLoss,         &m.learningRate,
                      &m.seconds,   &m.imagesPerSecond, &m.accuracy,
                      &m.precision, &m.recall,          &m.f1,
                      &m.iou,       &m.segF1,           &m.segPrecision,
                      &m.segRecall, &m.bestThreshold,   &m.iouAtBest,
                      &m.f1AtBest,  &m.precisionAtBest, &m.recallAtBest,
                      &m.errorMean, &m.errorP50,        &m.errorP95,
                      &m.errorP99,  &m.errorMax,        &m.anomalyThreshold,
                      &m.score})
        *f = (v += 0.125);
    m.gpuPeakBytes = 123456789012ull;
    m.improved = true;
    return m;
}

inline void compareMetrics(const EpochMetrics& a, const EpochMetrics& b)
{
    QCOMPARE(q(toJson(a)), q(toJson(b)));
    QCOMPARE(a.epoch, b.epoch);
    QCOMPARE(a.anomalyThreshold, b.anomalyThreshold);
    QCOMPARE(a.gpuPeakBytes, b.gpuPeakBytes);
    QCOMPARE(a.improved, b.improved);
}

inline TrainOptions fullOptions()
{
    TrainOptions o;
    o.task = TaskKind::Classify;
    o.dataDir = "/data/sdnet";
    o.outPath = "/out/m.fisura";
    o.checkpointPath = "/out/m.ckpt";
    o.resumeFrom = "/out/old.ckpt";
    o.splitPath = "/out/split.json";
    o.epochs = 7;
    o.batchSize = 48;
    o.precision = Precision::BF16;
    o.preferCpu = true;
    o.model = {ModelType::Classifier, 224, 3, 5, 24};
    o.learningRate = 3e-4;
    o.weightDecay = 5e-5;
    o.schedule = Schedule::Cosine;
    o.clipNorm = 0;
    o.patience = 0;
    o.valFraction = 0.25;
    o.seed = 2147483647; // the largest seed the option schema allows
    o.augment = false;
    o.loaderThreads = 3;
    o.prefetch = 9;
    o.maxBatchesPerEpoch = 11;
    o.stopAfterEpoch = 4;
    o.startFrom = "/models/bridge.fisura";
    o.samplesPerEpoch = 96;
    o.scan.rules = {{"D/CD", "cracked"}, {"UD", "uncracked"}};
    o.scan.verify = false;
    o.scan.threads = 2;
    return o;
}

} // namespace fisura::test
