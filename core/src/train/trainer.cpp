// The facade train(): a Trainer prepares the data, sets up, runs its epochs and finishes. This
// file has the epoch itself (train, validate, record, stop); the pieces live beside it:
// train_setup.cpp, train_step.cpp, train_validate.cpp, train_checkpoint.cpp, train_json.cpp.
#include "compat/torch_compat.h"

#include <ctime>

#include "device/torch_step.h"
#include "fisura/options.h"
#include "train/trainer.h"

namespace fisura
{

namespace train_detail
{

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string utcNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

void Events::notice(const std::string& code, const std::string& msg)
{
    result.notices.push_back(code + ": " + msg);
    if (sink)
        sink->notice(code, msg);
}

Trainer::Trainer(const TrainOptions& options, const CancelToken& cancel, TrainSink* sink)
    : o_(options), cancel_(cancel), sink_(options.distributed.rank == 0 ? sink : nullptr),
      rank_(options.distributed.rank), world_(std::max(1, options.distributed.worldSize))
{
}

Status Trainer::runEpochs()
{
    for (int epoch = st_.epochsDone; epoch < o_.epochs; ++epoch) {
        if (Status s = runEpoch(epoch); !s)
            return s;
        if (stop_)
            break;
    }
    if (comm_)
        comm_->barrier(); // rank 0 has written its files before any process leaves
    res_.epochsRun = st_.epochsDone;
    res_.finalBatchSize = st_.batchSize;
    res_.outOfMemoryRecoveries = st_.oomRecoveries;
    return Status::ok();
}

/// Train, validate, keep the best model and the checkpoint, then decide whether to go on.
Status Trainer::runEpoch(int epoch)
{
    const auto te = Clock::now();
    compat::resetGpuPeak(pol().deviceIndex);
    net_->train();
    freezeBatchNormIfAsked();
    EpochTally t;
    if (Status s = trainEpoch(epoch, t); !s)
        return s;
    if (stopRequested()) { // every rank of a data-parallel job agrees on it (agreeOnReadBack)
        res_.cancelled = true;
        stop_ = true;
        ev_.notice("cancelled", "stopped during epoch " + std::to_string(epoch + 1) +
                                    "; the checkpoint of the last completed epoch is kept");
        return Status::ok();
    }
    EpochMetrics m;
    if (isRoot())
        if (Status s = endEpochOnRoot(epoch, m, t, te); !s)
            return s;
    shareEpochOutcome();
    return Status::ok();
}

/// Validation, the model and checkpoint files and the decision to go on: rank 0's part of an
/// epoch's end (a job on its own is its rank 0). The other ranks wait for its decision.
Status Trainer::endEpochOnRoot(int epoch, EpochMetrics& m, const EpochTally& t,
                               Clock::time_point te)
{
    const double trainSeconds = secondsSince(te);
    m.epoch = epoch;
    m.trainLoss = t.lossCount ? t.lossSum / t.lossCount : -1;
    m.learningRate = lrAt(o_.schedule, o_.learningRate,
                          double(int64_t(epoch + 1) * (jobSamples_ / o_.epochs)) /
                              double(std::max<int64_t>(1, jobSamples_)));
    m.imagesPerSecond = t.images / std::max(1e-6, trainSeconds);
    m.gpuPeakBytes = compat::gpuMemory(pol().deviceIndex).peak;
    if (!split_.val.empty()) {
        if (Status s = validate(epoch, m); !s || stop_)
            return s;
    } else {
        m.score = -m.trainLoss; // no validation split: the training loss decides
    }
    m.seconds = secondsSince(te);
    if (Status s = recordEpoch(m); !s)
        return s;
    epochOverheadSeconds_ = std::max(0.0, secondsSince(te) - trainSeconds);
    if (sink_)
        sink_->epoch(m);
    stopEarlyOrPause(epoch);
    return Status::ok();
}

/// Early stopping, stopAfterEpoch and pauseRequested all end the job after a complete epoch, so
/// its checkpoint is there to resume from.
void Trainer::stopEarlyOrPause(int epoch)
{
    if (o_.patience > 0 && st_.badEpochs >= o_.patience && epoch + 1 < o_.epochs) {
        res_.stoppedEarly = true;
        stop_ = true;
        ev_.notice("early_stop", "no improvement for " + std::to_string(st_.badEpochs) + " epochs");
        return;
    }
    const bool pauseNow = (o_.stopAfterEpoch > 0 && st_.epochsDone >= o_.stopAfterEpoch) ||
                          o_.pauseRequested.isCancelled();
    if (pauseNow && epoch + 1 < o_.epochs) {
        res_.paused = true;
        stop_ = true;
        ev_.notice("paused", "stopped after epoch " + std::to_string(st_.epochsDone) + " as asked");
    }
}

TrainResult Trainer::finish(Clock::time_point started)
{
    res_.seconds = secondsSince(started);
    return std::move(res_);
}

} // namespace train_detail

Result<TrainResult> train(const TrainOptions& o, const CancelToken& cancel, TrainSink* sink)
{
    const auto t0 = train_detail::Clock::now();
    if (Status s = validate(o); !s)
        return s;
    train_detail::Trainer trainer(o, cancel, sink);
    if (Status s = trainer.prepareData(); !s)
        return s;
    // LibTorch reports device trouble by exceptions; the facade answers with a Status.
    const Status run = detail::guardTorchJob([&] {
        try {
            if (trainer.fitsInsteadOfTraining())
                return trainer.fitPatchGaussian();
            if (Status s = trainer.setUp(); !s)
                return s;
            return trainer.runEpochs();
        } catch (const dist::CommError& e) { // a peer process failed or vanished
            return Status(ErrorCode::IoError, e.what());
        }
    });
    if (!run)
        return run;
    return trainer.finish(t0);
}

} // namespace fisura
