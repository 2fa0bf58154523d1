// The patch-gaussian anomaly model; see patch_gaussian.h.
#include "models/patch_gaussian.h"

#include <algorithm>

namespace nn = torch::nn;

namespace fisura::models
{

namespace
{

/// Autocast (CUDA and CPU) off in this scope: the Mahalanobis step runs in float32 even inside
/// an fp16/bf16 inference.
class NoAutocast
{
public:
    NoAutocast()
    {
#if FISURA_TORCH_AT_LEAST(2, 4)
        prevCuda_ = at::autocast::is_autocast_enabled(at::kCUDA);
        prevCpu_ = at::autocast::is_autocast_enabled(at::kCPU);
        at::autocast::set_autocast_enabled(at::kCUDA, false);
        at::autocast::set_autocast_enabled(at::kCPU, false);
#else
        prevCuda_ = at::autocast::is_enabled();
        prevCpu_ = at::autocast::is_cpu_enabled();
        at::autocast::set_enabled(false);
        at::autocast::set_cpu_enabled(false);
#endif
    }
    ~NoAutocast()
    {
#if FISURA_TORCH_AT_LEAST(2, 4)
        at::autocast::set_autocast_enabled(at::kCUDA, prevCuda_);
        at::autocast::set_autocast_enabled(at::kCPU, prevCpu_);
#else
        at::autocast::set_enabled(prevCuda_);
        at::autocast::set_cpu_enabled(prevCpu_);
#endif
    }
    NoAutocast(const NoAutocast&) = delete;
    NoAutocast& operator=(const NoAutocast&) = delete;

private:
    bool prevCuda_ = false, prevCpu_ = false;
};

nn::Conv2d conv(int in, int out)
{
    return nn::Conv2d(
        nn::Conv2dOptions(in, out, 3).stride(2).padding(1).padding_mode(torch::kReflect));
}

} // namespace

PatchGaussianImpl::PatchGaussianImpl(const ModelConfig& c)
    : config(c), grid(patchGridSize(c)), dim(patchFeatureDim(c))
{
    const int w = patchBaseWidth(c);
    if (c.patchFeatures == PatchFeatures::Cnn) {
        // Leaky: a random ReLU channel may be dead for every input, and a feature without
        // variance has no inverse covariance.
        const auto act = [] { return nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.1)); };
        stage1 = register_module("stage1", nn::Sequential(conv(3, w), act()));
        stage2 = register_module("stage2", nn::Sequential(conv(w, 2 * w), act()));
        stage3 = register_module("stage3", nn::Sequential(conv(2 * w, 4 * w), act()));
        for (auto& p : parameters())
            p.set_requires_grad(false); // random features: never trained
    }
    // PaDiM's random dimensionality reduction: a seeded random choice of d raw channels.
    channels = register_buffer(
        "channels",
        std::get<0>(torch::randperm(patchRawChannels(c), torch::kLong).narrow(0, 0, dim).sort()));
    const int64_t n = c.pooledPositions ? 1 : int64_t(grid) * grid;
    mean = register_buffer("mean", torch::zeros({n, dim}));
    precision = register_buffer("precision", torch::zeros({n, dim, dim}));
}

torch::Tensor PatchGaussianImpl::features(const torch::Tensor& x)
{
    torch::Tensor raw;
    if (config.patchFeatures == PatchFeatures::Cnn) {
        // PaDiM concatenates the stages of a CNN at the resolution of the first one.
        const auto a = stage1->forward(x);
        const auto b = stage2->forward(a);
        const auto c = stage3->forward(b);
        const auto up = nn::functional::InterpolateFuncOptions()
                            .size(std::vector<int64_t>{a.size(2), a.size(3)})
                            .mode(torch::kBilinear)
                            .align_corners(false);
        raw = torch::cat({a, nn::functional::interpolate(b, up).to(a.scalar_type()),
                          nn::functional::interpolate(c, up).to(a.scalar_type())},
                         1);
    } else {
        auto gray = torch::avg_pool2d(x.to(torch::kFloat).mean(1, true), 2);
        const int r = std::max(0, config.patchRadius);
        const int64_t h = gray.size(2), w = gray.size(3);
        if (r > 0)
            gray = nn::functional::pad(
                gray, nn::functional::PadFuncOptions({r, r, r, r}).mode(torch::kReflect));
        raw =
            nn::functional::unfold(gray, nn::functional::UnfoldFuncOptions({2 * r + 1, 2 * r + 1}))
                .view({x.size(0), -1, h, w});
    }
    return raw.index_select(1, channels).to(torch::kFloat).contiguous();
}

torch::Tensor PatchGaussianImpl::forAccumulator(const torch::Tensor& f) const
{
    if (!config.pooledPositions)
        return f;
    return f.permute({0, 2, 3, 1}).reshape({-1, f.size(1), 1, 1});
}

torch::Tensor PatchGaussianImpl::distances(const torch::Tensor& f)
{
    NoAutocast fp32;
    const anomaly::PatchStats st{mean, precision, {}};
    const auto d = anomaly::mahalanobis(forAccumulator(f.to(torch::kFloat)), st);
    return d.reshape({f.size(0), f.size(2), f.size(3)});
}

torch::Tensor PatchGaussianImpl::forward(const torch::Tensor& x)
{
    const auto d = distances(features(x)).unsqueeze(1);
    return nn::functional::interpolate(d, nn::functional::InterpolateFuncOptions()
                                              .size(std::vector<int64_t>{x.size(2), x.size(3)})
                                              .mode(torch::kBilinear)
                                              .align_corners(false));
}

bool PatchGaussianImpl::consistent() const
{
    const int64_t n = config.pooledPositions ? 1 : int64_t(grid) * grid;
    const int64_t raw = patchRawChannels(config);
    return channels.dim() == 1 && channels.size(0) == dim &&
           channels.scalar_type() == torch::kLong && channels.min().item<int64_t>() >= 0 &&
           channels.max().item<int64_t>() < raw && mean.sizes() == torch::IntArrayRef({n, dim}) &&
           precision.sizes() == torch::IntArrayRef({n, dim, dim});
}

void PatchGaussianImpl::setStatistics(const anomaly::PatchStats& st)
{
    torch::NoGradGuard ng;
    mean.copy_(st.mean.to(mean.device(), torch::kFloat).view_as(mean));
    precision.copy_(st.precision.to(precision.device(), torch::kFloat).view_as(precision));
}

} // namespace fisura::models
