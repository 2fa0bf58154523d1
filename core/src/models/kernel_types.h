// What the wrappers of Fisura's CUDA kernels (bn_relu.cpp, unet_infer.cpp, unet_train.cpp) share:
// the kernels' element type (bn_relu_cuda.h's DType) for a LibTorch tensor type, the current
// stream, and a failed launch as LibTorch's error. CUDA kernel builds only (FISURA_BNRELU_KERNELS).
#pragma once

#include "compat/torch_compat.h"

#include <c10/cuda/CUDAStream.h>

#include "models/bn_relu_cuda.h"

namespace fisura::models
{

/// False for a type the kernels do not take (then `out` is left as it is).
inline bool kernelDType(at::ScalarType t, cuda::DType& out)
{
    switch (t) {
    case at::kBFloat16:
        out = cuda::DType::BF16;
        return true;
    case at::kHalf:
        out = cuda::DType::F16;
        return true;
    case at::kFloat:
        out = cuda::DType::F32;
        return true;
    default:
        return false;
    }
}

/// The kernels' type of a tensor whose type the caller has checked (kernelDType true).
inline cuda::DType kernelTypeOf(const torch::Tensor& t)
{
    cuda::DType d = cuda::DType::F32;
    kernelDType(t.scalar_type(), d);
    return d;
}

/// The current CUDA stream of t's device.
inline cudaStream_t currentStream(const torch::Tensor& t)
{
    return c10::cuda::getCurrentCUDAStream(t.device().index()).stream();
}

/// A failed launch (a cudaError_t code) as LibTorch's error, naming the kernel.
inline void checkKernel(int err, const char* what)
{
    TORCH_CHECK(err == 0, what, ": ", cuda::bnReluErrorString(err));
}

} // namespace fisura::models
