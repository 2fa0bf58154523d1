// Checkpoints: after every epoch the checkpoint is rewritten (atomically) with the weights,
// optimiser moments, the job's counters and the CPU random state.
#include "compat/torch_compat.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "models/model_impl.h"
#include "train/trainer.h"
#include "util/atomic_file.h"

using nlohmann::json;

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
               {"batch_size", st.batchSize},
               {"best_score", st.bestScore},
               {"best_epoch", st.bestEpoch},
               {"bad_epochs", st.badEpochs},
               {"oom_recoveries", st.oomRecoveries},
               {"step", st.step},
               {"loss_scale", st.lossScale},
               {"history", h},
               {"model", json::parse(model.metadataJson())}};
        torch::serialize::OutputArchive ar, mar, oar;
        model.impl()->net->save(mar);
        opt.save(oar);
        ar.write("model", mar);
        ar.write("optimizer", oar);
        ar.write("state", c10::IValue(j.dump()));
        ar.write("rng", compat::cpuRngState());
        std::ostringstream os;
        ar.save_to(os);
        return writeFileAtomic(path, os.str());
    } catch (const c10::Error& e) {
        return Status(ErrorCode::IoError, path + ": " + e.what_without_backtrace());
    }
}

} // namespace fisura::train_detail
