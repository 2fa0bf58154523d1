// Per-position Gaussian statistics of patches or feature vectors: mean, shrunk covariance and
// its inverse, for every image position at once. Two users: PACO-style statistics of a stack of
// frames (Flasseur et al., "Exoplanet detection in angular differential imaging by statistical
// learning of the nonstationary patch covariances: the PACO algorithm", A&A 618, A138, 2018),
// and the PaDiM-style anomaly model (Defard et al., "PaDiM: a Patch Distribution Modeling
// Framework for Anomaly Detection and Localization", 2020), which fits one Gaussian per position
// of CNN feature maps of crack-free images and scores with the Mahalanobis distance.
//
// Internal to core (torch types): the anomaly model wraps it behind the facade. Functions throw
// std::invalid_argument for bad shapes and let LibTorch's c10::Error (out of memory, ...) pass.
#pragma once

#include <cstdint>

#include <torch/types.h>

namespace fisura::anomaly
{

/// How the sample covariance S is regularised before it is inverted.
enum class Shrinkage {
    None,      ///< C = S (needs T > d and a full-rank S)
    Paco,      ///< C = (1-rho) S + rho F, F = diag(S), rho from the PACO paper
    LedoitWolf ///< C = (1-rho) S + rho mu I, mu = tr(S)/d, rho from Ledoit & Wolf (2004)
};

struct PatchStatsOptions {
    int radius = 3; ///< patch side 2r+1 (patchStatistics only)
    Shrinkage shrinkage = Shrinkage::Paco;
    /// false: PatchStats::precision is C^-1. true: it is W = L^-1 (lower triangular, C = L L^T),
    /// so that C^-1 = W^T W and the Mahalanobis distance is |W (x - mean)|.
    bool cholesky = false;
    /// Working-memory budget of one chunk of positions. 0: from the device's free memory (CUDA),
    /// a fixed 256 MiB on the host.
    int64_t chunkBytes = 0;
    /// Use Fisura's own CUDA kernels when the shapes fit them (CUDA builds only); false forces the
    /// batched LibTorch path (for checks and comparisons).
    bool allowKernels = true;
};

/// Statistics of N positions of dimension d, on the device (and in the dtype: float32 or
/// float64) of the input.
struct PatchStats {
    torch::Tensor mean;      ///< [N, d]
    torch::Tensor precision; ///< [N, d, d]: C^-1, or W = L^-1 when choleskyFactor
    torch::Tensor rho;       ///< [N]: the shrinkage weight used (0 for Shrinkage::None)
    bool choleskyFactor = false;
    int64_t samples = 0; ///< T, the number of samples per position
};

/// Statistics of samples [N, T, d] (N positions, T samples of dimension d each; T >= 2), on any
/// device. S is the unbiased sample covariance, 1/(T-1) sum (x - m)(x - m)^T.
PatchStats gaussianStatistics(const torch::Tensor& samples, const PatchStatsOptions& options);

/// PACO statistics of a stack [T, H, W] or [T, C, H, W]: for each of the N = H*W positions the
/// patch of (2r+1)^2 pixels centred on it in every channel, d = C (2r+1)^2, feature index
/// c (2r+1)^2 + dy (2r+1) + dx (the order of torch's unfold). Borders: patches reaching outside
/// the image repeat the nearest edge pixel (replicate padding), so every position has a patch;
/// the repeated pixels make S singular there, which the shrinkage (Paco or LedoitWolf) repairs.
/// Positions are row-major: n = y W + x.
PatchStats patchStatistics(const torch::Tensor& stack, const PatchStatsOptions& options);

/// Streaming fit over many images: feature maps [B, d, H, W] are added batch by batch; sums are
/// kept in float64 around a shift (the first image), so finish() matches the one-shot result of
/// gaussianStatistics on all samples to float64 rounding.
class GaussianAccumulator
{
public:
    GaussianAccumulator(int64_t d, int64_t H, int64_t W, torch::Device device);
    void add(const torch::Tensor& features);
    int64_t count() const { return count_; }
    /// Statistics in float32 (float64 when every added batch was float64). Needs count() >= 2.
    PatchStats finish(const PatchStatsOptions& options) const;

    int64_t dim() const { return d_; }
    int64_t height() const { return h_; }
    int64_t width() const { return w_; }

private:
    int64_t d_, h_, w_;
    torch::Device device_;
    int64_t count_ = 0;
    bool allDouble_ = true;
    torch::Tensor shift_;  ///< [N, d] float64: the first sample of each position
    torch::Tensor sum_;    ///< [N, d]: sum of y = x - shift
    torch::Tensor outer_;  ///< [N, d, d]: sum of y y^T
    torch::Tensor norm2_;  ///< [N]: sum of |y|^2
    torch::Tensor norm4_;  ///< [N]: sum of |y|^4 (Ledoit-Wolf)
    torch::Tensor norm2y_; ///< [N, d]: sum of |y|^2 y (Ledoit-Wolf)
};

/// Mahalanobis distance sqrt((x - m)^T C^-1 (x - m)) of features [B, d, H, W] to statistics of
/// N = H*W positions -> [B, H, W], computed in chunks of positions.
torch::Tensor mahalanobis(const torch::Tensor& features, const PatchStats& stats,
                          int64_t chunkBytes = 0);

/// Bytes the statistics of a fit hold in float32 (precision N d^2, mean N d, rho N): what the
/// model needs to keep, for the "will it fit" check before fitting.
uint64_t statisticsBytes(int64_t positions, int64_t d);

/// Working bytes per position of one chunk of a fit with T samples (for chunk sizing and for
/// reporting the peak of a fit next to statisticsBytes).
uint64_t fitBytesPerPosition(int64_t T, int64_t d);

/// Whether this build has Fisura's CUDA kernels (CUDA LibTorch and a CUDA compiler at build
/// time); without them CUDA tensors take the batched LibTorch path.
bool cudaKernelsBuilt();

/// Whether a fit of T samples of dimension d on `device` (float32) runs on those kernels.
bool cudaKernelsApply(int64_t T, int64_t d, const torch::Device& device);

} // namespace fisura::anomaly
