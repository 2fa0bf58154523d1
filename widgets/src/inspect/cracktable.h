// The crack table with its filters (width class, minimum length, minimum width): rows sort by
// any column; selecting a row reports the crack (crackSelected); highlightCrack() marks the
// row of the crack under the mouse in the viewer.
#pragma once

#include <QWidget>

#include <memory>

#include "fisura/measure.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableView;

namespace fisura::ui
{

class CrackFilterModel;
class CrackTableModel;

class CrackTable : public QWidget
{
    Q_OBJECT
public:
    explicit CrackTable(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const MeasureResult> result);
    CrackTableModel* model() const { return model_; }
    CrackFilterModel* filter() const { return filter_; }
    QTableView* view() const { return view_; }
    QComboBox* classFilter() const { return class_; }
    QDoubleSpinBox* minLength() const { return minLength_; }
    QDoubleSpinBox* minWidth() const { return minWidth_; }
    /// Selects the row of a crack (and scrolls to it); -1 clears the selection.
    void selectCrack(int crackId);
    /// Marks the row of this crack (-1: none) without selecting it, and scrolls to it.
    void highlightCrack(int crackId);
    int highlighted() const { return highlighted_; }
    void retranslateUi();

Q_SIGNALS:
    void crackSelected(int crackId);

protected:
    void changeEvent(QEvent* e) override;

private:
    void fillClasses();
    void onCurrentChanged();

    CrackTableModel* model_;
    CrackFilterModel* filter_;
    QTableView* view_;
    QLabel* classLabel_;
    QComboBox* class_;
    QLabel* minLengthLabel_;
    QDoubleSpinBox* minLength_;
    QLabel* minWidthLabel_;
    QDoubleSpinBox* minWidth_;
    QLabel* count_;
    int highlighted_ = -1;
};

} // namespace fisura::ui
