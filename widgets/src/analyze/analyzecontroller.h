// The Analyze pane's work, apart from its widgets: which model and options, where each map
// goes, running the queue one scan after the other (a failed scan is listed and the queue goes
// on), cancelling one or all, recording results in the project, and keeping the queue on disk so
// an interrupted queue can be resumed after a restart.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include "analyze/analyzequeue.h"
#include "common/statusmeta.h"
#include "fisura/infer.h"
#include "fisura/model.h"

namespace fisura::ui
{

class AnalyzeRunner;
class ProjectSession;

/// The model scans are analysed with.
struct AnalyzeModelChoice {
    QString path;
    QString runId;           ///< the project run that trained it (empty for a file)
    ModelInfo info;          ///< what the file says
    double threshold = -1.0; ///< the user's threshold for the run (-1 = the model's own)
    bool ok = false;         ///< the file loads
};

class AnalyzeController : public QObject
{
    Q_OBJECT
public:
    explicit AnalyzeController(AnalyzeQueueModel* queue, QObject* parent = nullptr);
    ~AnalyzeController() override;

    AnalyzeQueueModel* queue() const { return queue_; }
    /// Null = no project: maps go beside their scans and the queue into the application's data.
    void setProjectSession(ProjectSession* session);
    ProjectSession* projectSession() const;

    void setModel(const AnalyzeModelChoice& model);
    const AnalyzeModelChoice& model() const { return model_; }
    void setOptions(const InferOptions& options) { options_ = options; }
    const InferOptions& options() const { return options_; }

    /// Adds image files and the images of folders (TIFF, PNG, JPEG); returns the new row ids.
    /// Other files are skipped.
    QStringList addScans(const QStringList& paths);
    /// Removes rows that are not running.
    void removeScans(const QStringList& ids);
    /// Where the map of `input` goes with the current model and project.
    QString outputFor(const QString& input) const;

    /// Runs the waiting rows one after the other; false when there is no usable model or
    /// nothing waits.
    bool start();
    bool isRunning() const { return running_; }
    /// The running scan stops (the queue goes on), or a waiting one is skipped.
    void cancel(const QString& rowId);
    /// Cancels the running scan and every waiting one.
    void cancelAll();
    /// Blocks until the worker thread is gone (tests and shutdown only).
    void waitForWorker();

    /// Where the queue is kept: <project>/analyze-queue.json, else in the application's data.
    QString queueFile() const;
    bool saveQueue() const;
    /// Reads the queue file of the current location; returns how many rows wait (an
    /// interrupted queue). The queue's model path and run are in lastQueueModel().
    int restoreQueue();
    QString lastQueueModel() const { return lastQueueModel_; }
    QString lastQueueRun() const { return lastQueueRun_; }
    /// Stop a running queue and show the queue of the current place (project or none).
    void reloadQueue();

Q_SIGNALS:
    void runningChanged(bool running);
    /// A scan ended (done, failed or cancelled).
    void scanFinished(const QString& rowId);
    /// Nothing waits any more (or the queue was stopped).
    void queueFinished();
    /// The model was prepared for the device with this policy.
    void modelPrepared(const fisura::ExecutionPolicy& policy);
    /// The scan that starts now is expected to be paced so (before its first tile).
    void scanPaced(const fisura::PaceForecast& forecast);
    /// The model could not be prepared: the queue stopped.
    void modelFailed(const fisura::Status& status);
    /// The project or the queue file could not be written.
    void saveFailed(const QString& message);
    /// The queue was replaced by the one of another project.
    void queueRestored(int waiting);

private:
    void runNext();
    void onPreparing(const QString& rowId);
    void onProgress(const QString& rowId, double fraction, double eta, double elapsed);
    void onFinished(const QString& rowId, const fisura::Status& status,
                    const fisura::InferStats& stats);
    void recordInProject(const ScanRow& row, const InferStats& stats);
    void refreshPlannedOutputs();
    /// outputFor(), numbered when another scan of the queue already has that map.
    QString uniqueOutput(const QString& rowId, const QString& input) const;
    void setRunning(bool running);

    AnalyzeQueueModel* queue_;
    AnalyzeRunner* runner_;
    QPointer<ProjectSession> session_;
    AnalyzeModelChoice model_;
    InferOptions options_;
    bool running_ = false;
    bool stopping_ = false;
    QString queuePath_; ///< the file the shown queue belongs to
    QString lastQueueModel_;
    QString lastQueueRun_;
};

} // namespace fisura::ui
