#include "train/trainplot.h"

#include <QDateTime>
#include <QEvent>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "common/plotlegend.h"
#include "common/plotlocale.h"
#include "common/qcp.h"

namespace fisura::ui
{

namespace
{

constexpr double kGiB = 1073741824.0;
constexpr double kSmoothing = 0.9; // exponential moving average of the batch loss

const QColor kLive[TrainPlot::SeriesCount] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                              QColor(0x2c, 0xa0, 0x2c), QColor(0x1f, 0x77, 0xb4),
                                              QColor(0x9e, 0x3a, 0xb4), QColor(0xd6, 0x8a, 0x00),
                                              QColor(0x8c, 0x56, 0x4b), QColor(0x2c, 0xa0, 0x2c)};

const QColor kRuns[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                        QColor(0x2c, 0xa0, 0x2c), QColor(0x9e, 0x3a, 0xb4),
                        QColor(0xd6, 0x8a, 0x00), QColor(0x17, 0xbe, 0xcf)};

} // namespace

TrainPlot::TrainPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), top_(new QCPAxisRect(plot_)),
      bottom_(new QCPAxisRect(plot_)), topLegend_(new QCPLegend), bottomLegend_(new QCPLegend)
{
    plot_->setObjectName(QStringLiteral("trainPlot"));
    followUiLocale(plot_);        // decimal separators follow the language
    plot_->plotLayout()->clear(); // two axis rects sharing the time axis replace the default one
    // Each legend in a row above its axis rect: outside the data, never over the newest points.
    plot_->plotLayout()->addElement(1, 0, top_);
    plot_->plotLayout()->addElement(3, 0, bottom_);
    plot_->plotLayout()->setRowStretchFactor(1, 3);
    plot_->plotLayout()->setRowStretchFactor(3, 2);
    auto* margins = new QCPMarginGroup(plot_);
    for (QCPAxisRect* r : {top_, bottom_}) {
        r->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        r->setRangeDrag(Qt::Horizontal);
        r->setRangeZoom(Qt::Horizontal);
    }
    // One time axis: whatever moves one moves the other.
    QCPAxis* tx = top_->axis(QCPAxis::atBottom);
    QCPAxis* bx = bottom_->axis(QCPAxis::atBottom);
    connect(tx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), bx,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(bx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), tx,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    top_->axis(QCPAxis::atRight)->setVisible(true); // the metric's; GPU memory's when it has data
    top_->axis(QCPAxis::atRight)->setRange(0, 1);
    bottom_->axis(QCPAxis::atLeft)->setRange(0, 100);
    plot_->setAutoAddPlottableToLegend(false);
    topKey_ = new OutsideLegend(plot_, topLegend_, 0);
    bottomKey_ = new OutsideLegend(plot_, bottomLegend_, 2);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMinimumHeight(300);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    retranslateUi();
}

double TrainPlot::taskMetric(TaskKind task, const EpochMetrics& m)
{
    switch (task) {
    case TaskKind::Segment:
        return m.f1AtBest >= 0 ? m.f1AtBest : m.segF1;
    case TaskKind::Classify:
        return m.f1;
    case TaskKind::Anomaly:
        return -1; // the validation loss is the reconstruction error already
    }
    return -1;
}

QString TrainPlot::metricName(TaskKind task)
{
    switch (task) {
    case TaskKind::Segment:
        return tr("F1 of crack pixels (best threshold)");
    case TaskKind::Classify:
        return tr("F1 of the cracked class");
    case TaskKind::Anomaly:
        return {};
    }
    return {};
}

void TrainPlot::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

void TrainPlot::retranslateUi()
{
    top_->axis(QCPAxis::atLeft)->setLabel(tr("Loss"));
    top_->axis(QCPAxis::atRight)->setLabel(tr("Metric"));
    bottom_->axis(QCPAxis::atBottom)->setLabel(tr("Training time (s)"));
    bottom_->axis(QCPAxis::atLeft)->setLabel(tr("Use (%)"));
    bottom_->axis(QCPAxis::atRight)->setLabel(tr("GPU memory (GiB)"));
    if (live_ || series_[TrainLoss])
        nameLiveGraphs();
    else if (!runs_.empty())
        showRuns(std::vector<RunCurves>(runs_));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TrainPlot::nameLiveGraphs()
{
    const QString names[SeriesCount] = {tr("Training loss (smoothed)"),
                                        tr("Validation loss"),
                                        metricName(task_),
                                        tr("GPU utilization"),
                                        tr("GPU memory allocated"),
                                        tr("GPU memory reserved"),
                                        tr("GPU memory peak"),
                                        tr("CPU")};
    for (int i = 0; i < SeriesCount; ++i)
        if (series_[i])
            series_[i]->setName(names[i]);
}

void TrainPlot::resetGraphs()
{
    plot_->clearGraphs();
    topLegend_->clearItems();
    bottomLegend_->clearItems();
    std::fill(std::begin(series_), std::end(series_), nullptr);
}

QCPGraph* TrainPlot::addGraph(bool top, bool rightAxis, const QColor& color, Qt::PenStyle style,
                              bool scatter)
{
    QCPAxisRect* r = top ? top_ : bottom_;
    QCPGraph* g = plot_->addGraph(r->axis(QCPAxis::atBottom),
                                  r->axis(rightAxis ? QCPAxis::atRight : QCPAxis::atLeft));
    QPen pen(color);
    pen.setWidthF(1.6);
    pen.setStyle(style);
    g->setPen(pen);
    if (scatter)
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    return g;
}

void TrainPlot::clear()
{
    live_ = false;
    runs_.clear();
    resetGraphs();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TrainPlot::beginLive(TaskKind task, double offsetSeconds,
                          const std::vector<EpochMetrics>& earlier)
{
    resetGraphs();
    runs_.clear();
    live_ = true;
    task_ = task;
    offset_ = offsetSeconds;
    ema_ = 0;
    emaCount_ = 0;
    clock_.start();
    startUnixMs_ = QDateTime::currentMSecsSinceEpoch();
    for (int i = 0; i < SeriesCount; ++i) {
        const bool top = i <= Metric;
        const bool right = i == Metric || (i >= GpuAllocated && i <= GpuPeak);
        const Qt::PenStyle style = i == GpuReserved ? Qt::DashLine
                                   : i == GpuPeak   ? Qt::DotLine
                                                    : Qt::SolidLine;
        series_[i] = addGraph(top, right, kLive[i], style, i == ValLoss || i == Metric);
    }
    // Epochs before a resume, placed at the training time they ended.
    double t = 0;
    for (const EpochMetrics& m : earlier) {
        t += m.seconds;
        if (m.trainLoss >= 0)
            series_[TrainLoss]->addData(t, m.trainLoss);
        if (m.valLoss >= 0)
            series_[ValLoss]->addData(t, m.valLoss);
        if (const double v = taskMetric(task, m); v >= 0)
            series_[Metric]->addData(t, v);
    }
    nameLiveGraphs();
    rescale();
}

void TrainPlot::endLive()
{
    live_ = false;
}

double TrainPlot::now() const
{
    return offset_ + (clock_.isValid() ? clock_.elapsed() / 1000.0 : 0.0);
}

void TrainPlot::addBatch(const BatchProgress& b)
{
    if (!live_)
        return;
    const double t = now();
    if (std::isfinite(b.loss)) {
        ema_ = kSmoothing * ema_ + (1 - kSmoothing) * b.loss;
        ++emaCount_;
        series_[TrainLoss]->addData(t, ema_ / (1 - std::pow(kSmoothing, emaCount_)));
    }
    if (b.gpuReservedBytes > 0) { // the processor has no allocator statistics to show
        series_[GpuAllocated]->addData(t, b.gpuAllocatedBytes / kGiB);
        series_[GpuReserved]->addData(t, b.gpuReservedBytes / kGiB);
        series_[GpuPeak]->addData(t, b.gpuPeakBytes / kGiB);
    }
    rescale();
}

void TrainPlot::addEpoch(const EpochMetrics& m)
{
    if (!live_)
        return;
    const double t = now();
    if (m.valLoss >= 0)
        series_[ValLoss]->addData(t, m.valLoss);
    if (const double v = taskMetric(task_, m); v >= 0)
        series_[Metric]->addData(t, v);
    rescale();
}

void TrainPlot::setTelemetry(const std::vector<TelemetrySample>& samples)
{
    if (!live_ || !series_[GpuUtil])
        return;
    QVector<double> ut, uv, ct, cv;
    for (const TelemetrySample& s : samples) {
        if (s.unixMillis < startUnixMs_)
            continue;
        const double t = offset_ + double(s.unixMillis - startUnixMs_) / 1000.0;
        if (!s.gpus.empty() && s.gpus.front().utilizationGpu >= 0) {
            ut.push_back(t);
            uv.push_back(s.gpus.front().utilizationGpu);
        }
        if (s.systemCpuPercent >= 0) {
            ct.push_back(t);
            cv.push_back(s.systemCpuPercent);
        }
    }
    series_[GpuUtil]->setData(ut, uv, true);
    series_[Cpu]->setData(ct, cv, true);
    rescale();
}

void TrainPlot::showRuns(const std::vector<RunCurves>& runs)
{
    resetGraphs();
    live_ = false;
    runs_ = runs;
    const bool single = runs.size() == 1;
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunCurves& r = runs[i];
        const QColor c = kRuns[i % (sizeof(kRuns) / sizeof(kRuns[0]))];
        QCPGraph* train = single ? addGraph(true, false, c, Qt::DotLine, false) : nullptr;
        QCPGraph* val = addGraph(true, false, c, Qt::SolidLine, true);
        QCPGraph* metric = addGraph(true, true, single ? kLive[Metric] : c, Qt::DashLine, true);
        double t = 0;
        for (const EpochMetrics& m : r.history) {
            t += m.seconds;
            if (train && m.trainLoss >= 0)
                train->addData(t, m.trainLoss);
            if (m.valLoss >= 0)
                val->addData(t, m.valLoss);
            if (const double v = taskMetric(r.task, m); v >= 0)
                metric->addData(t, v);
        }
        const QString prefix = single ? QString() : r.label + QStringLiteral(" · ");
        if (train && !train->data()->isEmpty()) {
            train->setName(tr("Training loss"));
            train->addToLegend(topLegend_);
        }
        val->setName(prefix + tr("Validation loss"));
        if (!val->data()->isEmpty())
            val->addToLegend(topLegend_);
        if (!metric->data()->isEmpty()) {
            metric->setName(prefix + metricName(r.task));
            metric->addToLegend(topLegend_);
        }
    }
    rescale();
}

int TrainPlot::seriesLength(Series s) const
{
    return series_[s] ? series_[s]->data()->size() : 0;
}

int TrainPlot::graphCount() const
{
    return plot_->graphCount();
}

void TrainPlot::rescale()
{
    // Ranges are recomputed at most a few times a second, not after every batch.
    if (rescalePending_)
        return;
    rescalePending_ = true;
    QTimer::singleShot(150, this, [this] {
        rescalePending_ = false;
        rescaleNow();
    });
}

void TrainPlot::syncLegends()
{
    // Live series are named once they have data: no empty squares before the first batch, no
    // GPU entries on a processor-only machine; entries keep the series' order.
    if (series_[TrainLoss]) {
        std::vector<QCPAbstractPlottable*> top, bottom;
        for (int i = 0; i < SeriesCount; ++i)
            if (!series_[i]->data()->isEmpty() && !(i == Metric && task_ == TaskKind::Anomaly))
                (i <= Metric ? top : bottom).push_back(series_[i]);
        topKey_->setEntries(top);
        bottomKey_->setEntries(bottom);
    }
    // The GPU memory axis only where there is GPU memory to show.
    bool gpuMemory = false;
    for (int i : {GpuAllocated, GpuReserved, GpuPeak})
        gpuMemory |= series_[i] && !series_[i]->data()->isEmpty();
    bottom_->axis(QCPAxis::atRight)->setVisible(gpuMemory);
}

void TrainPlot::rescaleNow()
{
    syncLegends();
    QCPAxis* loss = top_->axis(QCPAxis::atLeft);
    QCPAxis* mem = bottom_->axis(QCPAxis::atRight);
    bool found = false;
    QCPRange lossRange, memRange(0, 1), timeRange(0, 1);
    bool haveTime = false;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* g = plot_->graph(i);
        if (g->data()->isEmpty())
            continue;
        bool ok = false;
        const QCPRange keys = g->getKeyRange(ok);
        if (ok) {
            timeRange = haveTime ? QCPRange(std::min(timeRange.lower, keys.lower),
                                            std::max(timeRange.upper, keys.upper))
                                 : keys;
            haveTime = true;
        }
        const QCPRange values = g->getValueRange(ok);
        if (!ok)
            continue;
        if (g->valueAxis() == loss) {
            lossRange = found ? QCPRange(std::min(lossRange.lower, values.lower),
                                         std::max(lossRange.upper, values.upper))
                              : values;
            found = true;
        } else if (g->valueAxis() == mem) {
            memRange.upper = std::max(memRange.upper, values.upper * 1.1);
        }
    }
    if (found)
        loss->setRange(0, std::max(1e-6, lossRange.upper * 1.1));
    mem->setRange(memRange);
    const double end = live_ ? std::max(timeRange.upper, now()) : timeRange.upper;
    const double start = haveTime ? std::min(0.0, timeRange.lower) : 0;
    // A little room after the newest point: its marker is not cut in half by the frame.
    const double upper = std::max(1.0, end);
    top_->axis(QCPAxis::atBottom)->setRange(start, upper + 0.02 * (upper - start));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace fisura::ui
