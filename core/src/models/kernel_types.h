// The element type of Fisura's CUDA kernels (bn_relu_cuda.h's DType) for a LibTorch tensor type,
// shared by the training (bn_relu.cpp) and inference (unet_infer.cpp) kernel wrappers. CUDA
// kernel builds only (FISURA_BNRELU_KERNELS).
#pragma once

#include "compat/torch_compat.h"

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

} // namespace fisura::models
