#include "analyze/analyzequeue.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionProgressBar>

#include <algorithm>
#include <cmath>

#include "analyze/pacetext.h"
#include "common/errortext.h"
#include "common/imageprobe.h"
#include "fisura/tiledimage.h"

namespace fisura::ui
{

namespace
{

struct StateName {
    QueueRowState state;
    const char* name;
};
constexpr StateName kStates[] = {{QueueRowState::Waiting, "waiting"},
                                 {QueueRowState::Running, "running"},
                                 {QueueRowState::Done, "done"},
                                 {QueueRowState::Failed, "failed"},
                                 {QueueRowState::Cancelled, "cancelled"}};

} // namespace

QString queueRowStateName(QueueRowState s)
{
    for (const StateName& n : kStates)
        if (n.state == s)
            return QString::fromLatin1(n.name);
    return {};
}

bool parseQueueRowState(const QString& text, QueueRowState& out)
{
    for (const StateName& n : kStates)
        if (text == QLatin1String(n.name)) {
            out = n.state;
            return true;
        }
    return false;
}

bool probeScan(const QString& path, int& width, int& height, double& pixelSizeMm)
{
    width = height = 0;
    pixelSizeMm = 0.0;
    const auto info = probeImageFile(path);
    if (!info)
        return false;
    width = info->width;
    height = info->height;
    pixelSizeMm = info->pixelSizeXmm;
    return true;
}

AnalyzeQueueModel::AnalyzeQueueModel(QObject* parent) : QAbstractTableModel(parent) {}

int AnalyzeQueueModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int AnalyzeQueueModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AnalyzeQueueModel::stateText(const ScanRow& r) const
{
    switch (r.state) {
    case QueueRowState::Waiting:
        return tr("Waiting");
    case QueueRowState::Running:
        return r.preparing ? tr("Preparing the model") : tr("Running");
    case QueueRowState::Done:
        return tr("Done");
    case QueueRowState::Failed:
        return tr("Failed");
    case QueueRowState::Cancelled:
        return tr("Cancelled");
    }
    return {};
}

QString AnalyzeQueueModel::progressText(const ScanRow& r) const
{
    const QLocale loc;
    if (r.state == QueueRowState::Done)
        return tr("%1 s · %2 MP/s")
            .arg(loc.toString(r.seconds, 'f', 1), loc.toString(r.megapixelsPerSecond, 'f', 1));
    if (r.state != QueueRowState::Running || r.preparing)
        return {};
    QStringList parts{loc.toString(int(std::lround(r.fraction * 100))) + QStringLiteral(" %")};
    if (r.megapixelsPerSecond > 0)
        parts << tr("%1 MP/s").arg(loc.toString(r.megapixelsPerSecond, 'f', 1));
    if (const QString eta = formatEta(r.etaSeconds); !eta.isEmpty())
        parts << eta;
    return parts.join(QStringLiteral(" · "));
}

QString AnalyzeQueueModel::finishedTip(const ScanRow& r) const
{
    const QJsonObject stats = QJsonDocument::fromJson(r.statsJson.toUtf8()).object();
    const QString limit = stats.value(QStringLiteral("limited_by")).toString();
    QString why;
    if (limit == QLatin1String("input"))
        why = tr("Reading and decoding the scan set the pace: a scan stored with a faster "
                 "compression, or on a faster disk, would be analysed sooner.");
    else if (limit == QLatin1String("writer"))
        why = tr("Compressing and writing the map set the pace.");
    else if (limit == QLatin1String("device"))
        why = tr("The network on the device set the pace.");
    QStringList lines{progressText(r)};
    if (!why.isEmpty())
        lines << why;
    // The map's adaptive Zstd level: how many bands were lowered, and what it cost.
    const QJsonObject writer = stats.value(QStringLiteral("writer")).toObject();
    const int lowered = writer.value(QStringLiteral("bands_below_level")).toInt();
    if (lowered > 0) {
        const QLocale loc;
        lines << tr("To keep up, %1 of the map's %2 bands were compressed at a faster Zstd level "
                    "(down to %3).\nThe map is about %4 % larger for it.")
                     .arg(
                         loc.toString(lowered),
                         loc.toString(writer.value(QStringLiteral("bands")).toInt()),
                         loc.toString(writer.value(QStringLiteral("lowest_level")).toInt()),
                         loc.toString(
                             100.0 *
                                 writer.value(QStringLiteral("estimated_size_increase")).toDouble(),
                             'f', 0));
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant AnalyzeQueueModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rows_.size())
        return {};
    const ScanRow& r = rows_.at(index.row());
    if (role == IdRole)
        return r.id;
    if (role == StateRole)
        return int(r.state);
    if (role == ProgressRole && index.column() == ProgressColumn) {
        if (r.state == QueueRowState::Done)
            return 1.0;
        return r.state == QueueRowState::Running && !r.preparing ? r.fraction : -1.0;
    }
    const QLocale loc;
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ScanColumn:
            return QDir::toNativeSeparators(r.input);
        case MapColumn:
            return QDir::toNativeSeparators(r.output);
        case ProgressColumn: { // the column shrinks on a small window; its text may elide
            QString text = r.state == QueueRowState::Done ? finishedTip(r) : progressText(r);
            if (r.state == QueueRowState::Running && r.hasPace) // said before the first tile
                text +=
                    (text.isEmpty() ? QString() : QStringLiteral("\n")) + paceForecastText(r.pace);
            return text.isEmpty() ? QVariant() : QVariant(text);
        }
        case StateColumn:
        case ErrorColumn: {
            const QString error = errorText(r);
            return error.isEmpty() ? QVariant() : QVariant(error);
        }
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case ScanColumn:
        return QFileInfo(r.input).fileName();
    case SizeColumn:
        return r.width > 0 ? tr("%1 × %2 px").arg(loc.toString(r.width), loc.toString(r.height))
                           : QStringLiteral("—");
    case PixelColumn:
        return r.pixelSizeMm > 0 ? tr("%1 mm").arg(loc.toString(r.pixelSizeMm, 'g', 3))
                                 : QStringLiteral("—");
    case StateColumn:
        return stateText(r);
    case ProgressColumn:
        return progressText(r);
    case MapColumn: // planned, being written or written; none for a failed or cancelled scan
        return r.state == QueueRowState::Failed || r.state == QueueRowState::Cancelled
                   ? QStringLiteral("—")
                   : QFileInfo(r.output).fileName();
    case ErrorColumn:
        return errorText(r);
    default:
        return {};
    }
}

QString AnalyzeQueueModel::errorText(const ScanRow& r)
{
    return r.failure.isOk() ? r.error : errorMessage(r.failure);
}

QVariant AnalyzeQueueModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ScanColumn:
        return tr("Scan");
    case SizeColumn:
        return tr("Size");
    case PixelColumn:
        return tr("Pixel size");
    case StateColumn:
        return tr("State");
    case ProgressColumn:
        return tr("Progress");
    case MapColumn:
        return tr("Map");
    case ErrorColumn:
        return tr("Error");
    default:
        return {};
    }
}

int AnalyzeQueueModel::indexOf(const QString& id) const
{
    for (int i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == id)
            return i;
    return -1;
}

const ScanRow* AnalyzeQueueModel::find(const QString& id) const
{
    const int i = indexOf(id);
    return i < 0 ? nullptr : &rows_[i];
}

QString AnalyzeQueueModel::append(ScanRow row)
{
    if (row.id.isEmpty() || indexOf(row.id) >= 0)
        row.id = QStringLiteral("scan-%1").arg(nextId_++);
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    rows_.push_back(std::move(row));
    endInsertRows();
    return rows_.back().id;
}

void AnalyzeQueueModel::update(const QString& id, const std::function<void(ScanRow&)>& edit)
{
    const int i = indexOf(id);
    if (i < 0)
        return;
    edit(rows_[i]);
    Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
}

void AnalyzeQueueModel::remove(const QStringList& ids)
{
    for (const QString& id : ids) {
        const int i = indexOf(id);
        if (i < 0 || rows_[i].state == QueueRowState::Running)
            continue;
        beginRemoveRows({}, i, i);
        rows_.removeAt(i);
        endRemoveRows();
    }
}

int AnalyzeQueueModel::firstWaiting() const
{
    for (int i = 0; i < rows_.size(); ++i)
        if (rows_[i].state == QueueRowState::Waiting)
            return i;
    return -1;
}

int AnalyzeQueueModel::count(QueueRowState state) const
{
    return int(std::count_if(rows_.begin(), rows_.end(),
                             [state](const ScanRow& r) { return r.state == state; }));
}

QJsonObject AnalyzeQueueModel::toJson() const
{
    QJsonArray rows;
    for (const ScanRow& r : rows_) {
        QJsonObject o{{QStringLiteral("id"), r.id},
                      {QStringLiteral("input"), r.input},
                      {QStringLiteral("output"), r.output},
                      {QStringLiteral("width"), r.width},
                      {QStringLiteral("height"), r.height},
                      {QStringLiteral("pixel_size_mm"), r.pixelSizeMm},
                      {QStringLiteral("state"), queueRowStateName(r.state)},
                      {QStringLiteral("model"), r.modelPath},
                      {QStringLiteral("run"), r.runId},
                      {QStringLiteral("threshold"), r.threshold},
                      {QStringLiteral("seconds"), r.seconds},
                      {QStringLiteral("megapixels_per_second"), r.megapixelsPerSecond},
                      {QStringLiteral("error"), r.error}};
        rows.append(o);
    }
    return {{QStringLiteral("format"), QStringLiteral("fisura-analyze-queue")},
            {QStringLiteral("version"), 1},
            {QStringLiteral("rows"), rows}};
}

int AnalyzeQueueModel::fromFile(const QueueFile& file)
{
    beginResetModel();
    rows_.clear();
    int waiting = 0;
    for (const QueueFileRow& f : file.rows) {
        ScanRow r;
        r.id = f.id;
        r.input = f.input;
        r.output = f.output;
        r.width = f.width;
        r.height = f.height;
        r.pixelSizeMm = f.pixelSizeMm;
        if (!parseQueueRowState(f.state, r.state))
            r.state = QueueRowState::Waiting;
        if (r.state == QueueRowState::Running) // the application stopped during this scan
            r.state = QueueRowState::Waiting;
        r.modelPath = f.model;
        r.runId = f.run;
        r.threshold = f.threshold;
        r.seconds = f.seconds;
        r.megapixelsPerSecond = f.megapixelsPerSecond;
        r.error = f.error;
        if (r.state == QueueRowState::Done)
            r.fraction = 1.0;
        waiting += r.state == QueueRowState::Waiting;
        if (r.id.isEmpty() || indexOf(r.id) >= 0)
            r.id = QStringLiteral("scan-%1").arg(nextId_++);
        rows_.push_back(std::move(r));
    }
    // Fresh ids never collide with restored ones.
    for (const ScanRow& r : rows_)
        if (const int n = queueIdNumber(r.id); n >= 0)
            nextId_ = std::max(nextId_, n + 1);
    endResetModel();
    return waiting;
}

void AnalyzeQueueModel::clear()
{
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void AnalyzeQueueModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
}

void ScanProgressDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const
{
    const double fraction = index.data(AnalyzeQueueModel::ProgressRole).toDouble();
    if (fraction < 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionProgressBar bar;
    bar.rect = option.rect.adjusted(2, 2, -2, -2);
    bar.minimum = 0;
    bar.maximum = 1000;
    bar.progress = int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000));
    // A narrow column elides the text rather than cutting it (the tool tip has all of it).
    bar.text = option.fontMetrics.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight,
                                             bar.rect.width() - 8);
    bar.textVisible = true;
    bar.state = option.state | QStyle::State_Horizontal;
    const QWidget* w = option.widget;
    QStyle* style = w ? w->style() : QApplication::style();
    style->drawControl(QStyle::CE_ProgressBar, &bar, painter, w);
}

ScanQueueView::ScanQueueView(AnalyzeQueueModel* model, QWidget* parent) : QTableView(parent)
{
    setModel(model);
    setItemDelegateForColumn(AnalyzeQueueModel::ProgressColumn, new ScanProgressDelegate(this));
    setTextElideMode(Qt::ElideMiddle); // a path keeps its start and its file name's end
    setWordWrap(false);
    QHeaderView* h = horizontalHeader();
    h->setMinimumSectionSize(48);
    // The error column only while a scan has failed: otherwise its width goes to the paths.
    auto showErrors = [this, model] {
        const bool hide = model->count(QueueRowState::Failed) == 0;
        if (isColumnHidden(AnalyzeQueueModel::ErrorColumn) != hide) {
            setColumnHidden(AnalyzeQueueModel::ErrorColumn, hide);
            updateGeometry();
        }
    };
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, showErrors);
    connect(model, &QAbstractItemModel::modelReset, this, showErrors);
    connect(model, &QAbstractItemModel::dataChanged, this, showErrors);
    showErrors();
    for (int c = 0; c < AnalyzeQueueModel::ColumnCount; ++c)
        h->setSectionResizeMode(c, QHeaderView::Stretch);
    for (int c : {AnalyzeQueueModel::SizeColumn, AnalyzeQueueModel::PixelColumn,
                  AnalyzeQueueModel::StateColumn})
        h->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // Longer values (a language switch, a larger scan) widen what the table asks for.
    connect(h, &QHeaderView::sectionResized, this, [this](int column) {
        if (horizontalHeader()->sectionResizeMode(column) == QHeaderView::ResizeToContents)
            updateGeometry();
    });
}

QSize ScanQueueView::minimumSizeHint() const
{
    const QHeaderView* h = horizontalHeader();
    int w = 2 * frameWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    // A path or a progress text shows at least a few characters at each end.
    const int shared = std::max(h->minimumSectionSize(), fontMetrics().averageCharWidth() * 11);
    for (int c = 0; c < h->count(); ++c)
        if (!h->isSectionHidden(c))
            w += h->sectionResizeMode(c) == QHeaderView::ResizeToContents ? h->sectionSize(c)
                                                                          : shared;
    return {w, QTableView::minimumSizeHint().height()};
}

} // namespace fisura::ui
