// Fisura's fused BatchNorm + ReLU for training (bn_relu_cuda.cu). Plain CUDA runtime interface,
// no torch: the caller passes device buffers and a stream. Tensors are channels-last, seen as
// rows x C (rows = N H W), C contiguous. Return values are cudaError_t codes (0 = success).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace fisura::models::cuda
{

enum class DType { F32, BF16, F16 };

/// Whether the kernels take C channels of this type (C a multiple of the 16-byte vector, at most
/// 2048 bf16/f16 or 1024 f32 channels) and how many float partial sums per channel they need.
bool bnReluFits(DType t, int64_t C);
int64_t bnReluPartials(int64_t rows);

/// Forward, training mode: batch statistics of x, running statistics updated (unbiased variance,
/// `momentum`), y = max(0, (x - mean) * invstd * gamma + beta).
/// Outputs: y (same type and layout as x), saveMean / saveInvstd [C], and scale / shift [C]
/// (y = max(0, x * scale + shift)) for the backward pass. `partials`: 2 x bnReluPartials(rows) x C
/// floats of scratch.
int bnReluForward(DType t, const void* x, int64_t rows, int64_t C, const float* gamma,
                  const float* beta, float* runningMean, float* runningVar, double momentum,
                  double eps, void* y, float* saveMean, float* saveInvstd, float* scale,
                  float* shift, float* partials, cudaStream_t stream);

/// Backward: dx from dy and x (the ReLU mask is recomputed from x, scale and shift), dgamma and
/// dbeta [C]. `coef`: 3 x C floats of scratch; `partials` as in the forward pass.
int bnReluBackward(DType t, const void* dy, const void* x, int64_t rows, int64_t C,
                   const float* gamma, const float* saveMean, const float* saveInvstd,
                   const float* scale, const float* shift, void* dx, float* dgamma, float* dbeta,
                   float* coef, float* partials, cudaStream_t stream);

const char* bnReluErrorString(int err);

} // namespace fisura::models::cuda
