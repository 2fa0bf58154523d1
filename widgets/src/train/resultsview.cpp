#include "train/resultsview.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QScrollArea>
#include <QSlider>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "common/flowlayout.h"
#include "common/plotlocale.h"
#include "common/qcp.h"
#include "train/galleryview.h"

namespace fisura::ui
{

namespace
{

const QColor kCurve(0x1f, 0x77, 0xb4);
const QColor kMarker(0xd6, 0x27, 0x28);

QTableWidgetItem* readOnlyItem(const QString& text)
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return it;
}

/// The epoch whose model was kept: the run's bestEpoch, else the highest score.
const EpochMetrics* bestEpochOf(const ProjectRun& run)
{
    const EpochMetrics* best = nullptr;
    for (const auto& m : run.history) {
        if (run.bestEpoch >= 0 && m.epoch == run.bestEpoch)
            return &m;
        if (!best || m.score > best->score)
            best = &m;
    }
    return best;
}

} // namespace

TrainResultsView::TrainResultsView(QWidget* parent)
    : QWidget(parent), busy_(new QLabel(this)), metricsTitle_(new QLabel(this)),
      metrics_(new QTableWidget(this)), chartTitle_(new QLabel(this)),
      charts_(new QStackedWidget(this)), noChart_(new QLabel(charts_)),
      prPlot_(new QCustomPlot(charts_)), confusion_(new QTableWidget), confusionNote_(new QLabel),
      confusionPage_(new QWidget(charts_)), histogram_(new QCustomPlot(charts_)),
      thresholdRow_(new QWidget(this)), thresholdLabel_(new QLabel(thresholdRow_)),
      slider_(new QSlider(Qt::Horizontal)), spin_(new QDoubleSpinBox), readout_(new QLabel(this)),
      galleryTitle_(new QLabel(this)), gallery_(new TrainGalleryView)
{
    busy_->setObjectName(QStringLiteral("resultsBusy"));
    metrics_->setObjectName(QStringLiteral("metricsTable"));
    prPlot_->setObjectName(QStringLiteral("prPlot"));
    confusion_->setObjectName(QStringLiteral("confusionMatrix"));
    histogram_->setObjectName(QStringLiteral("errorHistogram"));
    followUiLocale(prPlot_);
    followUiLocale(histogram_);
    slider_->setObjectName(QStringLiteral("thresholdSlider"));
    spin_->setObjectName(QStringLiteral("thresholdSpin"));
    readout_->setObjectName(QStringLiteral("thresholdReadout"));
    charts_->setObjectName(QStringLiteral("resultsCharts"));

    busy_->setVisible(false);
    metrics_->setColumnCount(2);
    metrics_->verticalHeader()->setVisible(false);
    metrics_->horizontalHeader()->setStretchLastSection(true);
    metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    metrics_->setMinimumWidth(240);
    confusion_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    noChart_->setAlignment(Qt::AlignCenter);
    noChart_->setWordWrap(true);
    readout_->setWordWrap(true);

    buildCharts();
    spin_->setKeyboardTracking(false);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (!updating_)
            userMovedThreshold(sliderToThreshold(v), !slider_->isSliderDown());
    });
    connect(slider_, &QSlider::sliderReleased, this,
            [this] { userMovedThreshold(sliderToThreshold(slider_->value()), true); });
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!updating_)
            userMovedThreshold(v, true);
    });
    auto* tl = new QHBoxLayout(thresholdRow_);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(thresholdLabel_);
    tl->addWidget(slider_, 1);
    tl->addWidget(spin_);

    // Metrics beside the chart, or above it when the pane is narrow (a small screen).
    auto* metricsPart = new QWidget(this);
    auto* left = new QVBoxLayout(metricsPart);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(metricsTitle_);
    left->addWidget(metrics_, 1);
    auto* chartPart = new QWidget(this);
    auto* right = new QVBoxLayout(chartPart);
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(chartTitle_);
    right->addWidget(charts_, 1);
    right->addWidget(thresholdRow_);
    right->addWidget(readout_);
    auto* top = new FlowLayout;
    for (QWidget* part : {metricsPart, chartPart}) {
        part->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        top->addWidget(part);
    }
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("galleryScroll"));
    scroll->setWidget(gallery_);
    scroll->setWidgetResizable(true);
    scroll->setMinimumHeight(2 * TrainGalleryView::kPanel + 90);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(busy_);
    layout->addLayout(top, 1);
    layout->addWidget(galleryTitle_);
    layout->addWidget(scroll);
    clear();
    retranslateUi();
}

void TrainResultsView::buildCharts()
{
    // Precision-recall: the curve (parametric in the threshold) and the chosen point.
    auto* curve = new QCPCurve(prPlot_->xAxis, prPlot_->yAxis);
    curve->setPen(QPen(kCurve, 2));
    QCPGraph* marker = prPlot_->addGraph();
    marker->setLineStyle(QCPGraph::lsNone);
    marker->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kMarker, kMarker, 10));
    prPlot_->xAxis->setRange(0, 1.02);
    prPlot_->yAxis->setRange(0, 1.02);
    prPlot_->setMinimumSize(260, 220);
    connect(prPlot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        // A click picks the curve point nearest to it (in screen distance).
        if (report_.prCurve.empty())
            return;
        double bestD = 1e300, bestT = threshold_;
        for (const PrPoint& p : report_.prCurve) {
            const double dx = prPlot_->xAxis->coordToPixel(p.recall) - e->pos().x();
            const double dy = prPlot_->yAxis->coordToPixel(p.precision) - e->pos().y();
            if (dx * dx + dy * dy < bestD) {
                bestD = dx * dx + dy * dy;
                bestT = p.threshold;
            }
        }
        userMovedThreshold(bestT, true);
    });

    // Error histogram and the threshold line.
    auto* bars = new QCPBars(histogram_->xAxis, histogram_->yAxis);
    bars->setPen(QPen(kCurve.darker(130)));
    bars->setBrush(kCurve.lighter(130));
    auto* line = new QCPItemStraightLine(histogram_);
    line->setPen(QPen(kMarker, 2, Qt::DashLine));
    histogram_->setMinimumSize(260, 220);

    auto* confLayout = new QVBoxLayout(confusionPage_);
    confLayout->setContentsMargins(0, 0, 0, 0);
    confLayout->addWidget(confusionNote_);
    confLayout->addWidget(confusion_, 1);
    charts_->addWidget(noChart_);
    charts_->addWidget(prPlot_);
    charts_->addWidget(confusionPage_);
    charts_->addWidget(histogram_);
}

void TrainResultsView::clear()
{
    haveRun_ = false;
    run_ = {};
    haveReport_ = false;
    report_ = {};
    threshold_ = -1;
    busy_->setVisible(false);
    metrics_->setRowCount(0);
    charts_->setCurrentWidget(noChart_);
    thresholdRow_->setVisible(false);
    readout_->clear();
    gallery_->clear();
}

void TrainResultsView::setBusy(const QString& text)
{
    busy_->setText(text);
    busy_->setVisible(!text.isEmpty());
    thresholdRow_->setEnabled(text.isEmpty());
}

void TrainResultsView::setRun(const ProjectRun& run)
{
    run_ = run;
    haveRun_ = true;
    fillMetrics();
}

void TrainResultsView::fillMetrics()
{
    metrics_->setRowCount(0);
    const EpochMetrics* m = haveRun_ ? bestEpochOf(run_) : nullptr;
    if (!m)
        return;
    const QLocale loc;
    auto add = [&](const QString& name, double v, const QString& text) {
        if (v < 0)
            return; // not meaningful for this task
        const int r = metrics_->rowCount();
        metrics_->insertRow(r);
        metrics_->setItem(r, 0, readOnlyItem(name));
        auto* value = readOnlyItem(text);
        value->setData(Qt::UserRole, v);
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        metrics_->setItem(r, 1, value);
    };
    auto num = [&](const QString& name, double v, int decimals = 4) {
        add(name, v, loc.toString(v, 'f', decimals));
    };
    auto sci = [&](const QString& name, double v) { add(name, v, loc.toString(v, 'g', 4)); };
    num(tr("Best epoch"), m->epoch + 1, 0);
    num(tr("Training loss"), m->trainLoss);
    num(tr("Validation loss"), m->valLoss);
    switch (run_.task) {
    case TaskKind::Classify:
        num(tr("Accuracy"), m->accuracy);
        num(tr("Precision"), m->precision);
        num(tr("Recall"), m->recall);
        num(tr("F1 score"), m->f1);
        break;
    case TaskKind::Segment:
        num(tr("IoU at 0.5"), m->iou);
        num(tr("F1 at 0.5"), m->segF1);
        num(tr("Precision at 0.5"), m->segPrecision);
        num(tr("Recall at 0.5"), m->segRecall);
        num(tr("Best threshold"), m->bestThreshold, 2);
        num(tr("IoU at the best threshold"), m->iouAtBest);
        num(tr("F1 at the best threshold"), m->f1AtBest);
        num(tr("Precision at the best threshold"), m->precisionAtBest);
        num(tr("Recall at the best threshold"), m->recallAtBest);
        break;
    case TaskKind::Anomaly:
        sci(tr("Mean error"), m->errorMean);
        sci(tr("Median error"), m->errorP50);
        sci(tr("95th percentile error"), m->errorP95);
        sci(tr("99th percentile error"), m->errorP99);
        sci(tr("Largest error"), m->errorMax);
        sci(tr("Anomaly threshold"), m->anomalyThreshold);
        break;
    }
    if (m->seconds > 0)
        add(tr("Epoch time"), m->seconds, tr("%1 s").arg(loc.toString(m->seconds, 'f', 1)));
    if (m->imagesPerSecond > 0)
        num(tr("Training images per second"), m->imagesPerSecond, 1);
    metrics_->resizeColumnToContents(0);
}

void TrainResultsView::setReport(const EvaluationReport& report)
{
    report_ = report;
    haveReport_ = true;
    busy_->setVisible(false);
    thresholdRow_->setEnabled(true);
    threshold_ = report.task == TaskKind::Classify ? -1 : report.threshold;
    switch (report.task) {
    case TaskKind::Segment:
        showCurve();
        break;
    case TaskKind::Classify:
        showConfusion();
        break;
    case TaskKind::Anomaly:
        showHistogram();
        break;
    }
    configureThresholdControl();
    gallery_->setReport(report);
    retranslateUi();
}

void TrainResultsView::showCurve()
{
    auto* curve = qobject_cast<QCPCurve*>(prPlot_->plottable(0));
    QVector<double> t, x, y;
    for (const PrPoint& p : report_.prCurve) {
        t.push_back(p.threshold);
        x.push_back(p.recall);
        y.push_back(p.precision);
    }
    curve->setData(t, x, y);
    charts_->setCurrentWidget(prPlot_);
}

void TrainResultsView::showConfusion()
{
    const int n = int(report_.confusion.size());
    confusion_->clear();
    confusion_->setRowCount(n);
    confusion_->setColumnCount(n);
    QStringList names;
    for (int i = 0; i < n; ++i)
        names << (i < int(report_.classes.size())
                      ? QString::fromStdString(report_.classes[size_t(i)])
                      : QString::number(i));
    confusion_->setHorizontalHeaderLabels(names);
    confusion_->setVerticalHeaderLabels(names);
    const QLocale loc;
    for (int r = 0; r < n; ++r) {
        int64_t rowSum = 0;
        for (int64_t v : report_.confusion[size_t(r)])
            rowSum += v;
        for (int c = 0; c < n && c < int(report_.confusion[size_t(r)].size()); ++c) {
            const int64_t v = report_.confusion[size_t(r)][size_t(c)];
            const double share = rowSum > 0 ? double(v) / double(rowSum) : 0.0;
            auto* it = readOnlyItem(
                QStringLiteral("%1\n%2 %")
                    .arg(loc.toString(qlonglong(v)), loc.toString(100.0 * share, 'f', 1)));
            it->setData(Qt::UserRole, qlonglong(v));
            it->setTextAlignment(Qt::AlignCenter);
            // Right answers in green, mistakes in red; stronger for a larger share of the row.
            const QColor base = r == c ? QColor(44, 160, 44) : QColor(214, 39, 40);
            QColor bg = base;
            bg.setAlphaF(float(0.12 + 0.6 * share));
            it->setBackground(bg);
            confusion_->setItem(r, c, it);
        }
    }
    confusion_->resizeColumnsToContents();
    confusion_->resizeRowsToContents();
    charts_->setCurrentWidget(confusionPage_);
}

void TrainResultsView::showHistogram()
{
    auto* bars = qobject_cast<QCPBars*>(histogram_->plottable(0));
    QVector<double> keys, values;
    const auto& e = report_.histogramEdges;
    double top = 1;
    for (size_t i = 0; i < report_.histogram.size() && i + 1 < e.size(); ++i) {
        keys.push_back(0.5 * (e[i] + e[i + 1]));
        values.push_back(double(report_.histogram[i]));
        top = std::max(top, values.back());
    }
    bars->setData(keys, values, true);
    if (e.size() >= 2) {
        bars->setWidth(e[1] - e[0]);
        histogram_->xAxis->setRange(e.front(), e.back());
    }
    histogram_->yAxis->setRange(0, top * 1.1);
    charts_->setCurrentWidget(histogram_);
}

double TrainResultsView::sliderToThreshold(int v) const
{
    return lo_ + (hi_ - lo_) * double(v) / double(std::max(1, slider_->maximum()));
}

int TrainResultsView::thresholdToSlider(double t) const
{
    const double f = hi_ > lo_ ? (t - lo_) / (hi_ - lo_) : 0.0;
    return int(std::lround(std::clamp(f, 0.0, 1.0) * slider_->maximum()));
}

void TrainResultsView::configureThresholdControl()
{
    const bool movable = report_.task != TaskKind::Classify;
    thresholdRow_->setVisible(movable);
    if (!movable)
        return;
    updating_ = true;
    if (report_.task == TaskKind::Segment) {
        lo_ = 0;
        hi_ = 1;
        slider_->setRange(0, 100);
        spin_->setDecimals(2);
        spin_->setSingleStep(0.01);
    } else {
        const auto& e = report_.histogramEdges;
        lo_ = e.empty() ? 0 : std::min(e.front(), threshold_);
        hi_ = e.empty() ? std::max(1.0, threshold_) : std::max(e.back(), threshold_);
        if (!(hi_ > lo_))
            hi_ = lo_ + 1e-9;
        slider_->setRange(0, 1000);
        const int digits = std::clamp(3 - int(std::floor(std::log10(hi_ - lo_))), 2, 10);
        spin_->setDecimals(digits);
        spin_->setSingleStep((hi_ - lo_) / 100.0);
    }
    spin_->setRange(lo_, hi_);
    updating_ = false;
    updateThresholdMarks();
}

PrPoint TrainResultsView::pointAt(double t) const
{
    const auto& c = report_.prCurve;
    if (c.empty())
        return {};
    if (t <= c.front().threshold)
        return c.front();
    for (size_t i = 1; i < c.size(); ++i) {
        if (t > c[i].threshold)
            continue;
        const PrPoint& a = c[i - 1];
        const PrPoint& b = c[i];
        const double f = (t - a.threshold) / std::max(1e-12, b.threshold - a.threshold);
        auto lerp = [f](double u, double v) { return u + (v - u) * f; };
        PrPoint p;
        p.threshold = t;
        p.precision = lerp(a.precision, b.precision);
        p.recall = lerp(a.recall, b.recall);
        p.f1 = lerp(a.f1, b.f1);
        p.iou = lerp(a.iou, b.iou);
        return p;
    }
    return c.back();
}

void TrainResultsView::setThreshold(double threshold)
{
    if (!haveReport_ || report_.task == TaskKind::Classify)
        return;
    threshold_ = std::clamp(threshold, lo_, hi_);
    updateThresholdMarks();
    gallery_->setThreshold(threshold_);
}

void TrainResultsView::userMovedThreshold(double threshold, bool final)
{
    if (!haveReport_ || report_.task == TaskKind::Classify)
        return;
    threshold_ = std::clamp(threshold, lo_, hi_);
    updateThresholdMarks();
    if (!final)
        return;
    gallery_->setThreshold(threshold_);
    Q_EMIT thresholdChosen(threshold_);
}

void TrainResultsView::updateThresholdMarks()
{
    if (!haveReport_ || report_.task == TaskKind::Classify) {
        readout_->clear();
        return;
    }
    updating_ = true;
    spin_->setValue(threshold_);
    if (!slider_->isSliderDown())
        slider_->setValue(thresholdToSlider(threshold_));
    updating_ = false;
    const QLocale loc;
    if (report_.task == TaskKind::Segment) {
        const PrPoint p = pointAt(threshold_);
        prPlot_->graph(0)->setData(QVector<double>{p.recall}, QVector<double>{p.precision});
        readout_->setText(tr("At %1: precision %2, recall %3, F1 %4, IoU %5")
                              .arg(loc.toString(threshold_, 'f', 2),
                                   loc.toString(p.precision, 'f', 3),
                                   loc.toString(p.recall, 'f', 3), loc.toString(p.f1, 'f', 3),
                                   loc.toString(p.iou, 'f', 3)));
        prPlot_->replot();
    } else {
        auto* line = qobject_cast<QCPItemStraightLine*>(histogram_->item(0));
        line->point1->setCoords(threshold_, 0);
        line->point2->setCoords(threshold_, 1);
        const int above = int(std::count_if(report_.errors.begin(), report_.errors.end(),
                                            [this](double e) { return e > threshold_; }));
        readout_->setText(tr("%n of the validation images lie above the threshold.", "", above));
        histogram_->replot();
    }
}

void TrainResultsView::retranslateUi()
{
    metricsTitle_->setText(tr("Best epoch"));
    metrics_->setHorizontalHeaderLabels({tr("Metric"), tr("Value")});
    galleryTitle_->setText(tr("Validation samples: best and worst predictions"));
    noChart_->setText(tr("The evaluation of the model appears here when training ends."));
    confusionNote_->setText(tr("Rows: true class. Columns: predicted class."));
    thresholdLabel_->setText(tr("Threshold"));
    slider_->setToolTip(tr("Move the threshold; the model keeps the one you choose"));
    spin_->setToolTip(slider_->toolTip());
    prPlot_->xAxis->setLabel(tr("Recall"));
    prPlot_->yAxis->setLabel(tr("Precision"));
    prPlot_->plottable(0)->setName(tr("Precision-recall curve"));
    prPlot_->graph(0)->setName(tr("Chosen threshold"));
    histogram_->xAxis->setLabel(tr("Reconstruction error"));
    histogram_->yAxis->setLabel(tr("Images"));
    switch (haveReport_ ? int(report_.task) : -1) {
    case int(TaskKind::Segment):
        chartTitle_->setText(tr("Precision and recall of crack pixels over thresholds"));
        break;
    case int(TaskKind::Classify):
        chartTitle_->setText(tr("Confusion matrix"));
        break;
    case int(TaskKind::Anomaly):
        chartTitle_->setText(tr("Reconstruction errors of the validation images"));
        break;
    default:
        chartTitle_->setText(tr("Evaluation"));
    }
    if (haveReport_)
        updateThresholdMarks();
    fillMetrics();
    prPlot_->replot();
    histogram_->replot();
}

void TrainResultsView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

} // namespace fisura::ui
