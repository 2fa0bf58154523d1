// Model metadata (the JSON stored in a Fisura model file) and the JSON sidecar of an imported
// TorchScript module: text in, ModelInfo out. Plain C++ so it can be tested and fuzzed alone.
#pragma once

#include <string>

#include "fisura/model.h"
#include "fisura/status.h"

namespace fisura::models
{

/// The metadata JSON Fisura stores beside the weights (indent < 0: compact).
std::string metadataOf(const ModelInfo& i, int indent);
/// Parses metadataOf's JSON into `i`; Corrupt / Unsupported with a reason when it is not Fisura's.
Status infoFromJson(const std::string& text, ModelInfo& i);
/// The model type named `name` ("unet", "classifier", ...); false when unknown.
bool parseType(const std::string& name, ModelType& out);
/// `model.pt.json`, else `model.json`; empty when neither exists.
std::string sidecarFor(const std::string& path);
/// The sidecar of a TorchScript module into ModelInfo (see model.h for the format).
Status sidecarInfo(const std::string& sidecarPath, ModelInfo& i, bool& probabilities);
/// The same from the sidecar's text; `sidecarPath` only names it in messages.
Status sidecarInfoFromText(const std::string& text, const std::string& sidecarPath, ModelInfo& i,
                           bool& probabilities);

} // namespace fisura::models
