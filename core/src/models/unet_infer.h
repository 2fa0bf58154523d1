// U-Net inference without ATen's extra passes (Fisura's kernels in unet_infer_cuda.cu, CUDA
// builds): max pooling that writes no indices, and the decoder's transposed convolution without
// its bias pass, the bias added while its output is written into the concatenation. Profiling the
// folded U-Net (tests/bench/profile_infer.py) put these at a quarter of a tile batch's kernel time
// next to the convolutions: max_pool2d_with_indices, a bias pass per transposed convolution and
// CatArrayBatchedCopy. Training and the CPU keep LibTorch's operators.
#pragma once

#include "compat/torch_compat.h"

namespace fisura::models
{

/// Whether this build has the kernels, and whether they are turned on (the default).
bool unetInferenceKernelsBuilt();
bool unetInferenceKernelsEnabled();
void setUNetInferenceKernelsEnabled(bool enabled);

/// max_pool2d(x, 2): Fisura's kernel for a CUDA channels-last tensor that needs no gradient,
/// when not `training`; LibTorch's operator otherwise.
torch::Tensor maxPool2(const torch::Tensor& x, bool training);

/// cat({skip, up(x)}, 1) for a CUDA channels-last `skip` in the autocast type (or x's type):
/// the transposed convolution without bias, then one pass writing skip and up + bias. `cache`
/// keeps the weight in that type and the bias as float. Undefined when it does not apply.
torch::Tensor upConcat(const torch::Tensor& skip, const torch::Tensor& x,
                       const torch::nn::ConvTranspose2dImpl& up, std::vector<torch::Tensor>& cache);

} // namespace fisura::models
