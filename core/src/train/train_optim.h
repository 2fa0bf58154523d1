// The optimiser step and gradient clipping without a host synchronisation, on every parameter
// at once (internal).
//
// torch::optim::AdamW::step() launches about ten small kernels per parameter tensor, and
// torch::nn::utils::clip_grad_norm_() reads the norm back to the host (`.item()`), which makes
// the CPU wait for the GPU once per step. Here the same arithmetic runs as multi-tensor
// (`_foreach_*`) ops, or as ATen's fused Adam kernel on CUDA (what PyTorch's
// `torch.optim.AdamW(fused=True)` / `foreach=True` use), and clipping scales the gradients by a
// factor that stays on the device. The moments live in the torch::optim::AdamW object as before,
// so checkpoints, resume and the learning-rate schedule are unchanged.
#pragma once

#include "compat/torch_compat.h"

#include <vector>

namespace fisura::train_detail
{

/// How the optimiser step runs (shown in the policy's choices).
enum class AdamWKernel {
    PerTensor, ///< torch::optim::AdamW::step(): parameters without gradients, or mixed steps
    ForEach,   ///< multi-tensor _foreach_ ops (CPU and GPU)
    Fused,     ///< ATen's fused Adam kernel on CUDA, weight decay applied first (decoupled)
};
const char* adamwKernelName(AdamWKernel k); ///< "per-tensor", "foreach", "fused"

/// The kernel `step` will use for these parameters on this device.
AdamWKernel chooseAdamWKernel(const torch::Device& device);

/// One AdamW step over `params` (all of one parameter group of `opt`), equal to
/// torch::optim::AdamW::step() up to floating-point rounding order. Returns the kernel that ran
/// (PerTensor when some parameter had no gradient or the moments are at different steps).
AdamWKernel adamwStep(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params,
                      AdamWKernel kernel);

/// The fused AdamW update with the learning rate (`lr`, a 0-dim tensor) and the step count of the
/// moments (`steps`, one element per parameter, float) read from device tensors, so that a
/// captured CUDA graph replays it with each step's values. Leaves the host-side step counts alone
/// (advanceAdamWSteps does that per replay). False, with nothing launched, where it does not
/// apply (a CPU build or device, parameters without gradients, mixed steps).
bool adamwStepFromTensors(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params,
                          const torch::Tensor& lr, const torch::Tensor& steps);
/// Advances the step count of every parameter's moments by one (a replayed update); returns it.
int64_t advanceAdamWSteps(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params);

/// Scales every gradient by min(1, maxNorm / (norm + 1e-6)) like clip_grad_norm_, without
/// reading the norm back. Returns the total norm as a device scalar.
torch::Tensor clipGradNormOnDevice(const std::vector<torch::Tensor>& params, double maxNorm);

} // namespace fisura::train_detail
