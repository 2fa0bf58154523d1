// The change table: one row per change of a comparison of two dates (kind, length, length gain,
// width change, width class), sortable by any column; selecting a row reports the change
// (changeSelected, an index into ChangeResult::changes) so the pane can zoom to it.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

#include "fisura/change.h"

class QSortFilterProxyModel;
class QTableView;

namespace fisura::ui
{

class ChangeTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Index, Kind, Length, LengthGain, WidthChange, WidthClass, ColumnCount };
    /// The raw number of a cell, for sorting.
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setResult(std::shared_ptr<const ChangeResult> result);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    /// Headers and cells follow the language.
    void retranslate();

private:
    /// px in mm at the maps' pixel size, -1 without one.
    double mm(double px) const;
    QVariant display(const CrackChange& c, int row, int column) const;
    QVariant sortValue(const CrackChange& c, int row, int column) const;

    std::shared_ptr<const ChangeResult> result_;
};

class ChangeTable : public QWidget
{
    Q_OBJECT
public:
    explicit ChangeTable(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const ChangeResult> result);
    ChangeTableModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    /// Selects the row of a change (index into ChangeResult::changes).
    void selectChange(int index);

Q_SIGNALS:
    void changeSelected(int index);

protected:
    void changeEvent(QEvent* e) override;

private:
    void onCurrentChanged();

    ChangeTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
};

} // namespace fisura::ui
