// The Train pane: what to train (dataset, task, size, epochs, Advanced), what Fisura will do on
// this machine and why, Start / Pause / Resume / Cancel, live curves with the GPU and CPU under
// them, the results of a finished run, and every run of the project.
#pragma once

#include <QPointer>

#include <functional>
#include <vector>

#include "common/pane.h"
#include "fisura/project.h"
#include "fisura/sysinfo.h"
#include "fisura/telemetry.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTimer;

namespace fisura::ui
{

class DatasetPicker;
class JobRunner;
class PolicyPreview;
class ProjectSession;
class RunEvaluator;
class RunsList;
class TrainController;
class TrainLog;
class TrainPlot;
class TrainResultsView;
class TrainSetupPanel;

class TrainPane : public Pane
{
    Q_OBJECT
public:
    using TelemetrySource = std::function<std::vector<TelemetrySample>(double lastSeconds)>;

    explicit TrainPane(QWidget* parent = nullptr);
    ~TrainPane() override;
    QString paneId() const override { return QStringLiteral("train"); }
    QString title() const override;
    QIcon icon() const override;
    /// The model shape and epochs chosen last time come back at the next start.
    void saveState(QSettings& s) const override;
    void restoreState(QSettings& s) override;

    /// The project whose datasets it trains on and whose runs it records and lists.
    void setProjectSession(ProjectSession* session);
    /// Where GPU/CPU samples for the plot come from (the System pane's sampler history).
    void setTelemetrySource(TelemetrySource source);
    /// Machine facts for the policy preview (queried in the background otherwise; tests feed
    /// fake machines).
    void setMachine(const MachineInfo& machine);

    bool isTraining() const;
    QString runningWork() const override;
    void stopWork() override;

    /// Start a new run with the current setup (what the Start button does). False and a
    /// message when it cannot start.
    bool startTraining();
    void pauseTraining();
    /// Resume the selected paused or cancelled run.
    bool resumeTraining();
    void cancelTraining();

    TrainSetupPanel* setupPanel() const { return setup_; }
    PolicyPreview* policyPreview() const { return preview_; }
    TrainController* controller() const { return controller_; }
    TrainPlot* plot() const { return plot_; }
    TrainLog* log() const { return log_; }
    RunsList* runsList() const { return runs_; }
    TrainResultsView* resultsView() const { return results_; }
    /// The message line under the buttons (errors, what happened, what to do).
    QString message() const;

Q_SIGNALS:
    /// "Analyze scans with this model": the main window opens the Analyze pane with it.
    void analyzeWithModel(const QString& modelPath);
    /// "Choose images to label next" under a segmentation run's results: the main window
    /// opens the Data pane's ranking with this run's model and dataset.
    void chooseImagesToLabel(const QString& runId, const QString& modelPath,
                             const QString& datasetPath);
    /// A run ended (finished, paused, cancelled or failed) and is recorded.
    void runFinished(const QString& runId);
    /// The results of a run are shown (its evaluation ended, or failed).
    void resultsShown(const QString& runId);

protected:
    void retranslateUi() override;

private:
    QWidget* buildLeft();
    QWidget* buildRight();
    void connectParts();
    void connectController();
    void queryMachineInBackground();
    void refreshProject();
    void showNewestRun();
    void refreshPolicy();
    void updateButtons();
    void showMessage(const QString& text, bool error = false);
    void onDatasetChanged();
    void onFolderChosen(const QString& dir, TaskKind task);
    void onRunStarted(const QString& runId, bool resumed);
    void onBatch(const BatchProgress& b);
    void onEpoch(const EpochMetrics& m);
    void onFinished(const QString& runId, const Status& status);
    void onRunsSelected(const QStringList& ids);
    /// The live line from the last batch, with an ETA only while the run goes on.
    void showCounters();
    /// A run that is not training: its summary, how far it got, and (`withLog`) its log.
    void showRunStatus(const ProjectRun& run, bool withLog);
    /// Cancel on a paused run: it ends as cancelled (checkpoint and best model stay).
    void cancelPausedRun(const QString& runId);
    void onThresholdChosen(double threshold);
    void requestImagesToLabel();
    void evaluateRun(const QString& runId);
    void pollTelemetry();
    const ProjectRun* findRun(const QString& id) const;
    static bool hasModel(const ProjectRun& run);

    QPointer<ProjectSession> session_;
    TelemetrySource telemetry_;
    MachineInfo machine_;
    bool haveMachine_ = false;
    JobRunner* machineJob_;

    QLabel* heading_;
    TrainSetupPanel* setup_;
    PolicyPreview* preview_;
    QPushButton* start_;
    QPushButton* pause_;
    QPushButton* resume_;
    QPushButton* cancel_;
    QLabel* message_;

    QLabel* counters_;
    QString idleText_; // what counters_ says before any training, in the current language
    QProgressBar* progress_;
    QTabWidget* tabs_;
    TrainPlot* plot_;
    TrainLog* log_;
    TrainResultsView* results_;
    QPushButton* analyze_;
    QPushButton* labelNext_;
    QLabel* runsHeading_;
    RunsList* runs_;

    TrainController* controller_;
    RunEvaluator* evaluator_;
    QTimer* telemetryTimer_;
    TaskKind liveTask_ = TaskKind::Segment;
    int liveEpochs_ = 0;
    QString shownRun_;  ///< the run whose results are shown
    QString statusRun_; ///< the run whose summary the status line shows (idle)
    BatchProgress lastBatch_;
    bool haveBatch_ = false; ///< lastBatch_ belongs to the job running now
    bool messageIsError_ = false;
};

} // namespace fisura::ui
