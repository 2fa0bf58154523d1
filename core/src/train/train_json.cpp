// JSON forms of the training results: the CLI prints them, checkpoints and model files keep them.
// The metrics of one epoch are in metrics_json.cpp (plain C++: project.json stores them too).
#include "compat/torch_compat.h"

#include <nlohmann/json.hpp>

#include "fisura/train.h"
#include "train/trainer.h"
#include "util/json_bounded.h"

using nlohmann::json;

namespace fisura
{

namespace train_detail
{

json policyJson(const ExecutionPolicy& p)
{
    return util::parseJsonOrNull<json>(
        toJson(p, -1)); // one serialization of the policy: policy.cpp's
}

} // namespace train_detail

using train_detail::metricsJson;
using train_detail::policyJson;

std::string toJson(const ExecutionPolicy& p)
{
    return util::dumpJson(policyJson(p));
}

std::string toJson(const TrainResult& r, int indent)
{
    json h = json::array();
    for (const auto& m : r.history)
        h.push_back(metricsJson(m));
    json j{{"model", r.modelPath},
           {"checkpoint", r.checkpointPath},
           {"split", r.splitPath},
           {"epochs_run", r.epochsRun},
           {"cancelled", r.cancelled},
           {"stopped_early", r.stoppedEarly},
           {"paused", r.paused},
           {"best_epoch", r.bestEpoch},
           {"best", r.bestEpoch >= 0 ? metricsJson(r.best) : json(nullptr)},
           {"final_batch_size", r.finalBatchSize},
           {"out_of_memory_recoveries", r.outOfMemoryRecoveries},
           {"seconds", r.seconds},
           {"policy", policyJson(r.policy)},
           {"notices", r.notices},
           {"history", h}};
    return util::dumpJson(j, indent);
}

} // namespace fisura
