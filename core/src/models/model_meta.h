// Model metadata (the JSON stored in a Fisura model file) and the JSON sidecar of an imported
// TorchScript module: text in, ModelInfo out. Plain C++ so it can be tested and fuzzed alone.
#pragma once

#include <cstdint>
#include <string>

#include "fisura/model.h"
#include "fisura/status.h"

namespace fisura::models
{

/// The metadata JSON Fisura stores beside the weights (indent < 0: compact).
std::string metadataOf(const ModelInfo& i, int indent);
/// Parses metadataOf's JSON into `i`; Corrupt / Unsupported with a reason when it is not Fisura's.
Status infoFromJson(const std::string& text, ModelInfo& i);
/// Ranges a model's metadata must keep (infoFromJson refuses others before any network is built):
/// the trainer's own limits with room to spare, small enough that no arithmetic on them overflows.
constexpr int kMaxInputSize = 4096, kMinInputSize = 16;
constexpr int kMaxDepth = 8;    ///< 0 = from the input size
constexpr int kMaxWidth = 1024; ///< channels of the first level
constexpr int kMaxClasses = 4096;
constexpr int kMaxFeatureDim = 1024, kMaxPatchRadius = 7;
constexpr int kMaxTile = 65536;
constexpr uint64_t kMaxSidecarBytes = 1 << 20; ///< a TorchScript module's JSON sidecar

/// Bytes of every tensor (parameters and buffers) of the network `c` describes, as the model file
/// stores them: computed from the configuration alone, so a file whose metadata promises more
/// than the file holds is refused before the network is allocated. Equals the sum of
/// nbytes() over the state of makeNetwork(c) (tst_modelfile checks it).
uint64_t networkBytes(const ModelConfig& c);
/// Number of autoencoder downsamplings for an input size (code of 8-16 px).
int autoencoderDepth(int inputSize);
/// Patch-gaussian: feature map edge for an input size, feature channels before the random
/// selection, and d as the model uses it (at most the raw channels).
int patchBaseWidth(const ModelConfig& c); ///< CNN features: channels of the first stage
int patchGridSize(const ModelConfig& c);
int patchRawChannels(const ModelConfig& c);
int patchFeatureDim(const ModelConfig& c);

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
