#include "inspect/compare/changetable.h"

#include <QEvent>
#include <QHeaderView>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "inspect/compare/changetext.h"
#include "inspect/measuretext.h"

namespace fisura::ui
{

void ChangeTableModel::setResult(std::shared_ptr<const ChangeResult> result)
{
    beginResetModel();
    result_ = std::move(result);
    endResetModel();
}

void ChangeTableModel::retranslate()
{
    beginResetModel();
    endResetModel();
}

int ChangeTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !result_ ? 0 : int(result_->changes.size());
}

int ChangeTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double ChangeTableModel::mm(double px) const
{
    const double pixel = result_ ? result_->before.pixelSizeMm : 0;
    return pixel > 0 ? px * pixel : -1;
}

QVariant ChangeTableModel::display(const CrackChange& c, int row, int column) const
{
    const QLocale l;
    switch (column) {
    case Index:
        return l.toString(row + 1);
    case Kind:
        return ChangeText::kindName(c.kind);
    case Length: {
        const bool before = c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside;
        const double px = before ? c.beforeLengthPx : c.afterLengthPx;
        return MeasureText::length(px, mm(px));
    }
    case LengthGain: // in one unit for every row: from the pixel size the maps were measured with
        return ChangeText::signedLength(c.lengthGainPx, result_->before.pixelSizeMm);
    case WidthChange:
        return ChangeText::signedLength(c.widthChangePx, result_->before.pixelSizeMm, 2);
    case WidthClass:
        return MeasureText::className(result_->before.options.classes, c.widthClass);
    }
    return {};
}

QVariant ChangeTableModel::sortValue(const CrackChange& c, int row, int column) const
{
    switch (column) {
    case Index:
        return row;
    case Kind:
        return int(c.kind);
    case Length:
        return std::max(c.afterLengthPx, c.beforeLengthPx);
    case LengthGain:
        return c.lengthGainPx;
    case WidthChange:
        return c.widthChangePx;
    case WidthClass:
        return c.widthClass;
    }
    return {};
}

QVariant ChangeTableModel::data(const QModelIndex& index, int role) const
{
    if (!result_ || !index.isValid() || size_t(index.row()) >= result_->changes.size())
        return {};
    const CrackChange& c = result_->changes[size_t(index.row())];
    if (role == Qt::DisplayRole)
        return display(c, index.row(), index.column());
    if (role == SortRole)
        return sortValue(c, index.row(), index.column());
    if (role == Qt::DecorationRole && index.column() == Kind)
        return ChangeText::kindColour(c.kind);
    if (role == Qt::TextAlignmentRole && index.column() != Kind && index.column() != WidthClass)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ChangeTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    switch (section) {
    case Index:
        return tr("#");
    case Kind:
        return tr("Change");
    case Length:
        return tr("Length");
    case LengthGain:
        return tr("Length gain");
    case WidthChange:
        return tr("Width change");
    case WidthClass:
        return tr("Width class");
    }
    return {};
}

ChangeTable::ChangeTable(QWidget* parent)
    : QWidget(parent), model_(new ChangeTableModel(this)), proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView(this))
{
    setObjectName(QStringLiteral("changeTable"));
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ChangeTableModel::SortRole);
    view_->setObjectName(QStringLiteral("changeTableView"));
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(ChangeTableModel::Index, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setStretchLastSection(true);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ChangeTable::onCurrentChanged);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
}

void ChangeTable::setResult(std::shared_ptr<const ChangeResult> result)
{
    model_->setResult(std::move(result));
}

void ChangeTable::selectChange(int index)
{
    const QModelIndex at = proxy_->mapFromSource(model_->index(index, 0));
    if (!at.isValid())
        return;
    view_->setCurrentIndex(at);
    view_->scrollTo(at);
}

void ChangeTable::onCurrentChanged()
{
    const QModelIndex at = proxy_->mapToSource(view_->currentIndex());
    if (at.isValid())
        Q_EMIT changeSelected(at.row());
}

void ChangeTable::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        model_->retranslate();
    QWidget::changeEvent(e);
}

} // namespace fisura::ui
