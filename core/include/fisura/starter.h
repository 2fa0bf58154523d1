// Fisura's starter crack model, and what a model file says about where it came from.
//
// The starter model is a U-Net trained only on data whose result Fisura may redistribute
// (Fisura's own procedural scenes and GPL-3.0 data such as UAV75; recipe:
// tests/bench/starter/train_starter.sh). Analyze and `fisura-cli infer` use it when no other
// model is chosen, and training starts from it by default for segmentation (fine-tuning).
// Its metadata carries a provenance record: what it was trained on, its licence, the recipe,
// seed and commit, and its held-out scores.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fisura/model.h"
#include "fisura/status.h"

namespace fisura
{

/// The file name of the starter model in every folder below.
constexpr const char* kStarterModelFile = "starter-crack-unet.fisura";

/// Folders searched for the starter model, in order. When the environment variable
/// FISURA_MODELS is set (even to an empty or missing folder), it alone. Otherwise: beside the
/// running executable's installation, <prefix>/share/fisura/models and
/// <prefix>/share/fisura-cli/models (<prefix> = the executable's folder's parent; each Debian
/// package installs its own copy), then the source tree's resources/models (a build that has
/// not been installed).
std::vector<std::string> starterModelSearchPath();

/// The starter model's path, or "" when no searched folder has it.
std::string findStarterModel();

/// One held-out score of a model: the crack protocol (fisura/evaluate.h) on a data set the
/// model was never trained on.
struct ModelScore {
    std::string dataset; ///< as the data set calls itself: "DeepCrack/test", "CrackForest"
    int images = 0;
    int tolerancePx = 2;
    double odsF1 = -1, oisF1 = -1, miou = -1; ///< -1: not measured
};

/// Where a model came from: ModelInfo::provenanceJson, parsed. Fields are data (names, SPDX
/// identifiers, numbers), not sentences: a user interface words them itself.
struct ModelProvenance {
    bool present = false; ///< the file has a provenance record
    std::string name;     ///< "starter-crack-unet"
    bool starter = false; ///< Fisura's starter model
    std::string licence;  ///< SPDX identifier of the weights' licence ("GPL-3.0-or-later")
    /// Data sets trained on, by identifier: "fisura-procedural" (Fisura's generator), else a
    /// data set's own name ("UAV75").
    std::vector<std::string> trainedOn;
    std::string recipe; ///< the script that makes it, relative to the source tree
    std::string commit; ///< source commit of the program that trained it
    uint64_t seed = 0;
    std::vector<ModelScore> scores;
    /// A fine-tuned model: the model it started from (its provenance name and licence).
    std::string startedFrom, startedFromLicence;
};

/// Parses ModelInfo::provenanceJson; present = false when there is none (or it is not an
/// object). Unknown keys are ignored; malformed known ones are left at their defaults.
ModelProvenance provenanceOf(const ModelInfo& info);

/// Rewrites the provenance record of a Fisura model file (atomically; the weights are
/// untouched). `json` must be a JSON object. Errors: NotFound, Corrupt, InvalidArgument (not
/// an object), Unsupported (a TorchScript module).
Status setModelProvenance(const std::string& modelPath, const std::string& json);

} // namespace fisura
