// Pieces of the training job shared by its source files (internal; the facade is
// fisura/train.h's train()).
#pragma once

#include <nlohmann/json.hpp>

#include "fisura/train.h"

namespace fisura::train_detail
{

/// The one JSON form of metrics and policy: results, checkpoints and model metadata share it.
nlohmann::json metricsJson(const EpochMetrics& m);
EpochMetrics metricsFromJson(const nlohmann::json& j);
nlohmann::json policyJson(const ExecutionPolicy& p);

} // namespace fisura::train_detail
