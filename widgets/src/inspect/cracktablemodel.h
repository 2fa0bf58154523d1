// The crack table: one row per measured crack (CrackTableModel) and the filter in front of it
// (CrackFilterModel: width class, minimum length, minimum width). Numbers sort as numbers
// (Qt::UserRole) and show in mm when the pixel size is known, else in px.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

#include "fisura/measure.h"

namespace fisura::ui
{

class CrackTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Id,
        Class,
        Length,
        MedianWidth,
        MaxWidth,
        Branches,
        Area,
        Orientation,
        Position,
        OverLimit, ///< "Over limit" where a standard's tolerable width is exceeded
        ColumnCount
    };
    /// Numeric value for sorting and filtering.
    static constexpr int SortRole = Qt::UserRole;
    /// The crack's index in the result.
    static constexpr int IndexRole = Qt::UserRole + 1;

    explicit CrackTableModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const MeasureResult> result);
    const MeasureResult* result() const { return result_.get(); }
    bool hasMm() const { return result_ && result_->pixelSizeMm > 0; }
    /// A standard's tolerable width is in force (and widths are in mm).
    bool hasLimit() const { return hasMm() && result_->options.classes.tolerableMm > 0; }
    /// Row of the crack with this id, or -1.
    int rowOfCrack(int crackId) const;
    /// Shades the row of this crack (the one under the mouse in the viewer); -1: none.
    void setHighlighted(int crackId);
    int highlighted() const { return highlighted_; }
    /// Headers and units follow the language in force.
    void retranslate();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QVariant display(const Crack& c, int column) const;
    QVariant sortValue(const Crack& c, int column) const;

    std::shared_ptr<const MeasureResult> result_;
    int highlighted_ = -1;
};

class CrackFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CrackFilterModel(QObject* parent = nullptr);
    /// Show only this width class (-1: every class).
    void setWidthClass(int k);
    /// Minimum length and median width, in mm when the table shows mm, else px (0: no limit).
    void setMinLength(double v);
    void setMinWidth(double v);
    int widthClass() const { return class_; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    int class_ = -1;
    double minLength_ = 0;
    double minWidth_ = 0;
};

} // namespace fisura::ui
