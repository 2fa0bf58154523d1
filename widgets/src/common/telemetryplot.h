// Live time series of telemetry samples (QCustomPlot): GPU utilization, memory, power and
// temperature, CPU and RAM. Percentages share the left axis; temperature has the right one. The
// time axis shows the clock time; GPU series and axes appear with GPU figures.
#pragma once

#include <QSharedPointer>
#include <QWidget>

#include <vector>

#include "fisura/telemetry.h"

class QCustomPlot;
class QComboBox;
class QLabel;
class QToolButton;
class QLocale;
class QMouseEvent;

namespace fisura::ui
{

class ClockTicker;
class OutsideLegend;

class TelemetryPlot : public QWidget
{
    Q_OBJECT
public:
    /// The series, in graph order.
    enum Series { GpuUtil, GpuMemory, GpuPower, GpuTemperature, Cpu, Ram, SeriesCount };

    explicit TelemetryPlot(QWidget* parent = nullptr);

    /// Show these samples (oldest first); ignored while paused. The x axis ends at the newest.
    void setSamples(const std::vector<TelemetrySample>& samples);
    void setPaused(bool paused);
    bool isPaused() const { return paused_; }
    /// Visible time window in seconds (60, 300 or 900).
    void setWindowSeconds(double seconds);
    double windowSeconds() const { return window_; }
    /// Whether the GPU series are shown (no GPU telemetry: CPU and RAM only).
    bool hasGpu() const { return hasGpu_; }

    /// Hover read-out text for time `t` (seconds since the sampler started).
    QString readoutAt(double t) const;
    /// "now", "12 s ago", "2.5 min ago" (the hover read-out).
    static QString agoText(double seconds, const QLocale& locale);
    /// The time axis' tick label: the clock time in the language's format ("2:05 PM", "14:05").
    static QString clockText(qint64 unixMillis, const QLocale& locale, bool withSeconds);
    bool exportPng(const QString& path, int width = 1200, int height = 600);
    /// CSV of the visible window (all columns, SI units). Written to a temporary file first.
    bool exportCsv(const QString& path) const;

    QCustomPlot* plot() const { return plot_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslateUi();
    void redraw();
    void onMouseMove(QMouseEvent* e);
    std::vector<TelemetrySample> visible() const;

    QCustomPlot* plot_;
    QToolButton* pause_;
    QComboBox* windowChoice_;
    QToolButton* exportButton_;
    QLabel* readout_;
    OutsideLegend* key_;
    QSharedPointer<ClockTicker> ticker_;
    std::vector<TelemetrySample> samples_;
    double newest_ = 0; ///< sampler seconds of the newest sample shown: the axis' "now"
    double window_ = 300;
    bool paused_ = false;
    bool hasGpu_ = false;
};

/// Percentages of one sample per series (negative = unknown). Temperature is in °C.
double seriesValue(const TelemetrySample& s, TelemetryPlot::Series series);

} // namespace fisura::ui
