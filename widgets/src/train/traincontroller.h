// Runs one training job at a time on its own thread and records it in the project (RunRecorder, as
// fisura-cli train --project does): the run record is created when the job starts, grows by each
// epoch and notice as they arrive and is closed with the trainer's result (finished, paused,
// cancelled or failed). Trainer events arrive on the training thread and
// are relayed to the GUI thread with queued invocations; batches are coalesced so a slow GUI never
// queues a backlog. With several ranks (setRanks) rank 0 runs on that thread and ranks 1..N-1 are
// fisura-cli processes (PeerRanks), one per GPU; a peer that fails ends the run at once.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "fisura/project.h"
#include "fisura/runrecorder.h"
#include "fisura/train.h"
#include "project/projectsession.h"
#include "train/trainmeta.h"

namespace fisura::ui
{

class PeerRanks;

class TrainController : public QObject
{
    Q_OBJECT
public:
    enum class Phase { Idle, Running, Pausing, Cancelling };

    explicit TrainController(QObject* parent = nullptr);
    /// Cancels a running job and waits for it (within half a second); the run is recorded.
    ~TrainController() override;

    void setProjectSession(ProjectSession* session) { session_ = session; }

    /// Record a new run of `options` on the project's dataset `datasetId` (Project::beginRun fills
    /// the model, checkpoint and split paths) and start training it. Fails without a project or
    /// while another job runs; training errors arrive later through finished().
    Status start(TrainOptions options, const QString& datasetId);
    /// Continue a run that did not finish (paused, cancelled, failed, or left "running" by a
    /// crash) from its checkpoint, with the same options and record.
    Status resume(const QString& runId);
    /// Processes the next start or resume trains with, one per GPU: 1 = this process alone;
    /// N >= 2 = rank 0 here and N-1 fisura-cli processes (PeerRanks::findProgram()).
    void setRanks(int ranks) { ranks_ = ranks < 1 ? 1 : ranks; }
    int ranks() const { return ranks_; }
    /// The peer processes of the current (or last) job.
    const PeerRanks* peers() const { return peers_; }
    /// Finish the current epoch, keep its checkpoint and stop (the run becomes paused).
    void pause();
    /// Stop now; the checkpoint of the last completed epoch and the best model stay intact.
    void cancel();
    /// Cancel, wait for the thread and record the run before returning (window closing).
    void cancelAndWait();

    bool isRunning() const { return phase_ != Phase::Idle; }
    Phase phase() const { return phase_; }
    QString runId() const { return runId_; }
    /// Whether the run can continue: it did not finish and its checkpoint exists.
    static bool canResume(const ProjectRun& run);

Q_SIGNALS:
    void phaseChanged(fisura::ui::TrainController::Phase phase);
    /// A run was recorded and its thread started (resumed = continuing an earlier run).
    void runStarted(const QString& runId, bool resumed);
    void trainStarted(const fisura::TrainStarted& info);
    void batchDone(const fisura::BatchProgress& progress);
    void epochDone(const fisura::EpochMetrics& metrics);
    /// A trainer notice ("out_of_memory", "early_stop", "resumed", ...) with its English detail.
    void notice(const QString& code, const QString& message);
    /// The job ended; `status` is ok for finished, paused and cancelled runs (see the record).
    void finished(const QString& runId, const fisura::Status& status);

private:
    class Relay;
    Status findPeerProgram();
    Status startPeers(TrainOptions& options);
    Status launch(const TrainOptions& options);
    void failLaunch(const Status& why);
    void onPeerFailed(int rank, int exitCode, const QString& lastLines);
    void deliverBatches();
    void deliverResult();
    void recordEpoch(const EpochMetrics& m);
    void recordNotice(const QString& code, const QString& message);
    std::unique_ptr<RunRecorder> newRecorder();
    void setPhase(Phase phase);

    QPointer<ProjectSession> session_; // the window may destroy it before this controller
    Phase phase_ = Phase::Idle;
    QString runId_;
    std::unique_ptr<RunRecorder> recorder_; // of the run started or resumed last
    int ranks_ = 1;
    QString peerProgram_;
    PeerRanks* peers_;
    bool peerJob_ = false;              // peers were started for the current job
    std::optional<Status> peerFailure_; // why a peer ended the run, instead of rank 0's cancel
    uint64_t generation_ = 0;
    CancelToken cancel_;
    CancelToken pause_;
    std::thread thread_;
    std::unique_ptr<Relay> relay_;

    std::mutex mutex_; // guards pending_ and result_
    std::vector<BatchProgress> pending_;
    std::atomic<bool> batchesPosted_{false};
    std::optional<Result<TrainResult>> result_;
};

} // namespace fisura::ui

Q_DECLARE_METATYPE(fisura::ui::TrainController::Phase)
