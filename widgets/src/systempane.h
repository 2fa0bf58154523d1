// The System pane: what this machine can do for Fisura (CPU, RAM, LibTorch, CUDA, GPUs).
#pragma once

#include "fisura/sysinfo.h"
#include "pane.h"

class QLabel;
class QTreeWidget;

namespace fisura::ui
{

class JobRunner;

class SystemPane : public Pane
{
    Q_OBJECT
public:
    explicit SystemPane(QWidget* parent = nullptr);
    QString paneId() const override { return QStringLiteral("system"); }
    QString title() const override;
    QIcon icon() const override;

    /// Query the machine again (in the background).
    void refresh();
    /// Show given facts (used by refresh(); tests feed fake machines).
    void setMachine(const MachineInfo& m);
    bool hasMachine() const { return haveMachine_; }
    /// One line for the status bar: "NVIDIA H200 · bf16" or "CPU · 2 cores".
    QString summary() const;

Q_SIGNALS:
    void machineChanged();

protected:
    void retranslateUi() override;

private:
    void rebuild();

    JobRunner* job_;
    QLabel* heading_;
    QLabel* explanation_;
    QTreeWidget* facts_;
    MachineInfo machine_;
    bool haveMachine_ = false;
};

} // namespace fisura::ui
