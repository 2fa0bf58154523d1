// The U-Net training step's glue in Fisura's kernels (unet_train_cuda.cu, CUDA builds) as LibTorch
// autograd functions: the encoder's max pooling, whose backward pass adds the skip connection's
// gradient as it writes, and the segmentation loss. Elsewhere (the CPU, a type or layout the
// kernels do not take, or turned off) LibTorch's operators, with the same values and gradients.
#pragma once

#include "compat/torch_compat.h"

#include <utility>

namespace fisura::models
{

/// Whether this build has the kernels, and whether they are turned on (the default).
bool unetTrainingKernelsBuilt();
bool unetTrainingKernelsEnabled();
void setUNetTrainingKernelsEnabled(bool enabled);

/// The encoder level's max_pool2d(x, 2) and its skip connection (x itself) for training:
/// {pooled, skip}. The skip's gradient and the pooling's are added in the pooling's backward
/// kernel, written once, instead of a zero fill, a scatter through int64 indices and an add.
/// Inference, or where the kernels do not apply: {maxPool2(x, training), x}.
std::pair<torch::Tensor, torch::Tensor> poolWithSkip(const torch::Tensor& x, bool training);

/// The decoder level's cat({skip, up(x)}, 1) for training: the transposed convolution without its
/// bias, then one pass that writes skip and up + bias (the bias rounded to the activation type,
/// as LibTorch adds it). Its backward pass leaves the skip's gradient in place for
/// poolWithSkip's kernel and writes up's gradient and the bias gradient in one pass, instead of a
/// copy and a reduction. Where the kernels do not apply: LibTorch's modules.
torch::Tensor upConcatTraining(const torch::Tensor& skip, const torch::Tensor& x,
                               torch::nn::ConvTranspose2dImpl& up);

/// The segmentation loss of `out` (the network's logits, any float type) against `target`
/// (float, same number of values, in [0, 1]): mean BCE with logits + (1 - soft Dice), as a
/// float scalar. One pass for the sums and one for the gradient on a GPU.
torch::Tensor segmentationLoss(const torch::Tensor& out, const torch::Tensor& target);

} // namespace fisura::models
