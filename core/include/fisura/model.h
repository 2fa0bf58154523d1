// Crack models behind a pimpl: a residual classifier, a U-Net, a convolutional autoencoder and a
// patch-gaussian anomaly model (statistics of crack-free patches, no gradient training).
// A model file is one LibTorch archive holding the weights and Fisura's JSON metadata; it is
// written atomically, so a crash never leaves a broken model where a good one was.
//
// Inference can also run a TorchScript module exported from PyTorch (torch.jit.script/trace +
// save): Model::load takes it when a JSON sidecar beside it (`model.pt.json` or `model.json`)
// says what it is:
//   {"format": "fisura-torchscript", "type": "unet" | "classifier" | "autoencoder",
//    "input_size": 256, "input_channels": 3, "output": "logits" | "probabilities",
//    "normalization": {"mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]},
//    "class_names": ["cracked", "uncracked"], "threshold": 0.5, "tile": 512, "overlap": 64}
// Input is float NCHW, (x / 255 - mean) / std. Outputs: "unet" one channel per pixel,
// "classifier" one score per class, "autoencoder" the reconstruction in [0, 1]. Only type and
// input_size are required. Such models are for inference: they cannot be saved or trained.
//
// A TorchScript module is a program: loading it runs code stored in the file. Model::load
// therefore refuses one (NeedsConsent) unless ModelLoadOptions::allowTorchScript says the user
// agreed. A Fisura model file holds no code; its metadata is read and checked (value ranges,
// the size of the network it describes, the names and shapes of the stored tensors) before
// any weight is read, and a file over ModelLoadOptions::maxBytes is refused before anything is.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fisura/dataset.h"
#include "fisura/status.h"

namespace fisura
{

enum class ModelType { Classifier, UNet, Autoencoder, PatchGaussian };
/// "classifier", "unet", "autoencoder", "patch-gaussian"
const char* modelTypeName(ModelType t);
/// The default type of a task (anomaly: the autoencoder).
ModelType modelTypeFor(TaskKind task);
/// The task a model type serves (autoencoder and patch-gaussian: anomaly).
TaskKind taskForModel(ModelType t);

/// What a patch-gaussian model describes at each position of a half-resolution grid: the first
/// three stages of a small seeded random CNN (upsampled to the first stage's resolution, as
/// PaDiM does), or the raw gray pixels of a patch around it.
enum class PatchFeatures { Cnn, Pixels };
const char* patchFeaturesName(PatchFeatures f); ///< "cnn", "pixels"

struct ModelConfig {
    ModelType type = ModelType::UNet;
    int inputSize = 256; ///< square input edge (px)
    int classes = 2;     ///< classifier outputs
    int depth = 4; ///< U-Net levels / classifier stages / autoencoder downsamplings (0 = from size)
    int width = 16; ///< channels of the first level; doubles per level
    // patch-gaussian (PaDiM, Defard et al. 2020): a Gaussian of patch features of crack-free
    // images; the anomaly score is the Mahalanobis distance to it.
    PatchFeatures patchFeatures = PatchFeatures::Cnn;
    int featureDim = 32; ///< d: feature channels kept (a seeded random selection, as PaDiM)
    int patchRadius = 2; ///< Pixels: a (2r+1)^2 patch of the half-resolution gray image
    /// One Gaussian for all positions (textures, where a position means nothing) instead of
    /// one per feature-map position (PaDiM's choice for aligned objects).
    bool pooledPositions = true;
};

/// Size of a patch-gaussian model's statistics before fitting: the feature map, its positions
/// (1 when pooled), d, and the bytes of the mean and inverse covariances (positions x d^2
/// floats) and of the accumulators the fit needs.
struct PatchGaussianSize {
    int gridSize = 0;      ///< feature map edge
    int64_t positions = 0; ///< Gaussians (1 when pooled)
    int featureDim = 0;
    uint64_t modelBytes = 0; ///< mean + precision in the model file (fp32)
    uint64_t fitBytes = 0;   ///< accumulators and statistics during the fit
};
Result<PatchGaussianSize> patchGaussianSize(const ModelConfig& config);

/// Everything a model file says about itself besides the weights.
struct ModelInfo {
    ModelConfig config;
    int formatVersion = 1;
    std::string fisuraVersion;
    std::vector<float> mean{0.5f, 0.5f, 0.5f}; ///< input normalization: (x/255 - mean) / std
    std::vector<float> std{0.25f, 0.25f, 0.25f};
    std::vector<std::string> classNames; ///< classifier
    double threshold = 0.5;         ///< segmentation probability / anomaly reconstruction error
    std::string policyJson = "{}";  ///< the execution policy training used
    std::string metricsJson = "{}"; ///< final and best metrics
    std::string datasetJson = "{}"; ///< datasetSummaryJson of the training data
    std::string trainedAt;          ///< ISO 8601 UTC
    /// Tiled inference defaults (the user may override): tile edge in px, 0 = from the type and
    /// input size; overlap between neighbouring tiles in px, -1 = from the type.
    int tileSize = 0;
    int tileOverlap = -1;
    int inputChannels = 3;         ///< 3 (RGB) or 1 (gray); TorchScript models may take gray input
    std::string source = "fisura"; ///< "fisura" (own network) or "torchscript" (imported)
    /// Where the model came from (trained on, licence, recipe, scores): a JSON object, "{}"
    /// when unknown; fisura/starter.h parses it (provenanceOf).
    std::string provenanceJson = "{}";
};

/// Default ModelLoadOptions::maxBytes: 64 GiB, above any model Fisura can make. The largest
/// network the trainer offers, a U-Net of width 256 and depth 6, is 29.7 GiB of weights (and
/// training it needs four times that for weights, gradients and the two AdamW moments, more than
/// the 141 GB of the largest single GPU Fisura trains on). A patch-gaussian's statistics
/// (patchGaussianSize().modelBytes) are fitted with float64 accumulators in the memory of one
/// device, fitBytes being about three times modelBytes, and the fit is refused when they do not
/// fit: a 64 GiB statistics file would have needed 192 GiB for its fit, more than that GPU or
/// the workstations Fisura targets hold. A larger file is not a Fisura model, or one the user
/// has to allow explicitly (fisura-cli --max-model-size).
constexpr uint64_t kDefaultMaxModelBytes = uint64_t(64) << 30;

/// How Model::load treats a file it is given.
struct ModelLoadOptions {
    /// Files longer than this are refused (TooLarge) before any byte is read.
    uint64_t maxBytes = kDefaultMaxModelBytes;
    /// A TorchScript module runs code stored in the file: it loads only when this is set (the
    /// user agreed); otherwise Model::load answers NeedsConsent after checking its sidecar.
    bool allowTorchScript = false;
};

class Model
{
public:
    Model();
    ~Model();
    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;

    /// Fresh, randomly initialised (seeded) network.
    static Result<Model> create(const ModelConfig& config, uint64_t seed = 1);
    /// A Fisura model file, or a TorchScript module with its JSON sidecar (see above), with
    /// the default options: files over kDefaultMaxModelBytes and TorchScript modules refused.
    static Result<Model> load(const std::string& path);
    /// Errors: NotFound; TooLarge (over options.maxBytes, nothing read); NeedsConsent (a
    /// TorchScript module without options.allowTorchScript; its sidecar was valid); Corrupt
    /// (not a model, metadata out of range or not matching the stored tensors); Unsupported.
    static Result<Model> load(const std::string& path, const ModelLoadOptions& options);
    /// True for an imported TorchScript module (inference only).
    bool isTorchScript() const;
    /// Atomic: temporary file, flush, fsync, rename.
    Status save(const std::string& path) const;

    ModelInfo& info();
    const ModelInfo& info() const;
    int64_t parameterCount() const;
    /// Metadata as JSON text (what `save` stores next to the weights).
    std::string metadataJson(int indent = -1) const;

    struct Impl;
    Impl* impl() const { return impl_.get(); }

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace fisura
