// The System pane: what this machine can do for Fisura (CPU, RAM, LibTorch, CUDA, GPUs), the
// settings Fisura chooses for it and why, and live telemetry (plots, memory bar, status gauge).
#pragma once

#include <memory>
#include <vector>

#include "common/pane.h"
#include "fisura/policy.h"
#include "fisura/sysinfo.h"
#include "fisura/telemetry.h"

class QAction;
class QLabel;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace fisura::ui
{

class JobRunner;
class MemoryBar;
class TelemetryPlot;
class UsageGauge;

class SystemPane : public Pane
{
    Q_OBJECT
public:
    explicit SystemPane(QWidget* parent = nullptr);
    QString paneId() const override { return QStringLiteral("system"); }
    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings& s) const override;
    void restoreState(QSettings& s) override;

    /// Query the machine again (in the background).
    void refresh();
    /// Show given facts (used by refresh(); tests feed fake machines).
    void setMachine(const MachineInfo& m);
    bool hasMachine() const { return haveMachine_; }
    /// One line for the status bar: "NVIDIA H200 · bf16" or "CPU · 2 cores".
    QString summary() const;

    /// Start sampling (NVML when present, /proc always) and refresh the plots from it. While the
    /// pane is hidden it samples at kHiddenHz and only the status bar's gauge follows (no copy of
    /// the history, no replot): the idle window's CPU (README "Memory and CPU").
    void startTelemetry(double hz = 1.0);
    /// The sampling rate while the pane is hidden: the sampler's slowest.
    static constexpr double kHiddenHz = TelemetrySampler::kMinHz;
    void stopTelemetry();
    /// Samples a second now (0 before startTelemetry()).
    double telemetryRate() const;
    /// Show these samples as if the sampler had produced them (tests, replay).
    void showSamples(const std::vector<TelemetrySample>& samples);
    /// The compact GPU/CPU meter the main window puts in its status bar (hidden until shown
    /// there).
    UsageGauge* gauge() const { return gauge_; }
    TelemetryPlot* telemetryPlot() const { return plot_; }
    MemoryBar* memoryBar() const { return memoryBar_; }
    /// The sampler's history (null before startTelemetry()): other panes plot from it.
    const fisura::TelemetryHistory* telemetryHistory() const;
    /// "Release GPU memory": hands LibTorch's cached blocks back to the driver.
    QAction* releaseGpuMemoryAction() const { return releaseAction_; }

Q_SIGNALS:
    void machineChanged();

protected:
    void retranslateUi() override;
    void showEvent(QShowEvent* e) override;
    void hideEvent(QHideEvent* e) override;

private:
    void rebuild();
    /// New samples: the plot and memory bar while the pane is shown, only the gauge while not.
    void pollTelemetry();
    void setTelemetryRate(double hz);
    void releaseGpuMemoryNow();

    JobRunner* job_;
    QLabel* heading_;
    QLabel* explanation_;
    QTreeWidget* facts_;
    MachineInfo machine_;
    bool haveMachine_ = false;

    QLabel* liveHeading_;
    QLabel* telemetryNote_;
    MemoryBar* memoryBar_;
    QPushButton* releaseButton_;
    QAction* releaseAction_;
    TelemetryPlot* plot_;
    UsageGauge* gauge_;
    QTimer* poll_;
    std::unique_ptr<TelemetrySampler> sampler_;
    uint64_t seen_ = 0;
    double hz_ = 1.0; ///< the rate asked for; hidden, the pane samples at kHiddenHz
};

} // namespace fisura::ui
