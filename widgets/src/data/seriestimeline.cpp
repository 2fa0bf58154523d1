#include "data/seriestimeline.h"

#include <QDate>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "common/plotlocale.h"
#include "common/qcp.h"

namespace fisura::ui
{

namespace
{

double keyOf(const std::string& isoDate)
{
    return QCPAxisTickerDateTime::dateTimeToKey(
        QDate::fromString(QString::fromStdString(isoDate), Qt::ISODate));
}

/// The value plot k shows for a point: mm when the pixel size is known, else px.
double valueOf(const SeriesPoint& p, int k, bool mm)
{
    switch (k) {
    case 0:
        return mm ? p.lengthMm : p.lengthPx;
    case 1:
        return mm ? p.areaMm2 : double(p.areaPx);
    default:
        return mm ? p.widestMm : p.widestPx;
    }
}

} // namespace

SeriesTimeline::SeriesTimeline(QWidget* parent)
    : QWidget(parent), runner_(new JobRunner(this)), title_(new QLabel(this)),
      message_(new QLabel(this)), progress_(new QProgressBar(this)), cancel_(new QPushButton(this)),
      table_(new QTableWidget(this))
{
    setObjectName(QStringLiteral("seriesTimeline"));
    title_->setObjectName(QStringLiteral("seriesTitle"));
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    message_->setWordWrap(true);
    progress_->setRange(0, 1000);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    auto* busy = new QHBoxLayout;
    busy->addWidget(progress_, 1);
    busy->addWidget(cancel_);
    layout->addLayout(busy);
    layout->addWidget(message_);
    const QColor colours[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                              QColor(0xD5, 0x5E, 0x00)};
    for (int k = 0; k < 3; ++k) {
        auto* p = new QCustomPlot(this);
        p->setObjectName(QStringLiteral("seriesPlot%1").arg(k));
        p->setMinimumSize(320, 150);
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        p->xAxis->setTicker(ticker);
        QCPGraph* g = p->addGraph();
        g->setPen(QPen(colours[k], 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colours[k], Qt::white, 7));
        followUiLocale(p);
        plots_[size_t(k)] = p;
        layout->addWidget(p, 1);
    }
    table_->setObjectName(QStringLiteral("seriesTable"));
    table_->setColumnCount(5);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMaximumHeight(160);
    layout->addWidget(table_);
    connect(cancel_, &QPushButton::clicked, this, &SeriesTimeline::cancel);
    connect(runner_, &JobRunner::progress, this,
            [this](double f, const QString&, double) { progress_->setValue(int(f * 1000)); });
    progress_->hide();
    cancel_->hide();
    retranslateUi();
}

SeriesTimeline::~SeriesTimeline()
{
    runner_->cancel();
}

Status SeriesTimeline::measure(const Project& project, const QString& structure)
{
    if (runner_->isRunning())
        return Status(ErrorCode::InvalidArgument, "a timeline is being measured");
    structure_ = structure;
    series_.reset();
    auto copy = std::make_shared<const Project>(project);
    const std::string name = structure.toStdString();
    runner_->start<Series>(
        [copy, name](const CancelToken& cancel, ProgressSink* sink) {
            return measureSeries(*copy, name, {}, cancel, sink);
        },
        [this](Result<Series> r) { onFinished(std::move(r)); });
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    message_->setText(tr("Measuring the crack maps of %1…").arg(structure));
    retranslateUi();
    return Status::ok();
}

void SeriesTimeline::cancel()
{
    runner_->cancel();
}

bool SeriesTimeline::isRunning() const
{
    return runner_->isRunning();
}

QString SeriesTimeline::message() const
{
    return message_->text();
}

void SeriesTimeline::onFinished(Result<Series> r)
{
    progress_->hide();
    cancel_->hide();
    if (!r) {
        message_->setText(
            r.status().code() == ErrorCode::Cancelled ? tr("Cancelled.")
            : r.status().code() == ErrorCode::InvalidArgument
                ? tr("No scan of %1 has both a date and a crack map: give the "
                     "scans their dates (right-click a scan).")
                      .arg(structure_)
                : tr("The timeline could not be measured: %1").arg(errorMessage(r.status())));
        Q_EMIT measured(r.status());
        return;
    }
    series_ = std::move(*r);
    showSeries();
    Q_EMIT measured(Status::ok());
}

void SeriesTimeline::showSeries()
{
    retranslateUi();
    if (!series_)
        return;
    const bool mm = !series_->points.empty() && series_->points.front().lengthMm >= 0;
    for (int k = 0; k < 3; ++k) {
        QCustomPlot* p = plots_[size_t(k)];
        QVector<double> x, y;
        for (const SeriesPoint& pt : series_->points) {
            x << keyOf(pt.inspectedOn);
            y << valueOf(pt, k, mm);
        }
        p->graph(0)->setData(x, y, true);
        const double day = 86400;
        const double lo = x.isEmpty() ? 0 : x.front(), hi = x.isEmpty() ? 1 : x.back();
        p->xAxis->setRange(lo - 30 * day, hi + 30 * day);
        const double top = y.isEmpty() ? 1 : *std::max_element(y.begin(), y.end());
        p->yAxis->setRange(0, std::max(top * 1.15, 1e-3));
        p->replot();
    }
    fillTable();
    const QLocale l;
    message_->setText(series_->skipped.empty()
                          ? tr("%n date(s).", nullptr, int(series_->points.size()))
                          : tr("%n date(s); %1 left out (no date or no map).", nullptr,
                               int(series_->points.size()))
                                .arg(l.toString(qint64(series_->skipped.size()))));
}

void SeriesTimeline::fillTable()
{
    const QLocale l;
    table_->setRowCount(series_ ? int(series_->points.size()) : 0);
    if (!series_)
        return;
    const bool mm = !series_->points.empty() && series_->points.front().lengthMm >= 0;
    for (int r = 0; r < int(series_->points.size()); ++r) {
        const SeriesPoint& p = series_->points[size_t(r)];
        const QDate d = QDate::fromString(QString::fromStdString(p.inspectedOn), Qt::ISODate);
        const QString cells[] = {l.toString(d, QLocale::ShortFormat), l.toString(p.cracks),
                                 l.toString(valueOf(p, 0, mm), 'f', 1),
                                 l.toString(valueOf(p, 1, mm), 'f', 1),
                                 l.toString(valueOf(p, 2, mm), 'f', 2)};
        for (int c = 0; c < 5; ++c) {
            auto* it = new QTableWidgetItem(cells[c]);
            it->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                        : Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, it);
        }
    }
}

void SeriesTimeline::retranslateUi()
{
    title_->setText(tr("Timeline of %1").arg(structure_));
    cancel_->setText(tr("Cancel"));
    const bool mm = !series_ || series_->points.empty() || series_->points.front().lengthMm >= 0;
    const QString unit = mm ? tr("mm") : tr("px");
    const QString area = mm ? tr("mm²") : tr("px");
    const QString titles[] = {tr("Total length (%1)").arg(unit),
                              tr("Cracked area (%1)").arg(area), tr("Widest crack (%1)").arg(unit)};
    for (int k = 0; k < 3; ++k) {
        plots_[size_t(k)]->yAxis->setLabel(titles[k]);
        plots_[size_t(k)]->xAxis->setLabel(tr("Inspection date"));
        auto ticker = plots_[size_t(k)]->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>();
        if (ticker)
            ticker->setDateTimeFormat(QLocale().dateFormat(QLocale::ShortFormat));
        plots_[size_t(k)]->replot();
    }
    table_->setHorizontalHeaderLabels({tr("Date"), tr("Cracks"), titles[0], titles[1], titles[2]});
    if (series_)
        fillTable();
}

void SeriesTimeline::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

} // namespace fisura::ui
