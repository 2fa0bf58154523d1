#include "analyze/advancedoptions.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "analyze/pacetext.h"
#include "common/optiontexts.h"
#include "common/policytext.h"
#include "fisura/policy.h"

namespace fisura::ui
{

AdvancedOptionsWidget::AdvancedOptionsWidget(QWidget* parent)
    : QWidget(parent), toggle_(new QToolButton(this)), body_(new QWidget(this)),
      form_(new QFormLayout), tileLabel_(new QLabel(this)), overlapLabel_(new QLabel(this)),
      batchLabel_(new QLabel(this)), precisionLabel_(new QLabel(this)),
      windowLabel_(new QLabel(this)), threadsLabel_(new QLabel(this)), tile_(new QSpinBox(this)),
      overlap_(new QSpinBox(this)), batch_(new QSpinBox(this)), precision_(new QComboBox(this)),
      window_(new QComboBox(this)), threads_(new QSpinBox(this)), cpu_(new QCheckBox(this)),
      policyHeading_(new QLabel(this)), policy_(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("advancedOptions"));
    toggle_->setObjectName(QStringLiteral("advancedToggle"));
    toggle_->setCheckable(true);
    toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle_->setAutoRaise(true);
    tile_->setObjectName(QStringLiteral("tileSpin"));
    overlap_->setObjectName(QStringLiteral("overlapSpin"));
    batch_->setObjectName(QStringLiteral("batchSpin"));
    precision_->setObjectName(QStringLiteral("precisionBox"));
    window_->setObjectName(QStringLiteral("windowBox"));
    threads_->setObjectName(QStringLiteral("threadsSpin"));
    cpu_->setObjectName(QStringLiteral("cpuCheck"));
    policy_->setObjectName(QStringLiteral("policyTree"));

    // Ranges, units and tooltips from the option schema; the values from setOptions below.
    applyOption(tile_, OptionSet::Infer, "tile_size"); // 0 = from the model
    tile_->setSingleStep(64);
    applyOption(overlap_, OptionSet::Infer, "overlap"); // -1 = from the model
    overlap_->setSingleStep(16);
    applyOption(batch_, OptionSet::Infer, "batch_size");         // 0 = automatic
    applyOption(threads_, OptionSet::Infer, "intra_op_threads"); // 0 = the policy's
    applyOptionText(precision_, OptionSet::Infer, "precision");
    applyOptionText(window_, OptionSet::Infer, "window");
    for (const char* p : {"auto", "fp32", "bf16", "fp16"})
        precision_->addItem(QString(), QString::fromLatin1(p));
    window_->addItem(QString(), int(BlendWindow::Cosine));
    window_->addItem(QString(), int(BlendWindow::Gaussian));
    setOptions(InferOptions()); // the model's and the policy's defaults
    policy_->setColumnCount(3);
    policy_->setRootIsDecorated(false);
    policy_->setMaximumHeight(170);
    policy_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    // In a narrow side panel (a small screen, longer Spanish labels) a long value goes under its
    // label instead of widening the panel.
    form_->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form_->addRow(tileLabel_, tile_);
    form_->addRow(overlapLabel_, overlap_);
    form_->addRow(batchLabel_, batch_);
    form_->addRow(precisionLabel_, precision_);
    form_->addRow(windowLabel_, window_);
    form_->addRow(threadsLabel_, threads_);
    form_->addRow(QString(), cpu_);
    auto* body = new QVBoxLayout(body_);
    body->setContentsMargins(16, 0, 0, 0);
    body->addLayout(form_);
    body->addWidget(policyHeading_);
    body->addWidget(policy_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toggle_, 0, Qt::AlignLeft);
    layout->addWidget(body_);

    connect(toggle_, &QToolButton::toggled, this, &AdvancedOptionsWidget::setExpanded);
    auto changed = [this] {
        showingPrepared_ = false;
        refreshPolicy();
        Q_EMIT optionsChanged();
    };
    connect(tile_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(overlap_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(batch_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(precision_, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(window_, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(threads_, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(cpu_, &QCheckBox::toggled, this, changed);
    setExpanded(false);
    retranslateUi();
}

void AdvancedOptionsWidget::setModel(const ModelInfo& info)
{
    model_ = info;
    showingPrepared_ = false;
    retranslateUi(); // the defaults' texts name the model's values
}

void AdvancedOptionsWidget::setMachine(const MachineInfo& machine)
{
    machine_ = machine;
    haveMachine_ = true;
    if (isExpanded())
        refreshPolicy();
}

InferOptions AdvancedOptionsWidget::options() const
{
    InferOptions o;
    o.tileSize = tile_->value();
    o.overlap = overlap_->value();
    o.batchSize = batch_->value();
    parsePrecision(precision_->currentData().toString().toStdString(), o.precision);
    o.window = BlendWindow(window_->currentData().toInt());
    o.preferCpu = cpu_->isChecked();
    o.intraOpThreads = threads_->value();
    return o;
}

void AdvancedOptionsWidget::setOptions(const InferOptions& o)
{
    tile_->setValue(o.tileSize);
    overlap_->setValue(o.overlap);
    batch_->setValue(o.batchSize);
    precision_->setCurrentIndex(
        std::max(0, precision_->findData(QString::fromLatin1(precisionName(o.precision)))));
    window_->setCurrentIndex(std::max(0, window_->findData(int(o.window))));
    cpu_->setChecked(o.preferCpu);
    threads_->setValue(o.intraOpThreads);
}

bool AdvancedOptionsWidget::isExpanded() const
{
    return toggle_->isChecked();
}

void AdvancedOptionsWidget::setExpanded(bool expanded)
{
    toggle_->setChecked(expanded);
    toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    body_->setVisible(expanded);
    if (expanded)
        refreshPolicy();
}

void AdvancedOptionsWidget::retranslateUi()
{
    const QLocale loc;
    toggle_->setText(tr("Advanced"));
    tileLabel_->setText(tr("Tile size:"));
    overlapLabel_->setText(tr("Overlap:"));
    batchLabel_->setText(tr("Batch:"));
    precisionLabel_->setText(tr("Precision:"));
    windowLabel_->setText(tr("Blending window:"));
    threadsLabel_->setText(tr("Compute threads:"));
    threads_->setSpecialValueText(tr("automatic"));
    retranslateOptions(this); // tooltips and units
    tile_->setSpecialValueText(model_.tileSize > 0
                                   ? tr("the model's (%1 px)").arg(loc.toString(model_.tileSize))
                                   : tr("the model's"));
    overlap_->setSpecialValueText(
        model_.tileOverlap >= 0 ? tr("the model's (%1 px)").arg(loc.toString(model_.tileOverlap))
                                : tr("the model's"));
    batch_->setSpecialValueText(tr("automatic"));
    precision_->setItemText(0, tr("automatic"));
    precision_->setItemText(1, QStringLiteral("fp32"));
    precision_->setItemText(2, QStringLiteral("bf16"));
    precision_->setItemText(3, QStringLiteral("fp16"));
    window_->setItemText(0, tr("cosine"));
    window_->setItemText(1, tr("Gaussian"));
    cpu_->setText(tr("Use the processor even when a GPU is usable"));
    policyHeading_->setText(showingPrepared_
                                ? tr("What Fisura chose for this model, and why:")
                                : tr("What Fisura chooses on this computer, and why:"));
    policy_->setHeaderLabels({tr("Setting"), tr("Choice"), tr("Reason")});
    if (isExpanded())
        refreshPolicy();
}

void AdvancedOptionsWidget::showPreparedPolicy(const ExecutionPolicy& policy)
{
    prepared_ = policy;
    showingPrepared_ = true;
    hasPace_ = false;
    retranslateUi();
}

void AdvancedOptionsWidget::showScanPace(const PaceForecast& forecast)
{
    if (!showingPrepared_)
        return; // the options changed since: the preview is about the next model
    pace_ = forecast;
    hasPace_ = true;
    if (isExpanded())
        fillPolicy(prepared_);
}

void AdvancedOptionsWidget::refreshPolicy()
{
    if (showingPrepared_) {
        fillPolicy(prepared_);
        return;
    }
    if (!isExpanded())
        return; // the machine is queried only when someone looks
    if (!haveMachine_) {
        machine_ = queryMachine();
        haveMachine_ = true;
    }
    fillPolicy(choosePolicy(machine_, policyRequest()));
}

PolicyRequest AdvancedOptionsWidget::policyRequest() const
{
    return policyRequestFor(model_, options());
}

QString AdvancedOptionsWidget::inferReason(const PolicyChoice& c)
{
    // Reasons only tiled inference gives (core/src/infer/infer.cpp); the rest are shared.
    if (c.reasonId == "batch_cpu_infer")
        return tr("small batches on the processor keep cancelling prompt");
    if (c.reasonId == "nhwc_script")
        return tr("imported TorchScript models keep their layout");
    return policyChoiceReason(c);
}

void AdvancedOptionsWidget::fillPolicy(const ExecutionPolicy& policy)
{
    policy_->clear();
    for (const PolicyChoice& c : policy.choices) {
        auto* item = new QTreeWidgetItem(policy_);
        item->setText(0, policyChoiceLabel(c.what));
        item->setText(1, policyChoiceValue(c.value));
        item->setText(2, inferReason(c));
        item->setToolTip(2, item->text(2));
    }
    if (showingPrepared_ && hasPace_) {
        auto* item = new QTreeWidgetItem(policy_);
        item->setText(0, tr("Pace of the latest scan"));
        item->setText(1, paceForecastValue(pace_));
        item->setText(2, paceForecastText(pace_));
        item->setToolTip(2, item->text(2));
    }
}

} // namespace fisura::ui
