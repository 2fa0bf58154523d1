// "What Fisura will do": the execution policy for this machine and job (device, precision, TF32,
// convolution autotuning, batch size, loader threads), each with its translated reason; before
// the start a preview from the machine's facts, after the batch probe the measured batch.
#pragma once

#include <QWidget>

#include "fisura/policy.h"

class QLabel;
class QTreeWidget;

namespace fisura::ui
{

class PolicyPreview : public QWidget
{
    Q_OBJECT
public:
    explicit PolicyPreview(QWidget* parent = nullptr);

    /// Show `policy`. `fromRun`: it is the policy the running job reported (batch measured or
    /// fixed); otherwise a preview, whose automatic GPU batch is still to be measured.
    void setPolicy(const ExecutionPolicy& policy, bool batchAutomatic, bool fromRun);
    /// Nothing known yet (the machine is being queried).
    void setDetecting();
    const ExecutionPolicy& policy() const { return policy_; }
    QTreeWidget* tree() const { return tree_; }

    void retranslateUi();

private:
    void rebuild();

    QLabel* heading_;
    QTreeWidget* tree_;
    QLabel* note_;
    ExecutionPolicy policy_;
    bool have_ = false;
    bool batchAutomatic_ = true;
    bool fromRun_ = false;
};

} // namespace fisura::ui
