// The Analyze pane: pick a model (a finished run of the project or a file) and scans (dialog or
// drag and drop), run them one after the other through tiled inference with progress, speed and
// time left per scan, cancel one or all, and open a finished map in Inspect.
#pragma once

#include <QPointer>
#include <QStringList>

#include <functional>

#include "common/pane.h"
#include "common/statusmeta.h"

class QFrame;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;

namespace fisura::ui
{

class AdvancedOptionsWidget;
class AnalyzeController;
class AnalyzeQueueModel;
class ModelChooser;
class ProjectSession;
struct AnalyzeModelChoice;

class AnalyzePane : public Pane
{
    Q_OBJECT
public:
    explicit AnalyzePane(QWidget* parent = nullptr);
    ~AnalyzePane() override;

    QString paneId() const override { return QStringLiteral("analyze"); }
    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings& s) const override;
    void restoreState(QSettings& s) override;

    /// The project the pane works in; null = none (maps beside the scans).
    void setProjectSession(ProjectSession* session);
    /// Analyse with this model file (Fisura model or TorchScript module with its sidecar).
    void setModelFile(const QString& path);
    /// Analyse with the model of a finished run of the project; false when there is none.
    bool setModelFromRun(const QString& runId);

    /// Adds scan files and the images of folders to the queue; returns how many were added.
    int addScans(const QStringList& paths);
    /// Queues `scan` unless the queue already lists it (the demo project's scan once the
    /// project is ready); true when it was added.
    bool queueScanOnce(const QString& scan);
    /// Where "Add scans…" and "Add folder…" open: the last scan folder when it lies in the open
    /// project, else the folder of the project's newest scan (queued or analysed), else the
    /// project's folder; without a project the last scan folder, else the home folder — never
    /// the process's working directory.
    QString scanDialogFolder() const;
    /// Replace the file dialogs (tests): scans, a folder of scans, a model file.
    void setScanDialog(std::function<QStringList()> dialog) { scanDialog_ = std::move(dialog); }
    void setFolderDialog(std::function<QString()> dialog) { folderDialog_ = std::move(dialog); }
    void setModelDialog(std::function<QString()> dialog);

    /// Runs the waiting scans; false when there is no usable model or nothing waits.
    bool run();
    /// Cancel the selected scans (the running one stops, waiting ones are skipped).
    void cancelSelected();
    void cancelAll();
    bool isRunning() const;
    QString runningWork() const override;
    void stopWork() override;
    /// Opens the selected finished scan (else the last finished one) in Inspect.
    bool openSelectedInInspect();

    AnalyzeQueueModel* queue() const { return queue_; }
    AnalyzeController* controller() const { return controller_; }
    ModelChooser* modelChooser() const { return chooser_; }
    AdvancedOptionsWidget* advancedOptions() const { return advanced_; }

Q_SIGNALS:
    /// Show `scan` with `map` as its overlay, thresholded at `threshold` (0..255).
    void openInInspect(const QString& scan, const QString& map, int threshold);
    /// The queue ran out of waiting scans (or was stopped).
    void queueFinished();

protected:
    void retranslateUi() override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildUi();
    void chooseScans();
    void chooseFolder();
    void onModelChosen(const AnalyzeModelChoice& choice);
    void onQueueFinished();
    void onQueueRestored(int waiting);
    void removeSelected();
    void openRow(int row);
    QStringList selectedIds() const;
    void updateActions();

    AnalyzeQueueModel* queue_;
    AnalyzeController* controller_;
    QPointer<ProjectSession> session_;
    std::function<QStringList()> scanDialog_;
    std::function<QString()> folderDialog_;
    QString lastDone_;
    int restoredWaiting_ = 0;

    QSplitter* splitter_;
    QLabel* heading_;
    ModelChooser* chooser_;
    AdvancedOptionsWidget* advanced_;
    QLabel* scansHeading_;
    QPushButton* addButton_;
    QPushButton* folderButton_;
    QPushButton* removeButton_;
    QFrame* resumeBar_;
    QLabel* resumeLabel_;
    QPushButton* resumeButton_;
    QLabel* message_;
    QTableView* table_;
    QLabel* dropHint_;
    QPushButton* runButton_;
    QPushButton* cancelButton_;
    QPushButton* cancelAllButton_;
    QPushButton* openButton_;
};

} // namespace fisura::ui
