// The patch-gaussian anomaly model (internal; the facade is fisura/model.h): PaDiM's per-position
// Gaussian of patch features (Defard et al., "PaDiM: a Patch Distribution Modeling Framework for
// Anomaly Detection and Localization", ICPR 2020), with features from the first stages of a small
// seeded random CNN (no pretrained weights) or raw gray patches, reduced to d channels by a
// seeded random channel selection as PaDiM does. The statistics (mean, shrunk inverse covariance)
// come from anomaly/patch_stats.h; they live in buffers, so the model file holds them.
#pragma once

#include "compat/torch_compat.h"

#include "anomaly/patch_stats.h"
#include "fisura/model.h"
#include "models/model_meta.h"

namespace fisura::models
{

// patchGridSize, patchRawChannels, patchFeatureDim: models/model_meta.h (plain arithmetic).

struct PatchGaussianImpl : torch::nn::Module {
    explicit PatchGaussianImpl(const ModelConfig& c);

    /// Normalised input [B,3,S,S] -> features [B,d,g,g] (float32).
    torch::Tensor features(const torch::Tensor& x);
    /// Mahalanobis distance per feature position [B,g,g], in float32 whatever the autocast.
    torch::Tensor distances(const torch::Tensor& features);
    /// Score map at the input resolution [B,1,S,S]: the distances, bilinearly upsampled.
    torch::Tensor forward(const torch::Tensor& x);

    /// Statistics from a fit: mean [N,d], precision [N,d,d] (N = positions, 1 when pooled).
    void setStatistics(const anomaly::PatchStats& st);
    /// Whether the loaded buffers have the shapes the configuration implies (a model file is
    /// refused otherwise).
    bool consistent() const;
    /// Features as the accumulator takes them: [B,d,g,g], or [B*g*g,d,1,1] when pooled.
    torch::Tensor forAccumulator(const torch::Tensor& features) const;

    ModelConfig config;
    int grid = 0, dim = 0;
    torch::nn::Sequential stage1{nullptr}, stage2{nullptr}, stage3{nullptr};
    torch::Tensor channels;        ///< [d] long: the selected raw channels
    torch::Tensor mean, precision; ///< statistics buffers
};
TORCH_MODULE(PatchGaussian);

} // namespace fisura::models
