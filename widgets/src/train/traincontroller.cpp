#include "train/traincontroller.h"

#include <filesystem>

#include "fisura/distributed.h"
#include "fisura/process.h"
#include "project/projectsession.h"
#include "train/peerranks.h"

namespace fisura::ui
{

/// Called on the training thread: copies the event and posts it to the controller's thread.
class TrainController::Relay final : public TrainSink
{
public:
    Relay(TrainController* c, uint64_t generation) : c_(c), generation_(generation) {}

    void started(const TrainStarted& s) override
    {
        TrainController* c = c_;
        QMetaObject::invokeMethod(
            c,
            [c, s, g = generation_] {
                if (c->generation_ == g && c->isRunning())
                    Q_EMIT c->trainStarted(s);
            },
            Qt::QueuedConnection);
    }
    void batch(const BatchProgress& b) override
    {
        {
            std::lock_guard<std::mutex> lock(c_->mutex_);
            c_->pending_.push_back(b);
        }
        if (!c_->batchesPosted_.exchange(true)) {
            TrainController* c = c_;
            QMetaObject::invokeMethod(
                c, [c] { c->deliverBatches(); }, Qt::QueuedConnection);
        }
    }
    void epoch(const EpochMetrics& m) override
    {
        TrainController* c = c_;
        QMetaObject::invokeMethod(
            c,
            [c, m, g = generation_] {
                if (c->generation_ != g || !c->isRunning())
                    return;
                c->deliverBatches(); // every batch of the epoch is plotted before its end
                c->recordEpoch(m);
                Q_EMIT c->epochDone(m);
            },
            Qt::QueuedConnection);
    }
    void notice(const std::string& code, const std::string& message) override
    {
        TrainController* c = c_;
        const QString qc = QString::fromStdString(code), qm = QString::fromStdString(message);
        QMetaObject::invokeMethod(
            c,
            [c, qc, qm, g = generation_] {
                if (c->generation_ != g || !c->isRunning())
                    return;
                c->recordNotice(qc, qm);
                Q_EMIT c->notice(qc, qm);
            },
            Qt::QueuedConnection);
    }

private:
    TrainController* c_;
    uint64_t generation_; // events of a run that was already closed are dropped
};

TrainController::TrainController(QObject* parent) : QObject(parent), peers_(new PeerRanks(this))
{
    connect(peers_, &PeerRanks::failed, this, &TrainController::onPeerFailed);
    qRegisterMetaType<fisura::Status>();
    qRegisterMetaType<fisura::TrainStarted>();
    qRegisterMetaType<fisura::BatchProgress>();
    qRegisterMetaType<fisura::EpochMetrics>();
    qRegisterMetaType<fisura::ui::TrainController::Phase>();
}

TrainController::~TrainController()
{
    cancelAndWait();
}

bool TrainController::canResume(const ProjectRun& run)
{
    // Paused and cancelled runs, failed ones that got past an epoch, and "running" records left
    // by a crash (resume() refuses while a job runs here) all continue from their checkpoint.
    if (run.state == RunState::Finished)
        return false;
    std::error_code ec;
    return !run.checkpointPath.empty() && std::filesystem::is_regular_file(run.checkpointPath, ec);
}

Status TrainController::start(TrainOptions options, const QString& datasetId)
{
    if (isRunning())
        return Status(ErrorCode::InvalidArgument, "a training job is already running");
    if (!session_ || !session_->hasProject())
        return Status(ErrorCode::InvalidArgument, "no project is open");
    if (Status s = findPeerProgram(); !s)
        return s;
    recorder_ = newRecorder();
    const auto id = recorder_->begin(options, datasetId.toStdString());
    if (!id)
        return id.status();
    runId_ = QString::fromStdString(*id);
    if (Status s = launch(options); !s) {
        failLaunch(s);
        return s;
    }
    Q_EMIT runStarted(runId_, false);
    return Status::ok();
}

Status TrainController::resume(const QString& runId)
{
    if (isRunning())
        return Status(ErrorCode::InvalidArgument, "a training job is already running");
    if (!session_ || !session_->hasProject())
        return Status(ErrorCode::InvalidArgument, "no project is open");
    const ProjectRun* run = session_->project().findRun(runId.toStdString());
    if (!run)
        return Status(ErrorCode::NotFound, "no run " + runId.toStdString());
    if (!canResume(*run))
        return Status(ErrorCode::NotFound, "no checkpoint to resume at " + run->checkpointPath);
    if (Status s = findPeerProgram(); !s)
        return s;
    TrainOptions options;
    options.epochs = 0; // keep the run's own number of epochs
    recorder_ = newRecorder();
    if (const Status s = recorder_->resume(runId.toStdString(), options); !s)
        return s;
    runId_ = runId;
    if (Status s = launch(options); !s) {
        failLaunch(s);
        return s;
    }
    Q_EMIT runStarted(runId_, true);
    return Status::ok();
}

Status TrainController::findPeerProgram()
{
    peerProgram_.clear();
    if (ranks_ < 2)
        return Status::ok();
    peerProgram_ = PeerRanks::findProgram();
    if (!peerProgram_.isEmpty())
        return Status::ok();
    const QString text =
        qEnvironmentVariableIsSet("FISURA_CLI")
            ? tr("FISURA_CLI names no program: %1. It should name fisura-cli, which trains on the "
                 "other GPUs; or untick \"All GPUs\" under Advanced.")
                  .arg(qEnvironmentVariable("FISURA_CLI"))
            : tr("fisura-cli, which trains on the other GPUs, was found neither next to Fisura "
                 "nor on the PATH: install it, or untick \"All GPUs\" under Advanced.");
    // A setting (the hint points to Advanced), not a missing dataset file.
    return Status(ErrorCode::InvalidArgument, text.toStdString());
}

/// Rank 0 of a job on this host, here; ranks 1..N-1 started as processes that meet it there.
Status TrainController::startPeers(TrainOptions& options)
{
    peerFailure_.reset();
    peerJob_ = ranks_ >= 2;
    if (ranks_ < 2)
        return Status::ok();
    // The same job as fisura-cli's launcher makes (port, FISURA_DIST_TIMEOUT, ...).
    DistributedIdentity& id = options.distributed;
    id = localJob(ranks_, processEnvironment());
    if (id.masterPort == 0)
        return Status(ErrorCode::IoError,
                      tr("No free TCP port on 127.0.0.1 for the GPUs to meet.").toStdString());
    if (!peers_->start(peerProgram_, options, id))
        return Status(ErrorCode::IoError, peers_->error().toStdString());
    return Status::ok();
}

/// The run was recorded but could not start: its record says why.
void TrainController::failLaunch(const Status& why)
{
    peerJob_ = false;
    peers_->stop();
    if (recorder_)
        recorder_->finish(Result<TrainResult>(why));
}

/// A peer process could not start or ended with an error while the job ran: rank 0 would wait
/// for it until the rendezvous or a collective times out, so it is cancelled now and the run
/// fails with what happened to the peer.
void TrainController::onPeerFailed(int rank, int exitCode, const QString& lastLines)
{
    if (!peerJob_ || phase_ == Phase::Cancelling || peerFailure_)
        return; // the job already ended, or is being cancelled (the peers then exit too)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (result_)
            return; // rank 0 ended first: its own result says why
    }
    QString text = exitCode < 0
                       ? tr("The process that trains on GPU %1 (fisura-cli) could not start or "
                            "crashed.")
                             .arg(rank)
                       : tr("The process that trains on GPU %1 (fisura-cli) ended with exit "
                            "code %2.")
                             .arg(rank)
                             .arg(exitCode);
    if (!lastLines.isEmpty())
        text += QLatin1Char('\n') + tr("Its last messages:") + QLatin1Char('\n') + lastLines;
    peerFailure_ = Status(ErrorCode::DeviceError, text.toStdString()); // the process of a GPU
    cancel_.cancel();
    if (isRunning()) // else launch() is still starting the peers: its thread finds the cancel
        setPhase(Phase::Cancelling);
}

Status TrainController::launch(const TrainOptions& given)
{
    TrainOptions options = given;
    cancel_ = CancelToken();
    pause_ = CancelToken();
    if (Status s = startPeers(options); !s)
        return s;
    options.pauseRequested = pause_;
    relay_ = std::make_unique<Relay>(this, ++generation_);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_.clear();
        result_.reset();
    }
    batchesPosted_ = false;
    setPhase(Phase::Running);
    CancelToken cancel = cancel_;
    Relay* relay = relay_.get();
    thread_ = std::thread([this, options, cancel, relay] {
        Result<TrainResult> r = train(options, cancel, relay);
        releaseFreedMemory(); // the model, batches and optimiser state are gone: give them back
        {
            std::lock_guard<std::mutex> lock(mutex_);
            result_.emplace(std::move(r));
        }
        QMetaObject::invokeMethod(
            this, [this] { deliverResult(); }, Qt::QueuedConnection);
    });
    return Status::ok();
}

void TrainController::pause()
{
    if (phase_ != Phase::Running)
        return;
    pause_.cancel();
    setPhase(Phase::Pausing);
}

void TrainController::cancel()
{
    if (!isRunning())
        return;
    cancel_.cancel();
    setPhase(Phase::Cancelling);
}

void TrainController::cancelAndWait()
{
    if (thread_.joinable()) {
        cancel();
        thread_.join();
        deliverResult(); // the queued delivery finds nothing left to do
    }
    peers_->stopAndWait(); // no child process outlives the window
}

void TrainController::deliverBatches()
{
    std::vector<BatchProgress> batches;
    if (!isRunning())
        return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        batches.swap(pending_);
        batchesPosted_ = false;
    }
    for (const BatchProgress& b : batches)
        Q_EMIT batchDone(b);
}

void TrainController::deliverResult()
{
    std::optional<Result<TrainResult>> result;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        result.swap(result_);
    }
    if (!result)
        return;
    if (thread_.joinable())
        thread_.join(); // it only has to return: the result was its last act
    peerJob_ = false;
    peers_->stop(); // those still running after the job (they normally end with it)
    if (peerFailure_ && (!result->isOk() || (*result)->cancelled))
        result.emplace(*peerFailure_); // rank 0 was cancelled because a peer failed
    peerFailure_.reset();
    deliverBatches();
    if (recorder_)
        recorder_->finish(*result);
    relay_.reset();
    setPhase(Phase::Idle);
    Q_EMIT finished(runId_, result->isOk() ? Status::ok() : result->status());
}

std::unique_ptr<RunRecorder> TrainController::newRecorder()
{
    // Through the session: it saves, undoes an edit whose save fails and tells the panes.
    return std::make_unique<RunRecorder>(
        [session = session_](const std::function<void(Project&)>& edit) -> Status {
            if (!session || !session->hasProject())
                return Status(ErrorCode::InvalidArgument, "no project is open");
            return session->update(edit);
        });
}

void TrainController::recordEpoch(const EpochMetrics& m)
{
    if (recorder_)
        recorder_->epoch(m);
}

void TrainController::recordNotice(const QString& code, const QString& message)
{
    if (recorder_)
        recorder_->notice(code.toStdString(), message.toStdString());
}

void TrainController::setPhase(Phase phase)
{
    if (phase_ == phase)
        return;
    phase_ = phase;
    Q_EMIT phaseChanged(phase);
}

} // namespace fisura::ui
