// Runs one scan at a time through tiled inference on a worker thread. The prepared model
// (TiledInference: device set-up, batch size, warm-up) is kept between scans and made again
// only when the model file or the options change. Progress reaches the GUI thread as queued,
// coalesced signals; finished() is emitted on the GUI thread.
#pragma once

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "common/statusmeta.h"
#include "fisura/infer.h"

Q_DECLARE_METATYPE(fisura::InferStats)

namespace fisura::ui
{

class ProgressRelay;

struct AnalyzeTask {
    QString rowId;
    QString modelPath;
    InferOptions options;
    QString input;
    QString output;
};

class AnalyzeRunner : public QObject
{
    Q_OBJECT
public:
    explicit AnalyzeRunner(QObject* parent = nullptr);
    /// Cancels a running scan and waits for it: no worker outlives its runner.
    ~AnalyzeRunner() override;

    /// Start `task`; false (nothing started) while another scan runs.
    bool start(const AnalyzeTask& task);
    bool isRunning() const { return running_; }
    QString currentRow() const { return running_ ? current_ : QString(); }
    /// Ask the running scan to stop; finished() follows with ErrorCode::Cancelled.
    void cancel();
    /// Block until the worker is gone (tests and shutdown only).
    void wait();
    /// Cancel, wait, and drop the running scan's pending signals (its queue is gone).
    void abandon();
    /// Forget the prepared model (frees device memory); only while nothing runs.
    void releaseModel();

Q_SIGNALS:
    /// The model is being loaded and prepared for the device (before the first scan).
    void preparing(const QString& rowId);
    /// The model is ready on the device: what the policy chose (batch measured on a GPU).
    void prepared(const QString& rowId, const fisura::ExecutionPolicy& policy);
    /// Before the scan's tiles: what is expected to set its pace (TiledInference::forecast).
    void paced(const QString& rowId, const fisura::PaceForecast& forecast);
    /// Tiles are being computed: fraction 0..1, seconds left (-1 unknown), seconds so far.
    void progress(const QString& rowId, double fraction, double etaSeconds, double elapsedSeconds);
    void finished(const QString& rowId, const fisura::Status& status,
                  const fisura::InferStats& stats);

private:
    struct Outcome {
        Status status;
        InferStats stats;
    };
    Outcome work(const AnalyzeTask& task, const CancelToken& cancel);

    bool running_ = false;
    std::atomic<int> generation_{0}; ///< an abandoned scan's signals are not emitted
    QString current_;
    CancelToken cancel_;
    std::thread thread_;
    std::unique_ptr<ProgressRelay> sink_;
    // Touched by the worker only while running_, by the GUI thread only otherwise.
    std::unique_ptr<TiledInference> engine_;
    std::string engineKey_;
};

} // namespace fisura::ui
