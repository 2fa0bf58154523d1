// Memory-bound steps of U-Net inference as single passes (unet_infer_cuda.cu). Plain CUDA runtime
// interface, no torch: device buffers, a stream, channels-last tensors seen as rows x C with C
// contiguous. Return values are cudaError_t codes (0 = success).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "models/bn_relu_cuda.h" // DType

namespace fisura::models::cuda
{

/// 2 x 2 max pooling with stride 2 (floor at odd sizes), no indices: x [N, H, W, C] ->
/// y [N, H / 2, W / 2, C], each value the one ATen's max_pool2d picks (a NaN wins, else the first
/// maximum in row-major order), so training's backward pass finds it again in x. ATen's CUDA
/// max_pool2d always writes int64 indices as well, four times the bytes of a bf16 output.
int maxPool2Nhwc(DType t, const void* x, int64_t N, int64_t H, int64_t W, int64_t C, void* y,
                 cudaStream_t stream);

/// The decoder's concatenation with the transposed convolution's bias in the same pass:
/// y[r] = [skip[r] (Cs channels), up[r] + bias (Cu channels)] for rows r = 0 .. rows - 1.
/// `bias` (Cu floats) may be null. This replaces a bias pass over `up` and a concatenation.
int concatBiasNhwc(DType t, const void* skip, int64_t Cs, const void* up, int64_t Cu,
                   const float* bias, int64_t rows, void* y, cudaStream_t stream);

} // namespace fisura::models::cuda
