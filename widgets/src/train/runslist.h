// Every training run of the project: its name (number and start), dataset, task, best score and
// state. Several can be
// selected to overlay their curves.
#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

#include "fisura/project.h"

class QTreeWidget;

namespace fisura::ui
{

class RunsList : public QWidget
{
    Q_OBJECT
public:
    enum Column { Name, Dataset, Task, Score, State, ColumnCount };

    explicit RunsList(QWidget* parent = nullptr);

    /// Show the project's runs (newest first); keeps the selection where it still exists.
    void setRuns(const std::vector<ProjectRun>& runs, const std::vector<ProjectDataset>& datasets);
    QStringList selectedIds() const;
    /// The run this window is training now (others still "running" in the file are shown as
    /// interrupted); empty when idle.
    void setActiveRun(const QString& runId);
    /// Select exactly these runs; `notify` false keeps selectionChanged() quiet.
    void select(const QStringList& ids, bool notify = true);
    QTreeWidget* tree() const { return tree_; }

    static QString taskText(TaskKind task);
    static QString stateText(RunState state);

    void retranslateUi();

Q_SIGNALS:
    void selectionChanged(const QStringList& ids);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fill();
    void fitColumns();

    QTreeWidget* tree_;
    std::vector<ProjectRun> runs_;
    std::vector<ProjectDataset> datasets_;
    bool quiet_ = false;
    std::string activeRun_;
};

} // namespace fisura::ui
