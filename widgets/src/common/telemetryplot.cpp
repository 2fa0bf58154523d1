#include "common/telemetryplot.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QSaveFile>
#include <QTextStream>
#include <QToolButton>
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

double percent(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : -1;
}

const QColor kColors[TelemetryPlot::SeriesCount] = {
    QColor(0x1f, 0x77, 0xb4), QColor(0x9e, 0x3a, 0xb4), QColor(0xd6, 0x8a, 0x00),
    QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c), QColor(0x7f, 0x7f, 0x7f)};

} // namespace

/// The time axis shows the clock: "12:04, 12:05, …" in the language's time format (seconds too
/// when the steps are shorter than a minute), at round times. Keys are seconds before the newest
/// sample, whose wall-clock time the ticker is told.
class ClockTicker : public QCPAxisTicker
{
public:
    void setNewest(qint64 unixMillis)
    {
        newestMs_ = unixMillis;
        const QDateTime t = QDateTime::fromMSecsSinceEpoch(unixMillis);
        const double local = double(unixMillis) / 1000.0 + t.offsetFromUtc();
        setTickOrigin(-std::fmod(local, 1800.0)); // every step below divides 1800 s
    }

protected:
    double getTickStep(const QCPRange& range) override
    {
        step_ = 1800;
        for (const double step : {5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 180.0, 300.0, 600.0})
            if (range.size() / step <= 6.5) {
                step_ = step;
                break;
            }
        return step_;
    }
    QString getTickLabel(double tick, const QLocale& locale, QChar, int) override
    {
        return TelemetryPlot::clockText(newestMs_ + qint64(std::llround(tick * 1000)), locale,
                                        step_ < 60);
    }

private:
    qint64 newestMs_ = 0;
    double step_ = 60;
};

QString TelemetryPlot::clockText(qint64 unixMillis, const QLocale& locale, bool withSeconds)
{
    QString format = locale.timeFormat(QLocale::ShortFormat);
    if (withSeconds && !format.contains(QLatin1String("ss")))
        format.replace(QLatin1String("mm"), QLatin1String("mm:ss"));
    return locale.toString(QDateTime::fromMSecsSinceEpoch(unixMillis).time(), format);
}

QString TelemetryPlot::agoText(double seconds, const QLocale& locale)
{
    const long s = std::lround(std::max(0.0, seconds));
    if (s == 0)
        return tr("now");
    return s < 90 ? tr("%1 s ago").arg(locale.toString(qint64(s)))
                  : tr("%1 min ago").arg(locale.toString(double(s) / 60.0, 'f', 1));
}

double seriesValue(const TelemetrySample& s, TelemetryPlot::Series series)
{
    const GpuSample* g = s.gpus.empty() ? nullptr : &s.gpus.front();
    switch (series) {
    case TelemetryPlot::GpuUtil:
        return g ? g->utilizationGpu : -1;
    case TelemetryPlot::GpuMemory:
        return g ? percent(double(g->memoryUsedBytes), double(g->memoryTotalBytes)) : -1;
    case TelemetryPlot::GpuPower:
        return g && g->powerW >= 0 ? percent(g->powerW, g->powerLimitW) : -1;
    case TelemetryPlot::GpuTemperature:
        return g ? g->temperatureC : -1;
    case TelemetryPlot::Cpu:
        return s.systemCpuPercent;
    case TelemetryPlot::Ram:
        return percent(double(s.ramUsedBytes), double(s.ramTotalBytes));
    case TelemetryPlot::SeriesCount:
        break;
    }
    return -1;
}

TelemetryPlot::TelemetryPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), pause_(new QToolButton(this)),
      windowChoice_(new QComboBox(this)), exportButton_(new QToolButton(this)),
      readout_(new QLabel(this))
{
    plot_->setObjectName(QStringLiteral("telemetryPlot"));
    followUiLocale(plot_);
    readout_->setObjectName(QStringLiteral("readout"));
    pause_->setObjectName(QStringLiteral("pause"));
    windowChoice_->setObjectName(QStringLiteral("window"));
    pause_->setCheckable(true);
    connect(pause_, &QToolButton::toggled, this, &TelemetryPlot::setPaused);
    for (int s : {60, 300, 900})
        windowChoice_->addItem(QString(), s);
    windowChoice_->setCurrentIndex(1);
    connect(windowChoice_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setWindowSeconds(windowChoice_->itemData(i).toDouble()); });
    auto* menu = new QMenu(this);
    exportButton_->setMenu(menu);
    exportButton_->setPopupMode(QToolButton::InstantPopup);
    auto* png = menu->addAction(QString());
    auto* csv = menu->addAction(QString());
    png->setObjectName(QStringLiteral("exportPng"));
    csv->setObjectName(QStringLiteral("exportCsv"));
    connect(png, &QAction::triggered, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(),
                                                       tr("PNG image (*.png)"));
        if (!f.isEmpty())
            exportPng(f);
    });
    connect(csv, &QAction::triggered, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export samples"), QString(),
                                                       tr("CSV table (*.csv)"));
        if (!f.isEmpty())
            exportCsv(f);
    });

    plot_->setAutoAddPlottableToLegend(false); // named once they have data (redraw)
    for (int i = 0; i < SeriesCount; ++i) {
        QCPAxis* y = i == GpuTemperature ? plot_->yAxis2 : plot_->yAxis;
        QCPGraph* g = plot_->addGraph(plot_->xAxis, y);
        QPen pen(kColors[i]);
        pen.setWidthF(1.6);
        if (i == GpuTemperature)
            pen.setStyle(Qt::DashLine);
        g->setPen(pen);
    }
    plot_->yAxis->setRange(0, 100);
    plot_->yAxis2->setRange(0, 100);
    plot_->yAxis2->setVisible(false); // temperature: shown with GPU figures only
    ticker_ = QSharedPointer<ClockTicker>::create();
    plot_->xAxis->setTicker(ticker_);
    plot_->xAxis->setRange(-window_, 0);
    // The legend above the data, only with the series that have data.
    plot_->plotLayout()->insertRow(0);
    key_ = new OutsideLegend(plot_, plot_->legend, 0);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->setMinimumHeight(220);
    connect(plot_, &QCustomPlot::mouseMove, this, &TelemetryPlot::onMouseMove);

    auto* bar = new QHBoxLayout;
    bar->addWidget(pause_);
    bar->addWidget(windowChoice_);
    bar->addWidget(exportButton_);
    bar->addWidget(readout_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    retranslateUi();
}

void TelemetryPlot::retranslateUi()
{
    const QString names[SeriesCount] = {tr("GPU utilization"), tr("GPU memory"), tr("GPU power"),
                                        tr("GPU temperature"), tr("CPU"),        tr("RAM")};
    for (int i = 0; i < SeriesCount; ++i)
        plot_->graph(i)->setName(names[i]);
    plot_->setLocale(QLocale()); // tick labels in the language's numbers
    plot_->yAxis->setLabel(tr("Use (%)"));
    plot_->yAxis2->setLabel(tr("Temperature (°C)"));
    pause_->setText(paused_ ? tr("Resume") : tr("Pause"));
    windowChoice_->setItemText(0, tr("Last minute"));
    windowChoice_->setItemText(1, tr("Last 5 minutes"));
    windowChoice_->setItemText(2, tr("Last 15 minutes"));
    exportButton_->setText(tr("Export"));
    exportButton_->menu()->actions().at(0)->setText(tr("Plot as PNG…"));
    exportButton_->menu()->actions().at(1)->setText(tr("Samples as CSV…"));
    plot_->replot();
}

void TelemetryPlot::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

void TelemetryPlot::setSamples(const std::vector<TelemetrySample>& samples)
{
    if (paused_)
        return;
    samples_ = samples;
    redraw();
}

void TelemetryPlot::setPaused(bool paused)
{
    paused_ = paused;
    if (pause_->isChecked() != paused)
        pause_->setChecked(paused);
    pause_->setText(paused_ ? tr("Resume") : tr("Pause"));
}

void TelemetryPlot::setWindowSeconds(double seconds)
{
    window_ = std::clamp(seconds, 10.0, 3600.0);
    for (int i = 0; i < windowChoice_->count(); ++i)
        if (windowChoice_->itemData(i).toDouble() == window_ && windowChoice_->currentIndex() != i)
            windowChoice_->setCurrentIndex(i);
    redraw();
}

std::vector<TelemetrySample> TelemetryPlot::visible() const
{
    if (samples_.empty())
        return {};
    const double from = samples_.back().seconds - window_;
    auto first = std::find_if(samples_.begin(), samples_.end(),
                              [from](const TelemetrySample& s) { return s.seconds >= from; });
    return {first, samples_.end()};
}

void TelemetryPlot::redraw()
{
    const auto vis = visible();
    hasGpu_ = !vis.empty() && !vis.back().gpus.empty();
    newest_ = vis.empty() ? 0 : vis.back().seconds;
    // Samples replayed without a wall clock end now.
    ticker_->setNewest(!vis.empty() && vis.back().unixMillis > 0
                           ? vis.back().unixMillis
                           : QDateTime::currentMSecsSinceEpoch());
    std::vector<QCPAbstractPlottable*> named; // the legend: series with data only
    for (int i = 0; i < SeriesCount; ++i) {
        QVector<double> keys, values;
        keys.reserve(int(vis.size()));
        values.reserve(int(vis.size()));
        for (const auto& s : vis) {
            const double v = seriesValue(s, Series(i));
            if (v < 0)
                continue; // unknown: leave a gap rather than draw a false zero
            keys.push_back(s.seconds - newest_); // seconds before the newest sample
            values.push_back(v);
        }
        QCPGraph* g = plot_->graph(i);
        g->setData(keys, values, true);
        const bool gpuSeries = i <= GpuTemperature;
        g->setVisible(!gpuSeries || hasGpu_);
        if (g->visible() && !keys.isEmpty())
            named.push_back(g);
    }
    key_->setEntries(named);
    plot_->yAxis2->setVisible(hasGpu_);
    plot_->xAxis->setRange(-window_, 0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString TelemetryPlot::readoutAt(double t) const
{
    if (samples_.empty())
        return {};
    auto it = std::min_element(samples_.begin(), samples_.end(),
                               [t](const TelemetrySample& a, const TelemetrySample& b) {
                                   return std::abs(a.seconds - t) < std::abs(b.seconds - t);
                               });
    const TelemetrySample& s = *it;
    const QLocale loc;
    auto num = [&](double v, int decimals = 0) { return loc.toString(v, 'f', decimals); };
    QStringList parts;
    parts << agoText(samples_.back().seconds - s.seconds, loc);
    if (!s.gpus.empty()) {
        const GpuSample& g = s.gpus.front();
        if (g.utilizationGpu >= 0)
            parts << tr("GPU %1 %").arg(num(g.utilizationGpu));
        parts << tr("GPU memory %1 / %2 GiB")
                     .arg(num(g.memoryUsedBytes / 1073741824.0, 1),
                          num(g.memoryTotalBytes / 1073741824.0, 1));
        if (g.powerW >= 0)
            parts << tr("%1 W").arg(num(g.powerW));
        if (g.temperatureC >= 0)
            parts << tr("%1 °C").arg(num(g.temperatureC));
    }
    if (s.systemCpuPercent >= 0)
        parts << tr("CPU %1 %").arg(num(s.systemCpuPercent));
    parts << tr("RAM %1 / %2 GiB")
                 .arg(num(s.ramUsedBytes / 1073741824.0, 1),
                      num(s.ramTotalBytes / 1073741824.0, 1));
    return parts.join(QStringLiteral(" · "));
}

void TelemetryPlot::onMouseMove(QMouseEvent* e)
{
    readout_->setText(readoutAt(newest_ + plot_->xAxis->pixelToCoord(e->position().x())));
}

bool TelemetryPlot::exportPng(const QString& path, int width, int height)
{
    return plot_->savePng(path, width, height);
}

bool TelemetryPlot::exportCsv(const QString& path) const
{
    QSaveFile file(path); // nothing half-written: commit() renames into place
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    QTextStream out(&file);
    out << "seconds,unix_ms,system_cpu_percent,process_cpu_percent,process_rss_bytes,"
           "ram_used_bytes,ram_total_bytes,gpu_utilization_percent,gpu_memory_used_bytes,"
           "gpu_memory_total_bytes,gpu_temperature_c,gpu_power_w,gpu_power_limit_w,"
           "gpu_sm_clock_mhz\n";
    auto opt = [](double v) { return v < 0 ? QString() : QString::number(v, 'g', 8); };
    for (const auto& s : visible()) {
        out << QString::number(s.seconds, 'f', 3) << ',' << s.unixMillis << ','
            << opt(s.systemCpuPercent) << ',' << opt(s.processCpuPercent) << ','
            << s.processRssBytes << ',' << s.ramUsedBytes << ',' << s.ramTotalBytes;
        if (!s.gpus.empty()) {
            const GpuSample& g = s.gpus.front();
            out << ',' << opt(g.utilizationGpu) << ',' << g.memoryUsedBytes << ','
                << g.memoryTotalBytes << ',' << opt(g.temperatureC) << ',' << opt(g.powerW) << ','
                << opt(g.powerLimitW) << ',' << opt(g.smClockMHz);
        } else {
            out << ",,,,,,,";
        }
        out << '\n';
    }
    out.flush();
    return file.commit();
}

} // namespace fisura::ui
