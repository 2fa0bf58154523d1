// See unet_train.h. The autograd functions follow bn_relu.cpp's pattern (torch/csrc/api/include/
// torch/autograd.h's custom Function). PoolSkip returns its input as its second output: autograd
// then gives the caller a view of x whose gradient comes back to this function's backward pass
// (torch/csrc/autograd/custom_function.cpp, _wrap_outputs), so both gradients of an encoder
// output arrive in one call.
#include "compat/torch_compat.h"

#include "models/unet_train.h"

#include <atomic>

#include "fisura/testing.h"
#include "models/unet_infer.h"

#ifdef FISURA_BNRELU_KERNELS
#include <c10/cuda/CUDAGuard.h>

#include "models/kernel_types.h"
#include "models/unet_infer_cuda.h"
#include "models/unet_train_cuda.h"
#endif

namespace fisura::models
{

namespace
{
std::atomic<bool> g_trainKernels{true};

/// LibTorch's loss, the reference the kernels follow.
torch::Tensor segmentationLossOps(const torch::Tensor& out, const torch::Tensor& target)
{
    const auto logits = out.to(torch::kFloat);
    const auto bce = torch::nn::functional::binary_cross_entropy_with_logits(logits, target);
    const auto p = torch::sigmoid(logits);
    const auto dice = 1.0 - (2.0 * (p * target).sum() + 1.0) / (p.sum() + target.sum() + 1.0);
    return bce + dice;
}

#ifdef FISURA_BNRELU_KERNELS
/// The row stride (elements) of a channels-last gradient of x's shape that may be a channel
/// slice of a wider tensor (a concatenation's gradient); 0 when its layout is another.
int64_t channelSliceRowStride(const torch::Tensor& g, const torch::Tensor& x)
{
    if (g.dim() != 4 || g.sizes() != x.sizes() || g.stride(1) != 1)
        return 0;
    const int64_t r = g.stride(3), H = g.size(2), W = g.size(3);
    return r >= g.size(1) && g.stride(2) == W * r && g.stride(0) == H * W * r ? r : 0;
}

struct PoolSkipFunction : torch::autograd::Function<PoolSkipFunction> {
    static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx,
                                                  torch::Tensor x)
    {
        const c10::cuda::CUDAGuard guard(x.device());
        const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
        auto y = at::empty({N, C, H / 2, W / 2}, x.options(), torch::MemoryFormat::ChannelsLast);
        checkKernel(cuda::maxPool2Nhwc(kernelTypeOf(x), x.data_ptr(), N, H, W, C, y.data_ptr(),
                                       currentStream(x)),
                    "max pooling kernel");
        ctx->save_for_backward({x});
        return {y, x};
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor& x = saved[0];
        const c10::cuda::CUDAGuard guard(x.device());
        const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
        torch::Tensor dy = grads[0].defined() ? grads[0].to(x.scalar_type())
                                              : at::zeros({N, C, H / 2, W / 2}, x.options());
        dy = dy.contiguous(torch::MemoryFormat::ChannelsLast);
        torch::Tensor skip = grads[1];
        int64_t skipStride = C;
        if (skip.defined()) {
            skip = skip.to(x.scalar_type());
            skipStride = channelSliceRowStride(skip, x);
            if (skipStride == 0) {
                skip = skip.contiguous(torch::MemoryFormat::ChannelsLast);
                skipStride = C;
            }
        }
        auto dx = at::empty_like(x, torch::MemoryFormat::ChannelsLast);
        checkKernel(cuda::maxPool2SkipBackwardNhwc(kernelTypeOf(x), x.data_ptr(), dy.data_ptr(),
                                                   skip.defined() ? skip.data_ptr() : nullptr,
                                                   skipStride, N, H, W, C, dx.data_ptr(),
                                                   currentStream(x)),
                    "max pooling backward kernel");
        return {dx};
    }
};

struct UpConcatFunction : torch::autograd::Function<UpConcatFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor skip,
                                 torch::Tensor u, torch::Tensor bias)
    {
        const c10::cuda::CUDAGuard guard(skip.device());
        const int64_t N = skip.size(0), Cs = skip.size(1), H = skip.size(2), W = skip.size(3);
        const int64_t Cu = u.size(1);
        const auto biasAsAdded =
            bias.defined() ? bias.detach().to(u.scalar_type()).to(torch::kFloat).contiguous()
                           : torch::Tensor();
        auto y = at::empty({N, Cs + Cu, H, W}, skip.options(), torch::MemoryFormat::ChannelsLast);
        checkKernel(
            cuda::concatBiasNhwc(kernelTypeOf(skip), skip.data_ptr(), Cs, u.data_ptr(), Cu,
                                 biasAsAdded.defined() ? biasAsAdded.data_ptr<float>() : nullptr,
                                 N * H * W, y.data_ptr(), currentStream(skip)),
            "concatenation kernel");
        ctx->saved_data["skip_channels"] = Cs;
        ctx->saved_data["has_bias"] = bias.defined();
        return y;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads)
    {
        const auto dy = grads[0].contiguous(torch::MemoryFormat::ChannelsLast);
        const c10::cuda::CUDAGuard guard(dy.device());
        const int64_t Cs = ctx->saved_data["skip_channels"].toInt();
        const int64_t N = dy.size(0), Cu = dy.size(1) - Cs, H = dy.size(2), W = dy.size(3);
        auto du = at::empty({N, Cu, H, W}, dy.options(), torch::MemoryFormat::ChannelsLast);
        const auto f = dy.options().dtype(torch::kFloat);
        auto partials = at::empty({cuda::concatGradPartials(N * H * W), Cu}, f);
        auto dbias = at::empty({Cu}, f);
        checkKernel(cuda::concatGradNhwc(kernelTypeOf(dy), dy.data_ptr(), Cs, Cu, N * H * W,
                                         du.data_ptr(), partials.data_ptr<float>(),
                                         dbias.data_ptr<float>(), currentStream(dy)),
                    "concatenation backward kernel");
        const bool hasBias = ctx->saved_data["has_bias"].toBool();
        return {dy.narrow(1, 0, Cs), du, hasBias ? dbias : torch::Tensor()};
    }
};

bool upConcatApplies(const torch::Tensor& skip, const torch::Tensor& u, const torch::Tensor& bias)
{
    cuda::DType t;
    return u.scalar_type() == skip.scalar_type() && kernelDType(u.scalar_type(), t) &&
           u.dim() == 4 && u.size(0) == skip.size(0) && u.size(2) == skip.size(2) &&
           u.size(3) == skip.size(3) && skip.is_contiguous(torch::MemoryFormat::ChannelsLast) &&
           u.is_contiguous(torch::MemoryFormat::ChannelsLast) &&
           cuda::concatGradFits(t, skip.size(1), u.size(1)) &&
           (!bias.defined() || bias.scalar_type() == torch::kFloat);
}

struct SegLossFunction : torch::autograd::Function<SegLossFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor z,
                                 torch::Tensor target)
    {
        const c10::cuda::CUDAGuard guard(z.device());
        const int64_t n = z.numel();
        const auto f = z.options().dtype(torch::kFloat);
        auto partials = at::empty({cuda::lossPartials(n), 4}, f);
        auto sums = at::empty({4}, f);
        auto loss = at::empty({}, f);
        checkKernel(cuda::segLossForward(kernelTypeOf(z), z.data_ptr(), target.data_ptr<float>(), n,
                                         partials.data_ptr<float>(), sums.data_ptr<float>(),
                                         loss.data_ptr<float>(), currentStream(z)),
                    "segmentation loss kernel");
        ctx->save_for_backward({z, target, sums});
        return loss;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &z = saved[0], &target = saved[1], &sums = saved[2];
        const c10::cuda::CUDAGuard guard(z.device());
        const auto g = grads[0].to(torch::kFloat).contiguous();
        auto dz = at::empty_like(z);
        checkKernel(cuda::segLossBackward(kernelTypeOf(z), z.data_ptr(), target.data_ptr<float>(),
                                          z.numel(), sums.data_ptr<float>(), g.data_ptr<float>(),
                                          dz.data_ptr(), currentStream(z)),
                    "segmentation loss backward kernel");
        return {dz, torch::Tensor()};
    }
};

bool poolSkipApplies(const torch::Tensor& x, bool training)
{
    cuda::DType t;
    return training && unetTrainingKernelsEnabled() && x.is_cuda() && x.dim() == 4 &&
           x.requires_grad() && torch::GradMode::is_enabled() && x.size(2) >= 2 && x.size(3) >= 2 &&
           x.is_contiguous(torch::MemoryFormat::ChannelsLast) && kernelDType(x.scalar_type(), t);
}

bool segLossApplies(const torch::Tensor& z, const torch::Tensor& target)
{
    cuda::DType t;
    return unetTrainingKernelsEnabled() && z.is_cuda() && target.is_cuda() &&
           z.device() == target.device() && target.scalar_type() == torch::kFloat &&
           z.numel() == target.numel() && z.numel() > 0 && z.is_contiguous() &&
           target.is_contiguous() && kernelDType(z.scalar_type(), t);
}
#endif

} // namespace

bool unetTrainingKernelsBuilt()
{
#ifdef FISURA_BNRELU_KERNELS
    return true;
#else
    return false;
#endif
}

bool unetTrainingKernelsEnabled()
{
    return unetTrainingKernelsBuilt() && g_trainKernels.load();
}

void setUNetTrainingKernelsEnabled(bool enabled)
{
    g_trainKernels.store(enabled);
}

std::pair<torch::Tensor, torch::Tensor> poolWithSkip(const torch::Tensor& x, bool training)
{
#ifdef FISURA_BNRELU_KERNELS
    if (poolSkipApplies(x, training)) {
        auto outs = PoolSkipFunction::apply(x);
        return {outs[0], outs[1]};
    }
#endif
    return {maxPool2(x, training), x};
}

torch::Tensor upConcatTraining(const torch::Tensor& skip, const torch::Tensor& x,
                               torch::nn::ConvTranspose2dImpl& up)
{
#ifdef FISURA_BNRELU_KERNELS
    const auto& o = up.options;
    const auto* padding = std::get_if<torch::ExpandingArray<2>>(&o.padding());
    if (unetTrainingKernelsEnabled() && padding && x.is_cuda() && skip.is_cuda() &&
        skip.dim() == 4) {
        const auto u = at::conv_transpose2d(x, up.weight, {}, *o.stride(), **padding,
                                            *o.output_padding(), o.groups(), *o.dilation());
        if (upConcatApplies(skip, u, up.bias))
            return UpConcatFunction::apply(skip, u, up.bias);
        // As the module adds its bias (in the convolution's type under autocast).
        const auto withBias =
            up.bias.defined() ? u + up.bias.to(u.scalar_type()).view({1, -1, 1, 1}) : u;
        return torch::cat({skip, withBias}, 1);
    }
#endif
    return torch::cat({skip, up.forward(x)}, 1);
}

torch::Tensor segmentationLoss(const torch::Tensor& out, const torch::Tensor& target)
{
#ifdef FISURA_BNRELU_KERNELS
    if (segLossApplies(out, target))
        return SegLossFunction::apply(out, target);
#endif
    return segmentationLossOps(out, target);
}

} // namespace fisura::models

namespace fisura
{
void testing::setUNetTrainingKernels(bool enabled)
{
    models::setUNetTrainingKernelsEnabled(enabled);
}
} // namespace fisura
