#include "data/labelstatusmodel.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFileInfo>

namespace fisura::ui
{

void LabelStatusModel::setEntries(std::vector<LabelStatusEntry> entries)
{
    beginResetModel();
    entries_ = std::move(entries);
    rebuildRows();
    endResetModel();
}

void LabelStatusModel::setFilter(std::optional<LabelState> state)
{
    if (state == filter_)
        return;
    beginResetModel();
    filter_ = state;
    rebuildRows();
    endResetModel();
}

void LabelStatusModel::rebuildRows()
{
    rows_.clear();
    for (size_t i = 0; i < entries_.size(); ++i)
        if (!filter_ || entries_[i].state == *filter_)
            rows_.push_back(int(i));
}

QStringList LabelStatusModel::images(LabelState state) const
{
    QStringList out;
    for (const LabelStatusEntry& e : entries_)
        if (e.state == state)
            out << QString::fromStdString(e.image);
    return out;
}

int LabelStatusModel::count(LabelState state) const
{
    int n = 0;
    for (const LabelStatusEntry& e : entries_)
        n += e.state == state;
    return n;
}

QString LabelStatusModel::imageAt(int row) const
{
    if (row < 0 || row >= int(rows_.size()))
        return {};
    return QString::fromStdString(entries_[size_t(rows_[size_t(row)])].image);
}

int LabelStatusModel::rowOf(const QString& image) const
{
    const std::string path = image.toStdString();
    for (size_t r = 0; r < rows_.size(); ++r)
        if (entries_[size_t(rows_[r])].image == path)
            return int(r);
    return -1;
}

QString LabelStatusModel::stateText(LabelState state)
{
    switch (state) {
    case LabelState::Labelled:
        return tr("Labelled");
    case LabelState::Proposed:
        return tr("Proposed");
    case LabelState::Unlabelled:
        break;
    }
    return tr("Unlabelled");
}

int LabelStatusModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int LabelStatusModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LabelStatusModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()))
        return {};
    const LabelStatusEntry& e = entries_[size_t(rows_[size_t(index.row())])];
    const QString path = QString::fromStdString(e.image);
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == ImageColumn ? QFileInfo(path).fileName() : stateText(e.state);
    case Qt::ToolTipRole:
        if (index.column() == StateColumn && e.state != LabelState::Unlabelled)
            return QDir::toNativeSeparators(
                QString::fromStdString(e.state == LabelState::Labelled ? e.mask : e.proposal));
        return QDir::toNativeSeparators(path);
    case Qt::ForegroundRole:
        if (index.column() != StateColumn)
            return {};
        // A badge colour per state (green done, amber to review, grey to do).
        if (e.state == LabelState::Labelled)
            return QBrush(QColor(0x2e, 0x7d, 0x32));
        if (e.state == LabelState::Proposed)
            return QBrush(QColor(0xb2, 0x6a, 0x00));
        return QBrush(QColor(0x75, 0x75, 0x75));
    case PathRole:
        return path;
    case StateRole:
        return int(e.state);
    default:
        return {};
    }
}

QVariant LabelStatusModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == ImageColumn ? tr("Image") : tr("Label");
}

void LabelStatusModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.empty())
        Q_EMIT dataChanged(index(0, StateColumn), index(int(rows_.size()) - 1, StateColumn));
}

} // namespace fisura::ui
