#include "inspect/measureplots.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLocale>

#include <algorithm>

#include "common/plotlocale.h"
#include "common/qcp.h"
#include "inspect/measuretext.h"

namespace fisura::ui
{

namespace
{

const QColor kBar(70, 130, 200);

void styleAxes(QCustomPlot* p)
{
    followUiLocale(p);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->setNumberFormat(QStringLiteral("gb"));
    p->setMinimumSize(240, 200);
}

} // namespace

MeasurePlots::MeasurePlots(QWidget* parent)
    : QWidget(parent), histogram_(new QCustomPlot(this)), classes_(new QCustomPlot(this))
{
    histogram_->setObjectName(QStringLiteral("widthHistogramPlot"));
    classes_->setObjectName(QStringLiteral("classLengthPlot"));
    styleAxes(histogram_);
    styleAxes(classes_);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(histogram_, 3);
    layout->addWidget(classes_, 2);
    retranslateUi();
}

void MeasurePlots::setResult(std::shared_ptr<const MeasureResult> result)
{
    result_ = std::move(result);
    showHistogram();
    showClasses();
    retranslateUi();
}

int MeasurePlots::histogramBars() const
{
    auto* bars =
        histogram_->plottableCount() ? qobject_cast<QCPBars*>(histogram_->plottable(0)) : nullptr;
    return bars ? bars->dataCount() : 0;
}

int MeasurePlots::classBars() const
{
    int n = 0;
    for (int i = 0; i < classes_->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(classes_->plottable(i)))
            n += b->dataCount();
    return n;
}

void MeasurePlots::showHistogram()
{
    histogram_->clearPlottables();
    if (!result_)
        return histogram_->replot();
    const auto& h = result_->widthHistogram;
    const double mm = result_->pixelSizeMm;
    const double bin = result_->widthHistogramBinPx * (mm > 0 ? mm : 1.0);
    const double lengthUnit = mm > 0 ? mm : 1.0; // skeleton pixels -> length
    size_t last = h.size();
    while (last > 0 && h[last - 1] == 0)
        --last;
    // Bins are fine (a quarter pixel); join them so that the plot has at most about 40 bars.
    const size_t join = std::max<size_t>(1, (last + 39) / 40);
    QVector<double> keys, values;
    double top = 1;
    for (size_t i = 0; i < last; i += join) {
        double sum = 0;
        for (size_t k = i; k < std::min(last, i + join); ++k)
            sum += double(h[k]);
        keys.push_back((double(i) + 0.5 * double(join)) * bin);
        values.push_back(sum * lengthUnit);
        top = std::max(top, values.back());
    }
    auto* bars = new QCPBars(histogram_->xAxis, histogram_->yAxis);
    bars->setPen(QPen(kBar.darker(130)));
    bars->setBrush(kBar.lighter(120));
    bars->setWidth(bin * double(join));
    bars->setData(keys, values, true);
    histogram_->xAxis->setRange(0, std::max(bin, double(last + join) * bin));
    histogram_->yAxis->setRange(0, top * 1.1);
    histogram_->replot();
}

void MeasurePlots::showClasses()
{
    classes_->clearPlottables();
    if (!result_ || result_->classes.empty())
        return classes_->replot();
    // Metres, or millimetres while every total stays below a metre.
    double topMm = 0;
    for (const auto& c : result_->classes)
        topMm = std::max(topMm, c.lengthMm);
    const double unit = topMm < 1000 ? 1.0 : 1000.0;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t k = 0; k < result_->classes.size(); ++k) {
        const auto& c = result_->classes[k];
        auto* bars = new QCPBars(classes_->xAxis, classes_->yAxis);
        const QColor colour = MeasureText::classColour(result_->options.classes, int(k));
        bars->setPen(QPen(colour.darker(140)));
        bars->setBrush(colour);
        bars->setWidth(0.7);
        bars->addData(double(k + 1), c.lengthMm / unit);
        ticker->addTick(double(k + 1), MeasureText::className(c.id));
    }
    classes_->xAxis->setTicker(ticker);
    classes_->xAxis->setRange(0.4, double(result_->classes.size()) + 0.6);
    classes_->yAxis->setRange(0, std::max(topMm / unit * 1.15, 1e-3));
    classes_->yAxis->setLabel(unit == 1.0 ? tr("Total length (mm)") : tr("Total length (m)"));
    classes_->replot();
}

void MeasurePlots::retranslateUi()
{
    const bool mm = result_ && result_->pixelSizeMm > 0;
    histogram_->xAxis->setLabel(mm ? tr("Width (mm)") : tr("Width (px)"));
    histogram_->yAxis->setLabel(mm ? tr("Crack length (mm)") : tr("Crack length (px)"));
    classes_->xAxis->setLabel(tr("Width class"));
    histogram_->setLocale(plotLocale());
    classes_->setLocale(plotLocale());
    if (result_ && !result_->classes.empty())
        showClasses(); // the class names on the axis
    else
        classes_->replot();
    histogram_->replot();
}

void MeasurePlots::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

QImage MeasurePlots::histogramImage(QSize size, double scale)
{
    return histogram_->toPixmap(size.width(), size.height(), scale).toImage();
}

QImage MeasurePlots::classImage(QSize size, double scale)
{
    return classes_->toPixmap(size.width(), size.height(), scale).toImage();
}

} // namespace fisura::ui
