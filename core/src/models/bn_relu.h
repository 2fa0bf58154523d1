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

/// Inference with BatchNorm folded: relu(conv(x)) as one cuDNN call (cudnn_convolution_relu:
/// convolution, bias and ReLU fused) on a CUDA tensor, in the autocast type when autocast is on
/// (`cache` keeps the weights cast to it). Undefined when it does not apply (CPU, no bias, a
/// cuDNN without the fused path — then it is not tried again in this process).
torch::Tensor convBiasRelu(const torch::Tensor& x, const torch::nn::Conv2dImpl& conv,
                           std::vector<torch::Tensor>& cache);
/// Whether convBiasRelu is available (a CUDA build whose cuDNN took it so far, not turned off).
bool convBiasReluAvailable();
void setConvBiasReluEnabled(bool enabled);

} // namespace fisura::models
