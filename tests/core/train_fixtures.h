// Shared by the training and evaluation tests: a small demo dataset on disk and the options of a
// tiny network that trains on it in a second or two on the CPU.
#pragma once

#include <QString>

#include <string>

#include "fisura/synth.h"
#include "fisura/train.h"

namespace fisura::test
{

/// The folders of a demo dataset written by writeTinyDemo.
struct TinyDemo {
    std::string segmentation;   ///< images/ + masks/
    std::string classification; ///< cracked/ + uncracked/
    std::string uncracked;      ///< the crack-free patches (anomaly training)
};

/// Writes a demo dataset of `segmentation` + `classification` 64 px images (no scan) into `dir`
/// and names its folders in `out`; false when it cannot.
inline bool writeTinyDemo(const QString& dir, int segmentation, int classification, TinyDemo* out)
{
    synth::DemoDatasetOptions demo;
    demo.segmentationImages = segmentation;
    demo.classificationImages = classification;
    demo.patchSize = 64;
    demo.scanSize = 0;
    const std::string root = dir.toStdString();
    *out = {root + "/segmentation", root + "/classification", root + "/classification/uncracked"};
    return bool(synth::writeDemoDataset(root, demo));
}

/// A 32 px, two-level, four-channel network trained on the CPU with batch 4 and one loader thread,
/// without early stopping.
inline TrainOptions tinyOptions(TaskKind task, const std::string& dataDir, const QString& out,
                                int epochs)
{
    TrainOptions o;
    o.task = task;
    o.dataDir = dataDir;
    o.outPath = out.toStdString();
    o.epochs = epochs;
    o.batchSize = 4;
    o.preferCpu = true;
    o.model.inputSize = 32;
    o.model.depth = 2;
    o.model.width = 4;
    o.loaderThreads = 1;
    o.patience = 0;
    return o;
}

} // namespace fisura::test
