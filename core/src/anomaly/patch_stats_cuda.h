// Fisura's CUDA kernels for per-position Gaussian statistics (patch_stats_cuda.cu). Plain CUDA
// runtime interface, no torch: the caller passes contiguous float32 device buffers and a stream.
// Return values are cudaError_t codes (0 = success).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace fisura::anomaly::cuda
{

/// Whether the one-block-per-position kernel handles T samples of dimension d on the current
/// device (d <= 64 and the block's shared memory fits).
bool kernelsFit(int64_t T, int64_t d);

const char* errorString(int err);

/// frames [T, C, H, W]; patches of radius r with replicate borders, d = C (2r+1)^2.
/// mean [H W, d], out [H W, d, d] (precision, or W = L^-1 when cholesky), rho [H W].
/// shrinkage: 0 none, 1 PACO, 2 Ledoit-Wolf (the order of anomaly::Shrinkage).
int statsFromFrames(const float* frames, int64_t T, int64_t C, int64_t H, int64_t W, int radius,
                    int shrinkage, bool cholesky, float* mean, float* out, float* rho,
                    cudaStream_t stream);

/// samples [N, T, d]; same outputs for N positions.
int statsFromSamples(const float* samples, int64_t N, int64_t T, int64_t d, int shrinkage,
                     bool cholesky, float* mean, float* out, float* rho, cudaStream_t stream);

} // namespace fisura::anomaly::cuda
