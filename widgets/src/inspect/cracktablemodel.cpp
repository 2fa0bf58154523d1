#include "inspect/cracktablemodel.h"

#include <QColor>
#include <QLocale>

#include "inspect/measuretext.h"

namespace fisura::ui
{

CrackTableModel::CrackTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CrackTableModel::setResult(std::shared_ptr<const MeasureResult> result)
{
    beginResetModel();
    result_ = std::move(result);
    highlighted_ = -1;
    endResetModel();
}

int CrackTableModel::rowOfCrack(int crackId) const
{
    if (!result_)
        return -1;
    // Cracks are numbered 1..n in order.
    const int row = crackId - 1;
    if (row >= 0 && row < int(result_->cracks.size()) && result_->cracks[size_t(row)].id == crackId)
        return row;
    for (size_t i = 0; i < result_->cracks.size(); ++i)
        if (result_->cracks[i].id == crackId)
            return int(i);
    return -1;
}

void CrackTableModel::setHighlighted(int crackId)
{
    const int before = rowOfCrack(highlighted_);
    highlighted_ = crackId;
    const int after = rowOfCrack(crackId);
    for (int row : {before, after})
        if (row >= 0)
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1), {Qt::BackgroundRole});
}

void CrackTableModel::retranslate()
{
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int CrackTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !result_ ? 0 : int(result_->cracks.size());
}

int CrackTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CrackTableModel::display(const Crack& c, int column) const
{
    const QLocale l;
    switch (column) {
    case Id:
        return c.id;
    case Class:
        return MeasureText::className(result_->options.classes, c.widthClass);
    case Length:
        return l.toString(hasMm() ? c.lengthMm : c.lengthPx, 'f', 1);
    case MedianWidth:
        return hasMm() ? l.toString(c.width.medianMm, 'f', 2)
                       : l.toString(c.width.medianPx, 'f', 1);
    case MaxWidth:
        return hasMm() ? l.toString(c.width.maxMm, 'f', 2) : l.toString(c.width.maxPx, 'f', 1);
    case Branches:
        return c.branches;
    case Area:
        return hasMm() ? l.toString(c.areaMm2, 'f', 1) : l.toString(qulonglong(c.areaPx));
    case Orientation:
        return l.toString(c.orientationDeg, 'f', 0);
    case Position:
        return QStringLiteral("%1, %2").arg(l.toString(c.box.x), l.toString(c.box.y));
    case OverLimit:
        return hasLimit() && c.exceedsLimit ? tr("⚠ Over limit") : QString();
    default:
        return {};
    }
}

QVariant CrackTableModel::sortValue(const Crack& c, int column) const
{
    switch (column) {
    case Id:
        return c.id;
    case Class:
        return c.widthClass;
    case Length:
        return hasMm() ? c.lengthMm : c.lengthPx;
    case MedianWidth:
        return hasMm() ? c.width.medianMm : c.width.medianPx;
    case MaxWidth:
        return hasMm() ? c.width.maxMm : c.width.maxPx;
    case Branches:
        return c.branches;
    case Area:
        return hasMm() ? c.areaMm2 : double(c.areaPx);
    case Orientation:
        return c.orientationDeg;
    case Position:
        return qint64(c.box.y) * 1000000 + c.box.x;
    case OverLimit:
        return int(hasLimit() && c.exceedsLimit);
    default:
        return {};
    }
}

QVariant CrackTableModel::data(const QModelIndex& index, int role) const
{
    if (!result_ || !index.isValid() || index.row() >= rowCount())
        return {};
    const Crack& c = result_->cracks[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(c, index.column());
    case SortRole:
        return sortValue(c, index.column());
    case IndexRole:
        return index.row();
    case Qt::TextAlignmentRole:
        return index.column() == Class || index.column() == OverLimit
                   ? int(Qt::AlignLeft | Qt::AlignVCenter)
                   : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        if (c.id == highlighted_)
            return QColor(255, 220, 90, 140);
        if (index.column() == OverLimit && hasLimit() && c.exceedsLimit)
            return QColor(0xD5, 0x5E, 0x00, 70); // the over-limit class colour, light
        return {};
    case Qt::DecorationRole:
        if (index.column() == Class && c.widthClass >= 0)
            return MeasureText::classColour(result_->options.classes, c.widthClass);
        return {};
    default:
        return {};
    }
}

QVariant CrackTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    const QString unit = hasMm() ? tr("mm") : tr("px");
    switch (section) {
    case Id:
        return tr("No.");
    case Class:
        return tr("Class");
    case Length:
        return tr("Length (%1)").arg(unit);
    case MedianWidth:
        return tr("Width (%1)").arg(unit);
    case MaxWidth:
        return tr("Max. width (%1)").arg(unit);
    case Branches:
        return tr("Branches");
    case Area:
        return hasMm() ? tr("Area (mm²)") : tr("Area (px)");
    case Orientation:
        return tr("Angle (°)");
    case Position:
        return tr("Position (px)");
    case OverLimit:
        return tr("Over limit");
    default:
        return {};
    }
}

CrackFilterModel::CrackFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(CrackTableModel::SortRole);
}

void CrackFilterModel::setWidthClass(int k)
{
    class_ = k;
    invalidateFilter();
}

void CrackFilterModel::setMinLength(double v)
{
    minLength_ = v;
    invalidateFilter();
}

void CrackFilterModel::setMinWidth(double v)
{
    minWidth_ = v;
    invalidateFilter();
}

bool CrackFilterModel::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const auto* m = sourceModel();
    const auto value = [&](int column) {
        return m->index(row, column, parent).data(CrackTableModel::SortRole).toDouble();
    };
    if (class_ >= 0 && int(value(CrackTableModel::Class)) != class_)
        return false;
    if (minLength_ > 0 && value(CrackTableModel::Length) < minLength_)
        return false;
    if (minWidth_ > 0 && value(CrackTableModel::MedianWidth) < minWidth_)
        return false;
    return true;
}

} // namespace fisura::ui
