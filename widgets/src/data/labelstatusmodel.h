// The label state of every image of a segmentation dataset (labelled, proposed, unlabelled) as
// a two-column table, filtered by state. Rows keep the order core lists the images in.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <optional>
#include <vector>

#include "fisura/labels.h"

namespace fisura::ui
{

class LabelStatusModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ImageColumn, StateColumn, ColumnCount };
    static constexpr int PathRole = Qt::UserRole;
    static constexpr int StateRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    void setEntries(std::vector<LabelStatusEntry> entries);
    const std::vector<LabelStatusEntry>& entries() const { return entries_; }
    /// Show only images in `state` (nullopt: every image).
    void setFilter(std::optional<LabelState> state);
    std::optional<LabelState> filter() const { return filter_; }

    /// Images in `state`, in list order.
    QStringList images(LabelState state) const;
    int count(LabelState state) const;
    /// The image shown in `row` (empty when out of range).
    QString imageAt(int row) const;
    /// The row that shows `image`, or -1.
    int rowOf(const QString& image) const;

    /// Translated name of a state ("Labelled", ...).
    static QString stateText(LabelState state);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    /// The language changed: headers and state names are shown again.
    void retranslate();

private:
    void rebuildRows();

    std::vector<LabelStatusEntry> entries_;
    std::vector<int> rows_; ///< indices into entries_ of the rows shown
    std::optional<LabelState> filter_;
};

} // namespace fisura::ui
