#include "inspect/cracktable.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include "inspect/cracktablemodel.h"
#include "inspect/measuretext.h"

namespace fisura::ui
{

CrackTable::CrackTable(QWidget* parent)
    : QWidget(parent), model_(new CrackTableModel(this)), filter_(new CrackFilterModel(this)),
      view_(new QTableView(this)), classLabel_(new QLabel(this)), class_(new QComboBox(this)),
      minLengthLabel_(new QLabel(this)), minLength_(new QDoubleSpinBox(this)),
      minWidthLabel_(new QLabel(this)), minWidth_(new QDoubleSpinBox(this)),
      count_(new QLabel(this))
{
    setObjectName(QStringLiteral("crackTable"));
    filter_->setSourceModel(model_);
    view_->setObjectName(QStringLiteral("crackTableView"));
    view_->setModel(filter_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(CrackTableModel::Id, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->setVisible(false);
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    class_->setObjectName(QStringLiteral("crackClassFilter"));
    minLength_->setObjectName(QStringLiteral("crackMinLength"));
    minWidth_->setObjectName(QStringLiteral("crackMinWidth"));
    count_->setObjectName(QStringLiteral("crackCount"));
    for (QDoubleSpinBox* s : {minLength_, minWidth_}) {
        s->setRange(0, 1e9);
        s->setDecimals(2);
        s->setSpecialValueText(QStringLiteral("—"));
    }
    minLength_->setSingleStep(10);
    minWidth_->setSingleStep(0.05);

    auto* filters = new QHBoxLayout;
    filters->addWidget(classLabel_);
    filters->addWidget(class_);
    filters->addSpacing(8);
    filters->addWidget(minLengthLabel_);
    filters->addWidget(minLength_);
    filters->addSpacing(8);
    filters->addWidget(minWidthLabel_);
    filters->addWidget(minWidth_);
    filters->addStretch(1);
    filters->addWidget(count_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(filters);
    layout->addWidget(view_, 1);

    const auto refreshCount = [this] { retranslateUi(); };
    connect(class_, &QComboBox::currentIndexChanged, this, [this, refreshCount](int i) {
        filter_->setWidthClass(i - 1);
        refreshCount();
    });
    connect(minLength_, &QDoubleSpinBox::valueChanged, this, [this, refreshCount](double v) {
        filter_->setMinLength(v);
        refreshCount();
    });
    connect(minWidth_, &QDoubleSpinBox::valueChanged, this, [this, refreshCount](double v) {
        filter_->setMinWidth(v);
        refreshCount();
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CrackTable::onCurrentChanged);
    retranslateUi();
}

void CrackTable::setResult(std::shared_ptr<const MeasureResult> result)
{
    highlighted_ = -1;
    model_->setResult(std::move(result));
    // The flag column only where a standard's tolerable width is in force.
    view_->setColumnHidden(CrackTableModel::OverLimit, !model_->hasLimit());
    fillClasses();
    view_->resizeColumnsToContents();
    retranslateUi();
}

void CrackTable::fillClasses()
{
    const QSignalBlocker block(class_);
    const int keep = class_->currentIndex();
    class_->clear();
    class_->addItem(tr("All"));
    const MeasureResult* r = model_->result();
    if (r && r->pixelSizeMm > 0)
        for (size_t k = 0; k < r->options.classes.ids.size(); ++k)
            class_->addItem(MeasureText::className(r->options.classes.ids[k]));
    class_->setCurrentIndex(keep >= 0 && keep < class_->count() ? keep : 0);
    filter_->setWidthClass(class_->currentIndex() - 1);
}

void CrackTable::selectCrack(int crackId)
{
    const int row = model_->rowOfCrack(crackId);
    if (row < 0) {
        view_->clearSelection();
        return;
    }
    const QModelIndex at = filter_->mapFromSource(model_->index(row, 0));
    if (!at.isValid())
        return; // filtered out
    view_->setCurrentIndex(at);
    view_->scrollTo(at);
}

void CrackTable::highlightCrack(int crackId)
{
    if (crackId == highlighted_)
        return;
    highlighted_ = crackId;
    model_->setHighlighted(crackId);
    const int row = model_->rowOfCrack(crackId);
    const QModelIndex at = row >= 0 ? filter_->mapFromSource(model_->index(row, 0)) : QModelIndex();
    if (at.isValid())
        view_->scrollTo(at);
}

void CrackTable::onCurrentChanged()
{
    const QModelIndex at = view_->currentIndex();
    Q_EMIT crackSelected(at.isValid() ? at.siblingAtColumn(CrackTableModel::Id).data().toInt()
                                      : -1);
}

void CrackTable::retranslateUi()
{
    classLabel_->setText(tr("Class"));
    const bool mm = model_->hasMm();
    minLengthLabel_->setText(mm ? tr("Length ≥ (mm)") : tr("Length ≥ (px)"));
    minWidthLabel_->setText(mm ? tr("Width ≥ (mm)") : tr("Width ≥ (px)"));
    minLength_->setToolTip(tr("Hide cracks shorter than this"));
    minWidth_->setToolTip(tr("Hide cracks narrower than this (median width)"));
    if (class_->count() > 0)
        class_->setItemText(0, tr("All"));
    const MeasureResult* r = model_->result();
    if (r && r->pixelSizeMm > 0)
        for (int k = 1; k < class_->count(); ++k)
            class_->setItemText(k, MeasureText::className(r->options.classes.ids[size_t(k - 1)]));
    count_->setText(
        tr("%1 of %2 cracks")
            .arg(QLocale().toString(filter_->rowCount()), QLocale().toString(model_->rowCount())));
    model_->retranslate();
}

void CrackTable::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

} // namespace fisura::ui
