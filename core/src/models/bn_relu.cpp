// The fused BatchNorm + ReLU as a LibTorch autograd function (the pattern of
// torch/csrc/api/include/torch/autograd.h's custom Function): the forward pass saves x and the
// per-channel statistics; the backward pass recomputes the ReLU mask from them.
#include "compat/torch_compat.h"

#include "models/bn_relu.h"

#include "fisura/infer.h"
#include "fisura/testing.h"
#include "fisura/train.h"

#include <atomic>
#include <stdexcept>
#include <string>

#ifdef FISURA_BNRELU_KERNELS
#include "models/bn_relu_cuda.h"
#include "models/kernel_types.h"
#include <c10/cuda/CUDAGuard.h>
#endif

namespace fisura::models
{
namespace
{
std::atomic<bool> g_enabled{true};

#ifdef FISURA_BNRELU_KERNELS
const float* ptrOrNull(const torch::Tensor& t)
{
    return t.defined() ? t.data_ptr<float>() : nullptr;
}
float* mutPtrOrNull(torch::Tensor& t)
{
    return t.defined() ? t.data_ptr<float>() : nullptr;
}

struct BnReluFunction : torch::autograd::Function<BnReluFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor x,
                                 torch::Tensor weight, torch::Tensor bias,
                                 torch::Tensor runningMean, torch::Tensor runningVar,
                                 double momentum, double eps)
    {
        const c10::cuda::CUDAGuard guard(x.device());
        const int64_t C = x.size(1), rows = x.numel() / C;
        const auto f = x.options().dtype(torch::kFloat32);
        auto stats = torch::empty({4, C}, f); // mean, invstd, scale, shift
        auto partials = torch::empty({2, cuda::bnReluPartials(rows), C}, f);
        auto y = torch::empty_like(x, torch::MemoryFormat::ChannelsLast);
        checkKernel(cuda::bnReluForward(kernelTypeOf(x), x.data_ptr(), rows, C, ptrOrNull(weight),
                                        ptrOrNull(bias), mutPtrOrNull(runningMean),
                                        mutPtrOrNull(runningVar), momentum, eps, y.data_ptr(),
                                        stats[0].data_ptr<float>(), stats[1].data_ptr<float>(),
                                        stats[2].data_ptr<float>(), stats[3].data_ptr<float>(),
                                        partials.data_ptr<float>(), currentStream(x)),
                    "fused BatchNorm + ReLU");
        ctx->save_for_backward({x, stats});
        ctx->saved_data["has_weight"] = weight.defined();
        ctx->saved_data["has_bias"] = bias.defined();
        return y;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& x = saved[0];
        const torch::Tensor& stats = saved[1];
        const c10::cuda::CUDAGuard guard(x.device());
        const auto dy = grads[0].to(x.scalar_type()).contiguous(torch::MemoryFormat::ChannelsLast);
        const int64_t C = x.size(1), rows = x.numel() / C;
        const auto f = x.options().dtype(torch::kFloat32);
        auto dx = torch::empty_like(x, torch::MemoryFormat::ChannelsLast);
        auto dparams = torch::empty({2, C}, f); // dgamma, dbeta
        auto coef = torch::empty({3, C}, f);
        auto partials = torch::empty({2, cuda::bnReluPartials(rows), C}, f);
        checkKernel(cuda::bnReluBackward(
                        kernelTypeOf(x), dy.data_ptr(), x.data_ptr(), rows, C, nullptr,
                        stats[0].data_ptr<float>(), stats[1].data_ptr<float>(),
                        stats[2].data_ptr<float>(), stats[3].data_ptr<float>(), dx.data_ptr(),
                        dparams[0].data_ptr<float>(), dparams[1].data_ptr<float>(),
                        coef.data_ptr<float>(), partials.data_ptr<float>(), currentStream(x)),
                    "fused BatchNorm + ReLU backward");
        const bool hasWeight = ctx->saved_data["has_weight"].toBool();
        const bool hasBias = ctx->saved_data["has_bias"].toBool();
        return {dx,
                hasWeight ? dparams[0] : torch::Tensor(),
                hasBias ? dparams[1] : torch::Tensor(),
                torch::Tensor(),
                torch::Tensor(),
                torch::Tensor(),
                torch::Tensor()};
    }
};
#endif

} // namespace

bool fusedBnReluBuilt()
{
#ifdef FISURA_BNRELU_KERNELS
    return true;
#else
    return false;
#endif
}

void setFusedBnReluEnabled(bool enabled)
{
    g_enabled = enabled;
}

bool fusedBnReluEnabled()
{
    return g_enabled && fusedBnReluBuilt();
}

bool fusedBnReluApplies(const torch::Tensor& x, const torch::nn::BatchNorm2dImpl& bn)
{
#ifdef FISURA_BNRELU_KERNELS
    if (!g_enabled || !bn.is_training() || !x.is_cuda() || x.dim() != 4 ||
        !bn.options.momentum().has_value() || !bn.options.track_running_stats())
        return false;
    const auto t = x.scalar_type();
    if (t != torch::kFloat32 && t != torch::kBFloat16 && t != torch::kHalf)
        return false;
    const int64_t C = x.size(1);
    if (!x.is_contiguous(torch::MemoryFormat::ChannelsLast) || x.numel() / C < 2 ||
        !cuda::bnReluFits(kernelTypeOf(x), C) ||
        reinterpret_cast<uintptr_t>(x.data_ptr()) % 16 != 0)
        return false;
    if (bn.options.affine() &&
        (bn.weight.scalar_type() != torch::kFloat32 || bn.bias.scalar_type() != torch::kFloat32))
        return false;
    return bn.running_mean.scalar_type() == torch::kFloat32 && bn.running_mean.is_cuda();
#else
    (void)x;
    (void)bn;
    return false;
#endif
}

} // namespace fisura::models

namespace fisura
{
void testing::setFusedBatchNormRelu(bool enabled)
{
    models::setFusedBnReluEnabled(enabled);
}

void testing::setFusedConvRelu(bool enabled)
{
    models::setConvBiasReluEnabled(enabled);
}
} // namespace fisura

namespace fisura::models
{

torch::Tensor bnRelu(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn)
{
#ifdef FISURA_BNRELU_KERNELS
    if (fusedBnReluApplies(x, bn)) {
        bn.num_batches_tracked.add_(1);
        const double momentum = bn.options.momentum().value();
        return BnReluFunction::apply(x, bn.options.affine() ? bn.weight : torch::Tensor(),
                                     bn.options.affine() ? bn.bias : torch::Tensor(),
                                     bn.running_mean, bn.running_var, momentum, bn.options.eps());
    }
#endif
    auto y = bn.forward(x);
    return y.relu_();
}

namespace
{
std::atomic<bool> g_convReluWorks{true};
std::atomic<bool> g_convReluEnabled{true};
} // namespace

void setConvBiasReluEnabled(bool enabled)
{
    g_convReluEnabled.store(enabled);
}

bool convBiasReluAvailable()
{
#ifdef FISURA_TORCH_CUDA
    return g_convReluWorks.load() && g_convReluEnabled.load();
#else
    return false;
#endif
}

torch::Tensor convBiasRelu(const torch::Tensor& x, const torch::nn::Conv2dImpl& conv,
                           std::vector<torch::Tensor>& cache)
{
#ifdef FISURA_TORCH_CUDA
    const auto* padding = std::get_if<torch::ExpandingArray<2>>(&conv.options.padding());
    if (!convBiasReluAvailable() || !x.is_cuda() || !conv.bias.defined() || !padding ||
        conv.options.groups() != 1 || x.dim() != 4)
        return {};
    const auto type = compat::cudaAutocastEnabled() ? compat::cudaAutocastType() : x.scalar_type();
    if (cache.size() != 2 || cache[0].scalar_type() != type ||
        cache[0].device() != conv.weight.device()) {
        torch::NoGradGuard noGrad;
        const auto format = x.is_contiguous(torch::MemoryFormat::ChannelsLast)
                                ? torch::MemoryFormat::ChannelsLast
                                : torch::MemoryFormat::Contiguous;
        cache = {conv.weight.to(type).contiguous(format), conv.bias.to(type)};
    }
    try {
        const auto& st = conv.options.stride();
        const auto& di = conv.options.dilation();
        return at::cudnn_convolution_relu(x.to(type), cache[0], cache[1], {(*st)[0], (*st)[1]},
                                          {(**padding)[0], (**padding)[1]}, {(*di)[0], (*di)[1]},
                                          1);
    } catch (const c10::Error&) { // this cuDNN has no fused path for it: LibTorch's modules
        g_convReluWorks.store(false);
        return {};
    }
#else
    (void)x;
    (void)conv;
    (void)cache;
    return {};
#endif
}

} // namespace fisura::models
