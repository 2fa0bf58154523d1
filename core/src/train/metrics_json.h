// The one JSON form of an epoch's metrics: training results, checkpoints, model metadata and
// project.json share it. Plain C++ (no torch), so the project code links without the trainer.
// (train/trainer.h declares the same two functions for the torch side.)
#pragma once

#include <nlohmann/json.hpp>

#include "fisura/train.h"

namespace fisura::train_detail
{

nlohmann::json metricsJson(const EpochMetrics& m);
EpochMetrics metricsFromJson(const nlohmann::json& j);

} // namespace fisura::train_detail
