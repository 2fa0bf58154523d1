// Checkpoints and the best model: after every epoch the checkpoint is rewritten (atomically) and,
// when the epoch is the best so far, the model file too; a job resumes from its checkpoint with
// the same weights, optimiser moments, counters and CPU random state.
#include "compat/torch_compat.h"

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "models/model_impl.h"
#include "models/zip_check.h"
#include "train/trainer.h"
#include "util/atomic_file.h"
#include "util/json_bounded.h"
#include "util/json_int.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace fisura::train_detail
{

Status saveCheckpoint(const std::string& path, Model& model, torch::optim::Optimizer& opt,
                      const JobState& st, const TrainOptions& o)
{
    try {
        json h = json::array();
        for (const auto& m : st.history)
            h.push_back(metricsJson(m));
        json j{{"format", "fisura-checkpoint"},
               {"version", 1},
               {"task", taskName(o.task)},
               {"epochs_done", st.epochsDone},
               // The global batch (per process x processes): a job resumes with another number
               // of processes and the same samples per step (see restoreCheckpoint).
               {"batch_size", st.batchSize * std::max(1, o.distributed.worldSize)},
               {"world_size", std::max(1, o.distributed.worldSize)},
               {"best_score", st.bestScore},
               {"best_epoch", st.bestEpoch},
               {"bad_epochs", st.badEpochs},
               {"oom_recoveries", st.oomRecoveries},
               {"step", st.step},
               {"loss_scale", st.lossScale},
               {"history", h},
               {"model", util::parseJsonOrNull<json>(model.metadataJson())}};
        torch::serialize::OutputArchive ar, mar, oar;
        model.impl()->net->save(mar);
        opt.save(oar);
        ar.write("model", mar);
        ar.write("optimizer", oar);
        ar.write("state", c10::IValue(util::dumpJson(j)));
        ar.write("rng", compat::cpuRngState());
        std::ostringstream os;
        ar.save_to(os);
        return writeFileAtomic(path, os.str());
    } catch (const c10::Error& e) {
        return Status(ErrorCode::IoError, path + ": " + e.what_without_backtrace());
    }
}

/// Open the checkpoint and check it belongs to this job (task, model configuration).
Status Trainer::resumeFromCheckpoint()
{
    torch::serialize::InputArchive ar;
    std::error_code fec;
    if (!fs::is_regular_file(o_.resumeFrom, fec))
        return Status(ErrorCode::NotFound, "no checkpoint at " + o_.resumeFrom);
    if (Status st = models::verifyZipFile(o_.resumeFrom); !st) // LibTorch does not check
        return Status(st.code(), o_.resumeFrom + " is not a Fisura checkpoint, or a damaged one: " +
                                     st.detail());
    try {
        ar.load_from(o_.resumeFrom, device_);
    } catch (const c10::Error& e) {
        return Status(ErrorCode::Corrupt,
                      o_.resumeFrom + " is not a Fisura checkpoint: " + e.what_without_backtrace());
    }
    c10::IValue sv;
    if (!ar.try_read("state", sv) || !sv.isString())
        return Status(ErrorCode::Corrupt, o_.resumeFrom + " is not a Fisura checkpoint");
    auto parsed = util::parseJson<json>(sv.toStringRef(), o_.resumeFrom + " (its state)");
    if (!parsed)
        return parsed.status();
    const json& j = *parsed;
    try {
        if (!j.is_object() || j.value("format", "") != "fisura-checkpoint")
            return Status(ErrorCode::Corrupt, o_.resumeFrom + " is not a Fisura checkpoint");
        if (j.value("task", "") != taskName(o_.task))
            return Status(ErrorCode::InvalidArgument,
                          o_.resumeFrom + " is a " + j.value("task", "?") + " checkpoint");
        const json mj = j.value("model", json::object());
        if (util::jsonInt(mj, "input_size", 0) != mc_.inputSize ||
            util::jsonInt(mj, "depth", 0) != mc_.depth ||
            util::jsonInt(mj, "width", 0) != mc_.width ||
            util::jsonInt(mj, "classes", 0) != mc_.classes)
            return Status(ErrorCode::InvalidArgument,
                          o_.resumeFrom + " was trained with another model configuration");
        return restoreCheckpoint(j, ar);
    } catch (const json::exception& e) { // a member of the wrong type
        return Status(ErrorCode::Corrupt, o_.resumeFrom + ": " + e.what());
    }
}

/// Weights, optimiser moments, the job's counters and history, the CPU random state.
Status Trainer::restoreCheckpoint(const json& j, torch::serialize::InputArchive& ar)
{
    torch::serialize::InputArchive mar, oar;
    ar.read("model", mar);
    ar.read("optimizer", oar);
    net_->load(mar);
    if (pol().channelsLast)
        toChannelsLast(*net_);
    opt_->load(oar);
    st_.epochsDone = util::jsonInt(j, "epochs_done", 0);
    // An explicit batch size wins over the checkpoint's (which may have been halved on OOM).
    // The checkpoint holds the global batch: W processes resume with a W-th of it each, so a
    // job started on two GPUs goes on on one (or four) with the same samples per step.
    if (o_.batchSize > 0) {
        st_.batchSize = o_.batchSize;
    } else {
        const int global = util::jsonInt(j, "batch_size", st_.batchSize * world_);
        st_.batchSize = std::max(1, global / world_);
        if (global % world_ != 0)
            ev_.notice("batch_rounded", "the checkpoint's batch of " + std::to_string(global) +
                                            " does not divide among " + std::to_string(world_) +
                                            " processes: " + std::to_string(st_.batchSize) +
                                            " each");
    }
    st_.bestScore = j.value("best_score", -1e300);
    st_.bestEpoch = util::jsonInt(j, "best_epoch", -1);
    st_.badEpochs = util::jsonInt(j, "bad_epochs", 0);
    st_.oomRecoveries = util::jsonInt(j, "oom_recoveries", 0);
    st_.step = util::jsonInt64(j, "step", 0);
    st_.lossScale = j.value("loss_scale", 65536.0);
    for (const auto& h : j.value("history", json::array()))
        st_.history.push_back(metricsFromJson(h));
    torch::Tensor rng;
    if (ar.try_read("rng", rng))
        compat::setCpuRngState(rng);
    if (scaler_.enabled)
        scaler_.scale.fill_(st_.lossScale);
    ev_.notice("resumed", "continuing after epoch " + std::to_string(st_.epochsDone) + " from " +
                              o_.resumeFrom);
    return Status::ok();
}

/// Best model (when improved), history and checkpoint of a finished epoch; early stopping
/// counts the epochs without improvement.
Status Trainer::recordEpoch(EpochMetrics& m)
{
    m.improved = m.score > st_.bestScore;
    if (m.improved) {
        st_.bestScore = m.score;
        st_.bestEpoch = m.epoch;
        st_.badEpochs = 0;
        if (Status s = saveBestModel(m); !s)
            return s;
        res_.best = m;
        res_.bestEpoch = m.epoch;
    } else {
        ++st_.badEpochs;
    }
    st_.history.push_back(m);
    res_.history = st_.history;
    st_.epochsDone = m.epoch + 1;
    return saveCheckpoint(res_.checkpointPath, model_, *opt_, st_, o_);
}

/// The model file carries the threshold the validation chose and the metrics it was chosen by.
Status Trainer::saveBestModel(const EpochMetrics& m)
{
    ModelInfo& info = model_.info();
    info.threshold = o_.task == TaskKind::Segment   ? (m.bestThreshold > 0 ? m.bestThreshold : 0.5)
                     : o_.task == TaskKind::Anomaly ? m.anomalyThreshold
                                                    : 0.5;
    info.metricsJson = util::dumpJson(metricsJson(m));
    info.trainedAt = utcNow();
    Status saved = model_.save(o_.outPath);
    modelWritten_ = modelWritten_ || saved.isOk();
    return saved;
}

} // namespace fisura::train_detail
