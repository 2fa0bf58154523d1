// See unet_infer.h.
#include "compat/torch_compat.h"

#include <atomic>

#include "fisura/infer.h"
#include "fisura/testing.h"
#include "models/unet_infer.h"

#ifdef FISURA_BNRELU_KERNELS
#include "models/kernel_types.h"
#include "models/unet_infer_cuda.h"
#endif

namespace fisura::models
{

namespace
{
std::atomic<bool> g_enabled{true};

} // namespace

bool unetInferenceKernelsBuilt()
{
#ifdef FISURA_BNRELU_KERNELS
    return true;
#else
    return false;
#endif
}

bool unetInferenceKernelsEnabled()
{
    return unetInferenceKernelsBuilt() && g_enabled.load();
}

void setUNetInferenceKernelsEnabled(bool enabled)
{
    g_enabled.store(enabled);
}

torch::Tensor maxPool2(const torch::Tensor& x, bool training)
{
#ifdef FISURA_BNRELU_KERNELS
    cuda::DType t;
    if (!training && unetInferenceKernelsEnabled() && x.is_cuda() && x.dim() == 4 &&
        !x.requires_grad() && x.size(2) >= 2 && x.size(3) >= 2 &&
        x.is_contiguous(torch::MemoryFormat::ChannelsLast) && kernelDType(x.scalar_type(), t)) {
        const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
        auto y = at::empty({N, C, H / 2, W / 2}, x.options(), torch::MemoryFormat::ChannelsLast);
        checkKernel(cuda::maxPool2Nhwc(t, x.data_ptr(), N, H, W, C, y.data_ptr(), currentStream(x)),
                    "max pooling kernel");
        return y;
    }
#else
    (void)training;
#endif
    return torch::max_pool2d(x, 2);
}

torch::Tensor upConcat(const torch::Tensor& skip, const torch::Tensor& x,
                       const torch::nn::ConvTranspose2dImpl& up, std::vector<torch::Tensor>& cache)
{
#ifdef FISURA_BNRELU_KERNELS
    const auto type = compat::cudaAutocastEnabled() ? compat::cudaAutocastType() : x.scalar_type();
    cuda::DType t;
    if (!unetInferenceKernelsEnabled() || !x.is_cuda() || !skip.is_cuda() || x.dim() != 4 ||
        skip.dim() != 4 || skip.scalar_type() != type || x.requires_grad() ||
        !skip.is_contiguous(torch::MemoryFormat::ChannelsLast) || !kernelDType(type, t))
        return {};
    if (cache.size() != 2 || cache[0].scalar_type() != type ||
        cache[0].device() != up.weight.device()) {
        torch::NoGradGuard noGrad;
        cache = {up.weight.to(type).contiguous(torch::MemoryFormat::ChannelsLast),
                 up.bias.defined() ? up.bias.to(torch::kFloat).contiguous() : torch::Tensor()};
    }
    const auto& o = up.options;
    const auto* padding = std::get_if<torch::ExpandingArray<2>>(&o.padding());
    if (!padding)
        return {};
    auto u = at::conv_transpose2d(x.to(type), cache[0], {}, *o.stride(), **padding,
                                  *o.output_padding(), o.groups(), *o.dilation())
                 .contiguous(torch::MemoryFormat::ChannelsLast);
    const int64_t N = skip.size(0), Cs = skip.size(1), H = skip.size(2), W = skip.size(3);
    if (u.size(0) != N || u.size(2) != H || u.size(3) != W)
        return {};
    const int64_t Cu = u.size(1);
    auto y = at::empty({N, Cs + Cu, H, W}, skip.options(), torch::MemoryFormat::ChannelsLast);
    checkKernel(cuda::concatBiasNhwc(t, skip.data_ptr(), Cs, u.data_ptr(), Cu,
                                     cache[1].defined() ? cache[1].data_ptr<float>() : nullptr,
                                     N * H * W, y.data_ptr(), currentStream(x)),
                "concatenation kernel");
    return y;
#else
    (void)skip;
    (void)x;
    (void)up;
    (void)cache;
    return {};
#endif
}

} // namespace fisura::models

namespace fisura
{
void testing::setUNetInferenceKernels(bool enabled)
{
    models::setUNetInferenceKernelsEnabled(enabled);
}
} // namespace fisura
