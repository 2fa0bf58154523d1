// Which data to train on: the project's datasets (newest first), a folder added by dialog or
// dropped on the widget, and what a background scan found in it (counts per class, files that
// cannot be used and why).
#pragma once

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "fisura/dataset.h"
#include "fisura/labels.h"
#include "fisura/project.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace fisura::ui
{

class JobRunner;

class DatasetPicker : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetPicker(QWidget* parent = nullptr);

    /// The project's datasets; keeps the selection when it is still there, else the newest.
    void setDatasets(const std::vector<ProjectDataset>& datasets);
    void selectDataset(const QString& id);
    QString datasetId() const;
    QString datasetPath() const;
    /// The task the dataset was added for (Segment when none is selected).
    TaskKind datasetTask() const;
    bool hasDataset() const;

    /// Scan the selected dataset for `task` in the background (counts and problems).
    void rescan(TaskKind task);
    bool isScanning() const;
    /// Usable items of the last scan (-1 before one finished or after it failed).
    int usableItems() const { return usable_; }

    /// Segmentation: which images training uses ("N labelled images are used for training (K
    /// proposed and M unlabelled are not)"), as plain text; empty for other tasks.
    QString labelSummary() const;

    /// What a folder looks like: images/ + masks/ = segmentation, class subfolders =
    /// classification, otherwise anomaly (crack-free images).
    static TaskKind guessTask(const QString& dir);
    /// Translated text for a core DatasetProblem::reason (its untranslated detail appended).
    static QString problemText(const std::string& reason);

    void retranslateUi();

Q_SIGNALS:
    void datasetChanged();
    /// The user chose a folder that is not in the project yet.
    void folderChosen(const QString& dir, fisura::TaskKind task);
    void scanned();
    /// The user followed the link to see the label state of the images in the Data pane.
    void showLabelsRequested(const QString& datasetPath);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void chooseFolder();
    void showScan(const Result<Dataset>& result);
    void showLabelStates();

    QLabel* label_;
    QComboBox* box_;
    QPushButton* add_;
    QLabel* summary_;
    QListWidget* problems_;
    QLabel* labelStates_;
    JobRunner* job_;
    std::vector<ProjectDataset> datasets_;
    int usable_ = -1;
    bool rescanPending_ = false;
    TaskKind pendingTask_ = TaskKind::Segment;
    using LabelScan = Result<std::vector<LabelStatusEntry>>;
    /// What one background scan found: the dataset and, for segmentation, its label states.
    struct Scan {
        Dataset dataset;
        std::optional<LabelScan> labels;
    };
    std::optional<Result<Dataset>> lastScan_;
    std::optional<LabelScan> lastLabels_; ///< segmentation scans only
};

} // namespace fisura::ui
