// Pieces of the training job shared by its source files (internal; the facade is
// fisura/train.h's train()).
#pragma once

#include "compat/torch_compat.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fisura/train.h"

namespace fisura::train_detail
{

/// Learning rate at `p` in [0, 1] of the whole job (by samples seen, so halving the batch after
/// an out-of-memory does not bend the schedule).
double lrAt(Schedule s, double base, double p);

/// The one JSON form of metrics and policy: results, checkpoints and model metadata share it.
nlohmann::json metricsJson(const EpochMetrics& m);
EpochMetrics metricsFromJson(const nlohmann::json& j);
nlohmann::json policyJson(const ExecutionPolicy& p);

/// Dynamic loss scaling for fp16 on ATen's amp kernels (what torch.cuda.amp.GradScaler does).
struct LossScaler {
    bool enabled = false;
    torch::Tensor scale, growthTracker, foundInf;
    void init(const torch::Device& dev);
    /// Unscale gradients in place; returns false when they overflowed (skip the step).
    bool unscale(const std::vector<torch::Tensor>& params);
    void update();
};

/// Everything a resumed job needs besides weights and optimiser moments.
struct JobState {
    int epochsDone = 0;
    int batchSize = 0;
    double bestScore = -1e300;
    int bestEpoch = -1;
    int badEpochs = 0;
    int oomRecoveries = 0;
    int64_t step = 0;
    std::vector<EpochMetrics> history;
    double lossScale = 65536.0;
};

/// Write the checkpoint (weights, optimiser moments, job state, CPU RNG) atomically.
Status saveCheckpoint(const std::string& path, Model& model, torch::optim::Optimizer& opt,
                      const JobState& st, const TrainOptions& o);

} // namespace fisura::train_detail
