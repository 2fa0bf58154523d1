// The U-Net training step's glue as single passes (unet_train_cuda.cu): the encoder's 2 x 2 max
// pooling whose backward pass adds the skip connection's gradient as it writes, and the
// segmentation loss (BCE with logits + Dice) in two passes. Plain CUDA runtime interface, no
// torch: device buffers, a stream, channels-last tensors seen as rows x C with C contiguous.
// Return values are cudaError_t codes (0 = success).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "models/bn_relu_cuda.h" // DType

namespace fisura::models::cuda
{

/// The backward pass of maxPool2Nhwc (unet_infer_cuda.h) for an x that also feeds a skip
/// connection: dx = dskip + (the window's gradient dy at the pixel the forward pass picked, 0
/// elsewhere), added in float and rounded once, as autograd's sum of the two gradients is. `dskip`
/// (may be null: then 0) is [N, H, W, C] with rows `skipRowStride` elements apart (the skip's
/// channels in a wider concatenation's gradient); dy [N, H / 2, W / 2, C] and dx [N, H, W, C] are
/// dense. Pixels of an odd last row or column belong to no window: dx = dskip there.
int maxPool2SkipBackwardNhwc(DType t, const void* x, const void* dy, const void* dskip,
                             int64_t skipRowStride, int64_t N, int64_t H, int64_t W, int64_t C,
                             void* dx, cudaStream_t stream);

/// Whether concatGradNhwc takes Cs + Cu channels of this type: at most 256 16-byte vectors on
/// up's side (both counts multiples of the vector, buffers aligned), else 256 single values.
bool concatGradFits(DType t, int64_t Cs, int64_t Cu);
/// Blocks (and rows of float partial sums, Cu each) concatGradNhwc uses for `rows` rows.
int64_t concatGradPartials(int64_t rows);

/// The backward pass of the decoder's [skip, up + bias] concatenation for up's side: du = the
/// last Cu of dy's Cs + Cu channels, written dense, and dbias[c] = sum of du over the rows,
/// summed in float, then double, and rounded to the type as LibTorch's bias gradient of a
/// convolution in that type is. `partials`: concatGradPartials(rows) x Cu floats of scratch.
/// (The skip's side needs no pass: it is read in place by maxPool2SkipBackwardNhwc.)
int concatGradNhwc(DType t, const void* dy, int64_t Cs, int64_t Cu, int64_t rows, void* du,
                   float* partials, float* dbias, cudaStream_t stream);

/// Float scratch the loss needs: lossPartials(n) x 4 floats.
int64_t lossPartials(int64_t n);

/// Segmentation loss of n logits z against targets t in [0, 1]: mean BCE with logits plus
/// 1 - (2 sum(p t) + 1) / (sum(p) + sum(t) + 1), p = sigmoid(z). Writes `sums` (4 floats: BCE,
/// p t, p, t summed) and `loss` (1 float) on the device; `partials` is scratch (lossPartials).
/// The same partition for every call with the same n, so the sums are reproducible.
int segLossForward(DType t, const void* z, const float* target, int64_t n, float* partials,
                   float* sums, float* loss, cudaStream_t stream);

/// dz = gradLoss * dLoss/dz from the forward pass's `sums` (gradLoss: one float on the device).
int segLossBackward(DType t, const void* z, const float* target, int64_t n, const float* sums,
                    const float* gradLoss, void* dz, cudaStream_t stream);

} // namespace fisura::models::cuda
