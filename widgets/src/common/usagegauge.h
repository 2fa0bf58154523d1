// Small painted meters: the status-bar GPU/CPU gauge and the System pane's GPU memory bar.
#pragma once

#include <QWidget>

#include <cstdint>

#include "fisura/telemetry.h"

namespace fisura::ui
{

/// "GPU ▮▮▯ CPU ▮▯▯" for the status bar; the tooltip has the figures.
class UsageGauge : public QWidget
{
    Q_OBJECT
public:
    explicit UsageGauge(QWidget* parent = nullptr);
    void setSample(const TelemetrySample& sample);
    /// Shown levels in percent; negative = no such device/reading.
    double gpuPercent() const { return gpu_; }
    double cpuPercent() const { return cpu_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    double gpu_ = -1;
    double cpu_ = -1;
};

/// Device memory: used of total (the driver's view, all processes), with LibTorch's allocated
/// and reserved marked inside it.
class MemoryBar : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryBar(QWidget* parent = nullptr);
    void setValues(uint64_t used, uint64_t total, uint64_t allocated, uint64_t reserved);
    uint64_t used() const { return used_; }
    uint64_t total() const { return total_; }
    uint64_t allocated() const { return allocated_; }
    uint64_t reserved() const { return reserved_; }
    /// The caption drawn on the bar ("12.1 / 80.0 GiB").
    QString caption() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    uint64_t used_ = 0, total_ = 0, allocated_ = 0, reserved_ = 0;
};

} // namespace fisura::ui
