// The GUI's memory and idle CPU on the demo loop, in one process as a person runs it: open the
// demo project (the full demo: 48 segmentation pairs, the 4096 x 4096 scan), train (the Train
// pane's defaults, with the epochs given: on a CPU-only machine a short run), analyze the demo
// scan with the new model, open it in Inspect with the map overlay and the ground truth compared,
// measure the cracks. It prints the resident set after each step and the peak (VmHWM), then the
// process's CPU time while the window idles for N seconds with the System pane shown and with
// another pane shown (System hidden).
//
//   QT_QPA_PLATFORM=offscreen bench_gui_memory [EPOCHS=2] [IDLE_SECONDS=30]
//   QT_QPA_PLATFORM=offscreen bench_gui_memory idle [IDLE_SECONDS=30]   (idle CPU only)
//
// Results go to tests/bench/RESULTS.md; nothing here asserts a time or a size.
#include <QApplication>
#include <QDir>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "analyze/analyzepane.h"
#include "analyze/analyzequeue.h"
#include "fisura/process.h"
#include "fisura/synth.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "inspect/truthpanel.h"
#include "mainwindow.h"
#include "project/projectactions.h"
#include "project/projectsession.h"
#include "system/systempane.h"
#include "train/traincontroller.h"
#include "train/trainpane.h"
#include "train/trainsetup.h"
#include "viewer/tiledviewer.h"

using namespace fisura;

namespace
{

/// A field of /proc/self/status in MiB ("VmRSS", "VmHWM"); -1 when absent.
double statusMiB(const char* field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line))
        if (line.compare(0, key.size(), key) == 0)
            return std::stod(line.substr(key.size())) / 1024.0; // kB
    return -1;
}

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void report(const char* step, double seconds)
{
    const struct mallinfo2 m = mallinfo2();
    std::printf("%-10s %8.1f s  RSS %7.1f MiB  peak %7.1f MiB  heap in use %7.1f MiB  heap "
                "free %7.1f MiB\n",
                step, seconds, statusMiB("VmRSS"), statusMiB("VmHWM"),
                double(m.uordblks + m.hblkhd) / (1 << 20), double(m.fordblks) / (1 << 20));
    std::fflush(stdout);
}

bool waitFor(const std::function<bool()>& done, int seconds, const char* what)
{
    if (QTest::qWaitFor(done, seconds * 1000))
        return true;
    std::fprintf(stderr, "bench_gui_memory: %s did not happen within %d s\n", what, seconds);
    return false;
}

/// Idles with the event loop running; returns the share of one core the process used.
double idleCpu(int seconds)
{
    const double c0 = cpuSeconds();
    QElapsedTimer t;
    t.start();
    QTest::qWait(seconds * 1000);
    return (cpuSeconds() - c0) / (double(t.elapsed()) / 1000.0);
}

/// Idle CPU with the System pane shown, then with `other` shown (System hidden).
void reportIdle(app::MainWindow& w, int seconds, const QString& other)
{
    w.showPane(QStringLiteral("system"));
    QTest::qWait(2000); // the pane's first draw is not idling
    const double shown = idleCpu(seconds);
    w.showPane(other);
    QTest::qWait(2000);
    const double hidden = idleCpu(seconds);
    std::printf("idle CPU over %d s: System pane shown %.2f %% of a core, hidden (%s shown) "
                "%.2f %%\n",
                seconds, 100.0 * shown, qPrintable(other), 100.0 * hidden);
}

int runLoop(app::MainWindow& w, const QString& dir, int epochs, int idleSeconds)
{
    QElapsedTimer clock;
    clock.start();
    auto lap = [&clock] { return double(clock.elapsed()) / 1000.0; };
    report("start", lap());

    QSignalSpy ready(w.projectActions(), &ui::ProjectActions::demoProjectReady);
    w.projectActions()->openDemoProject(dir, synth::DemoDatasetOptions{});
    if (!waitFor([&] { return ready.count() == 1; }, 600, "the demo project"))
        return 1;
    report("demo", lap());

    w.showPane(QStringLiteral("train"));
    w.trainPane()->setupPanel()->setEpochs(epochs);
    w.trainPane()->setupPanel()->setPreferCpu(true);
    ui::TrainController* controller = w.trainPane()->controller();
    QSignalSpy trained(controller, &ui::TrainController::finished);
    // The training's own speed and results, so a change of memory can be held against them.
    QObject::connect(controller, &ui::TrainController::epochDone, [&](const EpochMetrics& m) {
        std::printf("  epoch %d: %.1f s, %.2f img/s, training loss %.4f, validation loss %.4f, "
                    "RSS %.1f MiB, peak %.1f MiB\n",
                    m.epoch + 1, m.seconds, m.imagesPerSecond, m.trainLoss, m.valLoss,
                    statusMiB("VmRSS"), statusMiB("VmHWM"));
        std::fflush(stdout);
    });
    QObject::connect(controller, &ui::TrainController::notice,
                     [](const QString& code, const QString& message) {
                         std::printf("  notice %s: %s\n", qPrintable(code), qPrintable(message));
                     });
    if (!w.trainPane()->startTraining() ||
        !waitFor([&] { return trained.count() == 1; }, 7200, "training"))
        return 1;
    report("train", lap());

    auto* analyze = w.trainPane()->findChild<QPushButton*>(QStringLiteral("analyzeButton"));
    if (!waitFor([&] { return analyze->isEnabled(); }, 30, "Analyze with this model"))
        return 1;
    analyze->click();
    if (w.analyzePane()->queue()->rowCount() != 1 || !w.analyzePane()->run())
        return 1;
    auto* open = w.analyzePane()->findChild<QPushButton*>(QStringLiteral("openInInspectButton"));
    if (!waitFor([&] { return open->isEnabled(); }, 3600, "the analysis"))
        return 1;
    report("analyze", lap());

    open->click();
    ui::InspectPane* inspect = w.inspectPane();
    if (!waitFor([&] { return inspect->viewer()->hasImage() && inspect->comparison(); }, 600,
                 "the comparison with the ground truth"))
        return 1;
    inspect->truthPanel()->showComparisonButton()->click();
    QTest::qWait(3000); // the tiles of the view load and draw
    report("inspect", lap());

    QSignalSpy measured(inspect->measurePanel(), &ui::MeasurePanel::measured);
    inspect->measureCracks();
    if (!waitFor([&] { return measured.count() == 1; }, 600, "the measurement"))
        return 1;
    QTest::qWait(1000);
    report("measure", lap());

    reportIdle(w, idleSeconds, QStringLiteral("inspect"));
    report("idle", lap());
    std::printf("peak resident set (VmHWM) %.1f MiB\n", statusMiB("VmHWM"));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    fisura::restartWithQuietOpenMpThreads(argc, argv); // as the application does
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Fisura"));
    QCoreApplication::setApplicationName(QStringLiteral("FisuraBench"));
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    const bool idleOnly = argc > 1 && std::strcmp(argv[1], "idle") == 0;
    const int epochs = argc > 1 && !idleOnly ? std::atoi(argv[1]) : 2;
    const int idleSeconds = argc > 2 ? std::atoi(argv[2]) : 30;
    QTemporaryDir tmp;
    app::MainWindow w;
    w.resize(1280, 800);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    if (idleOnly) {
        reportIdle(w, idleSeconds, QStringLiteral("data"));
        report("idle", 0);
        return 0;
    }
    std::printf("demo loop, %d epoch(s) on the CPU, %d core(s)\n", epochs,
                QThread::idealThreadCount());
    return runLoop(w, tmp.filePath(QStringLiteral("demo")), epochs, idleSeconds);
}
