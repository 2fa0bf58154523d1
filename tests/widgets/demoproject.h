// Test fixture shared by the whole-window tests: a small demo project made the way a user gets
// one (Open demo project), optionally with one finished training run of a tiny U-Net.
#pragma once

#include <QtTest>

#include <QWidget>

#include "fisura/project.h"
#include "fisura/synth.h"
#include "fisura/train.h"
#include "project/projectactions.h"
#include "project/projectsession.h"

namespace demoproject
{

/// Demo data small enough for tests; `scan` = 0 writes no scan.
inline fisura::synth::DemoDatasetOptions smallDemo(int scan = 0)
{
    fisura::synth::DemoDatasetOptions o;
    o.segmentationImages = 8;
    o.classificationImages = 4;
    o.patchSize = 64;
    o.scanSize = scan;
    return o;
}

/// Generates the demo project in `dir` and, with `trainRun`, records one finished run of a tiny
/// U-Net on its segmentation set. Returns false (after a failed QVERIFY) when anything fails.
inline bool make(const QString& dir, int scan, bool trainRun)
{
    using namespace fisura;
    ui::ProjectSession session;
    QWidget parent;
    ui::ProjectActions actions(&session, &parent);
    QSignalSpy ready(&actions, &ui::ProjectActions::demoProjectReady);
    actions.openDemoProject(dir, smallDemo(scan));
    if (!QTest::qWaitFor([&] { return ready.count() == 1; }, 30000))
        return false;
    if (!trainRun)
        return true;
    Project p = session.project();
    TrainOptions o;
    o.task = TaskKind::Segment;
    o.dataDir = p.datasets().back().path;
    o.epochs = 1;
    o.model.inputSize = 64;
    o.model.depth = 2;
    o.model.width = 4;
    o.preferCpu = true;
    o.batchSize = 4;
    o.precision = Precision::FP32;
    const std::string id = p.beginRun(o, p.datasets().back().id);
    p.finishRun(id, train(o));
    return bool(p.save());
}

} // namespace demoproject
