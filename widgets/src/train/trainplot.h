// Training curves and the machine under them, on one time axis: training loss per batch
// (smoothed), validation loss and the task's metric per epoch on top; GPU utilization, GPU memory
// (allocated / reserved / peak) and CPU below, so a spike in memory lines up with the batch that
// caused it. Finished runs show their per-epoch curves; several runs overlay for comparison.
#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

#include <vector>

#include "fisura/dataset.h"
#include "fisura/telemetry.h"
#include "fisura/train.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPLegend;

namespace fisura::ui
{

class OutsideLegend;

class TrainPlot : public QWidget
{
    Q_OBJECT
public:
    enum Series {
        TrainLoss,
        ValLoss,
        Metric,
        GpuUtil,
        GpuAllocated,
        GpuReserved,
        GpuPeak,
        Cpu,
        SeriesCount
    };
    /// One run's per-epoch history, for the history and comparison views.
    struct RunCurves {
        QString label;
        TaskKind task = TaskKind::Segment;
        std::vector<EpochMetrics> history;
    };

    explicit TrainPlot(QWidget* parent = nullptr);

    /// Start live curves now. `offsetSeconds`: training time before a resume (the axis goes on
    /// from there); `earlier`: the epochs done before, drawn as they were.
    void beginLive(TaskKind task, double offsetSeconds = 0,
                   const std::vector<EpochMetrics>& earlier = {});
    bool isLive() const { return live_; }
    /// Stop the clock (the curves stay).
    void endLive();
    /// Seconds on the time axis now.
    double now() const;
    void addBatch(const BatchProgress& b);
    void addEpoch(const EpochMetrics& m);
    /// Telemetry samples (any span; those before the live start are skipped).
    void setTelemetry(const std::vector<TelemetrySample>& samples);
    /// Per-epoch curves of finished runs; two or more overlay.
    void showRuns(const std::vector<RunCurves>& runs);
    void clear();

    /// Points in a live series (0 outside live curves).
    int seriesLength(Series s) const;
    /// Graphs shown at the moment (tests count overlaid runs).
    int graphCount() const;
    QCustomPlot* plot() const { return plot_; }

    /// The number plotted as the task's metric (-1 = none for this epoch).
    static double taskMetric(TaskKind task, const EpochMetrics& m);
    static QString metricName(TaskKind task);

    void retranslateUi();

protected:
    void changeEvent(QEvent* e) override;

private:
    void resetGraphs();
    QCPGraph* addGraph(bool top, bool rightAxis, const QColor& color, Qt::PenStyle style,
                       bool scatter);
    void nameLiveGraphs();
    void rescale();
    void rescaleNow();
    /// Legend entries for the series with data only; the GPU memory axis only with its data.
    void syncLegends();

    QCustomPlot* plot_;
    QCPAxisRect* top_;
    QCPAxisRect* bottom_;
    QCPLegend* topLegend_;
    QCPLegend* bottomLegend_;
    OutsideLegend* topKey_;
    OutsideLegend* bottomKey_;
    QCPGraph* series_[SeriesCount] = {};
    bool live_ = false;
    TaskKind task_ = TaskKind::Segment;
    QElapsedTimer clock_;
    qint64 startUnixMs_ = 0;
    double offset_ = 0;
    double ema_ = 0;
    int emaCount_ = 0;
    bool rescalePending_ = false;
    std::vector<RunCurves> runs_;
};

} // namespace fisura::ui
