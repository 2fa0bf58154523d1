// The Analyze pane's "Advanced" section, folded by default: tile, overlap, batch, precision,
// blending window, compute threads and processor choice, each starting at the model's or the
// policy's default, with what the execution policy would choose on this machine and why.
#pragma once

#include <QWidget>

#include "fisura/infer.h"
#include "fisura/model.h"
#include "fisura/sysinfo.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QToolButton;
class QTreeWidget;

namespace fisura::ui
{

class AdvancedOptionsWidget : public QWidget
{
    Q_OBJECT
public:
    explicit AdvancedOptionsWidget(QWidget* parent = nullptr);

    /// The model whose defaults the fields start from (and that the policy is asked about).
    void setModel(const ModelInfo& info);
    /// Machine facts for the policy preview (queried on first use when never set).
    void setMachine(const MachineInfo& machine);
    /// Show what the policy chose for the prepared model (batch size measured, CPU batch)
    /// instead of the preview, until the model or an option changes.
    void showPreparedPolicy(const ExecutionPolicy& policy);
    /// Add to the prepared policy what the latest scan started is expected to be paced by (a
    /// last row; the next scan's forecast replaces it, a new prepared policy clears it).
    void showScanPace(const PaceForecast& forecast);
    InferOptions options() const;
    void setOptions(const InferOptions& options);
    /// What the preview asks the execution policy: the run's own question (policyRequestFor),
    /// about the tile the run will use, not the model's training input size.
    PolicyRequest policyRequest() const;
    bool isExpanded() const;
    void setExpanded(bool expanded);
    void retranslateUi();

Q_SIGNALS:
    void optionsChanged();

private:
    void refreshPolicy();
    void fillPolicy(const ExecutionPolicy& policy);
    static QString inferReason(const PolicyChoice& choice);

    ModelInfo model_;
    MachineInfo machine_;
    bool haveMachine_ = false;
    bool showingPrepared_ = false;
    ExecutionPolicy prepared_;
    PaceForecast pace_;
    bool hasPace_ = false;
    QToolButton* toggle_;
    QWidget* body_;
    QFormLayout* form_;
    QLabel* tileLabel_;
    QLabel* overlapLabel_;
    QLabel* batchLabel_;
    QLabel* precisionLabel_;
    QLabel* windowLabel_;
    QLabel* threadsLabel_;
    QSpinBox* tile_;
    QSpinBox* overlap_;
    QSpinBox* batch_;
    QComboBox* precision_;
    QComboBox* window_;
    QSpinBox* threads_; ///< LibTorch's intra-op threads, 0 = the policy's
    QCheckBox* cpu_;
    QLabel* policyHeading_;
    QTreeWidget* policy_;
};

} // namespace fisura::ui
