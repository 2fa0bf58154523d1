// BatchNorm followed by ReLU in training: Fisura's fused CUDA kernels (bn_relu_cuda.cu) where
// they apply, LibTorch's BatchNorm2d and ReLU otherwise. Same outputs, gradients and running
// statistics either way (within the rounding of the activation type).
#pragma once

#include "compat/torch_compat.h"

namespace fisura::models
{

/// Whether this build has the fused kernels (a CUDA compiler next to a CUDA LibTorch).
bool fusedBnReluBuilt();
/// Turn the fused path off (or back on) for the whole process: benchmarks and tests compare both.
void setFusedBnReluEnabled(bool enabled);
bool fusedBnReluEnabled();

/// Whether the fused path takes this input: CUDA, training mode, channels-last contiguous,
/// float32 / bfloat16 / float16 with C a multiple of 8 (4 for float32) up to 2048, momentum set.
bool fusedBnReluApplies(const torch::Tensor& x, const torch::nn::BatchNorm2dImpl& bn);

/// relu(bn(x)), fused where fusedBnReluApplies, else the modules' own forward.
torch::Tensor bnRelu(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn);

} // namespace fisura::models
