// Fisura's U-Net training kernels (core/src/models/unet_train*) against LibTorch's operators on
// the GPU (exit status 1 when they disagree), then their time per U-Net level (batch 64, 256 px,
// width 32):
// - the encoder's max pooling with its skip connection: pooled values and the input's gradient
//   (the pooling's gradient plus the skip's, through a concatenation as in the decoder) equal
//   bit for bit, ties (ReLU's zeros), NaN and odd sizes included;
// - the decoder's concatenation with the transposed convolution's bias, under autocast as in
//   training: output and the skip's and the convolution input's gradients equal bit for bit,
//   weight and bias gradients within rounding;
// - the segmentation loss (BCE with logits + Dice): value and gradient within rounding.
//   bench_unet_train [ITERATIONS]
#include "compat/torch_compat.h"

#include <array>
#include <cstdio>
#include <cstdlib>

#include "cuda_timing.h"
#include "models/unet_train.h"

using fisura::models::poolWithSkip;
using fisura::models::segmentationLoss;
using fisura::models::setUNetTrainingKernelsEnabled;
using fisura::models::upConcatTraining;

namespace
{

const auto kCuda = torch::TensorOptions().device(torch::kCUDA);

struct PoolRun {
    torch::Tensor pooled, dx;
};

/// pooled and skip as the U-Net uses them: the skip is the first half of a concatenation that a
/// later layer reads; both gradients reach x.
PoolRun poolOnce(bool kernels, const torch::Tensor& x0, const torch::Tensor& up,
                 const torch::Tensor& dPooled, const torch::Tensor& dCat)
{
    setUNetTrainingKernelsEnabled(kernels);
    auto x = x0.detach().clone(torch::MemoryFormat::ChannelsLast).requires_grad_(true);
    auto [pooled, skip] = poolWithSkip(x, true);
    auto cat = torch::cat({skip, up}, 1);
    ((pooled.to(torch::kFloat) * dPooled).sum() + (cat.to(torch::kFloat) * dCat).sum()).backward();
    return {pooled.detach(), x.grad()};
}

bool sameBits(const torch::Tensor& a, const torch::Tensor& b)
{
    if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type())
        return false;
    const auto ai = a.contiguous().view(a.element_size() == 4 ? torch::kInt32 : torch::kInt16);
    const auto bi = b.contiguous().view(b.element_size() == 4 ? torch::kInt32 : torch::kInt16);
    return torch::equal(ai, bi);
}

/// Activations after a ReLU with many exact ties: rounded to quarters, half of them zero.
torch::Tensor reluLike(int64_t N, int64_t C, int64_t H, int64_t W, torch::ScalarType t, bool nan)
{
    auto x = (torch::randn({N, C, H, W}, kCuda) * 2).round().div(4).clamp_min(0);
    if (nan)
        x.view(-1).index_put_({torch::randint(x.numel(), {16}, kCuda.dtype(torch::kLong))},
                              std::nan(""));
    return x.to(t).contiguous(torch::MemoryFormat::ChannelsLast);
}

bool checkPool(torch::ScalarType t, int64_t N, int64_t C, int64_t H, int64_t W, bool nan)
{
    torch::manual_seed(11);
    const auto x = reluLike(N, C, H, W, t, nan);
    const auto up =
        torch::randn({N, C, H, W}, kCuda).to(t).contiguous(torch::MemoryFormat::ChannelsLast);
    const auto dPooled = torch::randn({N, C, H / 2, W / 2}, kCuda);
    const auto dCat = torch::randn({N, 2 * C, H, W}, kCuda);
    const PoolRun k = poolOnce(true, x, up, dPooled, dCat);
    const PoolRun a = poolOnce(false, x, up, dPooled, dCat);
    const bool ok = sameBits(k.pooled, a.pooled) && sameBits(k.dx, a.dx);
    std::printf("pool+skip %-9s N%-3lld C%-4lld %4lldx%-4lld nan=%d  pooled %s  dx %s  %s\n",
                c10::toString(t), (long long)N, (long long)C, (long long)H, (long long)W, nan,
                sameBits(k.pooled, a.pooled) ? "same bits" : "DIFFER",
                sameBits(k.dx, a.dx) ? "same bits" : "DIFFER", ok ? "ok" : "FAIL");
    return ok;
}

double relErr(const torch::Tensor& a, const torch::Tensor& b)
{
    const auto d = (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
    const auto s = b.to(torch::kFloat64).abs().max().item<double>();
    return d / std::max(s, 1e-12);
}

struct ConcatRun {
    torch::Tensor y, dskip, dx, dweight, dbias;
};

ConcatRun concatOnce(bool kernels, torch::ScalarType t, const torch::Tensor& skip0,
                     const torch::Tensor& x0, torch::nn::ConvTranspose2d up,
                     const torch::Tensor& dy)
{
    setUNetTrainingKernelsEnabled(kernels);
    auto skip = skip0.detach().clone(torch::MemoryFormat::ChannelsLast).requires_grad_(true);
    auto x = x0.detach().clone(torch::MemoryFormat::ChannelsLast).requires_grad_(true);
    up->zero_grad();
    torch::Tensor y;
    {
        fisura::compat::CudaAutocast ac(t != torch::kFloat32, t);
        y = upConcatTraining(skip.to(t), x, *up);
    }
    (y.to(torch::kFloat) * dy).sum().backward();
    return {y.detach(), skip.grad(), x.grad(), up->weight.grad().clone(), up->bias.grad().clone()};
}

bool checkConcat(torch::ScalarType t, int64_t N, int64_t Cin, int64_t Cout, int64_t S)
{
    torch::manual_seed(3);
    torch::nn::ConvTranspose2d up(torch::nn::ConvTranspose2dOptions(Cin, Cout, 2).stride(2));
    up->to(torch::kCUDA);
    const auto x =
        torch::randn({N, Cin, S, S}, kCuda).contiguous(torch::MemoryFormat::ChannelsLast);
    const auto skip = torch::randn({N, Cout, 2 * S, 2 * S}, kCuda).to(t).to(torch::kFloat);
    const auto dy = torch::randn({N, 2 * Cout, 2 * S, 2 * S}, kCuda);
    const ConcatRun k = concatOnce(true, t, skip, x, up, dy);
    const ConcatRun a = concatOnce(false, t, skip, x, up, dy);
    const double tol = t == torch::kFloat32 ? 1e-4 : 2e-2;
    const double ew = relErr(k.dweight, a.dweight), eb = relErr(k.dbias, a.dbias);
    const bool same = sameBits(k.y, a.y) && sameBits(k.dskip, a.dskip);
    const double ex = relErr(k.dx, a.dx);
    const bool ok = same && ex < tol && ew < tol && eb < tol;
    std::printf("concat    %-9s N%-3lld %lld->%lld %4lldx%-4lld y, dskip %s  dx %.1e  dweight %.1e "
                " dbias %.1e  %s\n",
                c10::toString(t), (long long)N, (long long)Cin, (long long)Cout, (long long)S,
                (long long)S, same ? "same bits" : "DIFFER", ex, ew, eb, ok ? "ok" : "FAIL");
    return ok;
}

struct LossRun {
    torch::Tensor loss, dz;
};

LossRun lossOnce(bool kernels, const torch::Tensor& z0, const torch::Tensor& target, double g)
{
    setUNetTrainingKernelsEnabled(kernels);
    auto z = z0.detach().clone().requires_grad_(true);
    auto loss = segmentationLoss(z, target);
    (loss * g).backward();
    return {loss.detach(), z.grad()};
}

bool checkLoss(torch::ScalarType t, int64_t N, int64_t S, double g)
{
    torch::manual_seed(5);
    const auto z = (torch::randn({N, 1, S, S}, kCuda) * 4).to(t);
    const auto target = (torch::rand({N, 1, S, S}, kCuda) < 0.05).to(torch::kFloat);
    const LossRun k = lossOnce(true, z, target, g), a = lossOnce(false, z, target, g);
    const double el = relErr(k.loss, a.loss), ed = relErr(k.dz, a.dz);
    const double tol = t == torch::kFloat32 ? 1e-5 : 1e-2;
    const bool ok = el < 1e-5 && ed < tol;
    std::printf("loss      %-9s N%-3lld %4lldx%-4lld grad x%-6g loss %.6f / %.6f (%.1e)  dz %.1e  "
                "%s\n",
                c10::toString(t), (long long)N, (long long)S, (long long)S, g,
                k.loss.item<double>(), a.loss.item<double>(), el, ed, ok ? "ok" : "FAIL");
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (!torch::cuda::is_available()) {
        std::printf("bench_unet_train: no CUDA device\n");
        return 0;
    }
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 50;
    bool ok = true;
    for (auto t : {torch::kBFloat16, torch::kFloat32, torch::kHalf}) {
        for (auto [n, c, h, w] : {std::array<int64_t, 4>{4, 32, 32, 32},
                                  {2, 64, 33, 35},
                                  {3, 3, 17, 16},
                                  {1, 256, 2, 3},
                                  {64, 32, 64, 64}})
            for (bool nan : {false, true})
                ok = checkPool(t, n, c, h, w, nan) && ok;
        for (auto [n, cin, cout, sz] : {std::array<int64_t, 4>{4, 64, 32, 16},
                                        {2, 512, 256, 8},
                                        {3, 6, 3, 5},
                                        {64, 64, 32, 128}})
            ok = checkConcat(t, n, cin, cout, sz) && ok;
        ok = checkLoss(t, 4, 64, 1.0) && ok;
        ok = checkLoss(t, 64, 256, 1.0) && ok;
        ok = checkLoss(t, 3, 33, 1024.0) && ok; // a scaled loss, as with fp16's gradient scaler
    }

    std::printf("\n| level (bf16, channels-last) | ATen pool + add ms | kernel ms | speed-up |\n"
                "|---|---:|---:|---:|\n");
    double ta = 0, tk = 0;
    for (int level = 0; level < 4; ++level) {
        const int64_t C = 32 << level, S = 256 >> level;
        const auto x0 = reluLike(64, C, S, S, torch::kBFloat16, false);
        const auto up = torch::randn_like(x0);
        const auto dPooled = torch::randn({64, C, S / 2, S / 2}, kCuda.dtype(torch::kBFloat16))
                                 .contiguous(torch::MemoryFormat::ChannelsLast);
        const auto dCat = torch::randn({64, 2 * C, S, S}, kCuda.dtype(torch::kBFloat16))
                              .contiguous(torch::MemoryFormat::ChannelsLast);
        auto x = x0.detach().requires_grad_(true);
        auto step = [&] {
            auto [pooled, skip] = poolWithSkip(x, true);
            auto cat = torch::cat({skip, up}, 1);
            torch::autograd::grad({pooled, cat}, {x}, {dPooled, dCat});
        };
        setUNetTrainingKernelsEnabled(false);
        const double a = fisura::bench::cudaTimeMs(step, iterations);
        setUNetTrainingKernelsEnabled(true);
        const double k = fisura::bench::cudaTimeMs(step, iterations);
        ta += a;
        tk += k;
        std::printf("| 64 x %lld x %lld x %lld | %.3f | %.3f | %.2fx |\n", (long long)C,
                    (long long)S, (long long)S, a, k, a / k);
    }
    std::printf("\nPer training step, pooling + concatenation forward and backward: ATen %.2f ms, "
                "kernels %.2f ms\n",
                ta, tk);
    std::printf("\n| decoder level (bf16 autocast) | ATen convolution + bias + cat ms | kernels ms "
                "| speed-up |\n|---|---:|---:|---:|\n");
    double ca = 0, ck = 0;
    for (int level = 0; level < 4; ++level) {
        const int64_t C = 32 << level, S = 256 >> level;
        torch::nn::ConvTranspose2d up(torch::nn::ConvTranspose2dOptions(2 * C, C, 2).stride(2));
        up->to(torch::kCUDA);
        auto x = torch::randn({64, 2 * C, S / 2, S / 2}, kCuda.dtype(torch::kBFloat16))
                     .contiguous(torch::MemoryFormat::ChannelsLast)
                     .requires_grad_(true);
        auto skip = torch::randn({64, C, S, S}, kCuda.dtype(torch::kBFloat16))
                        .contiguous(torch::MemoryFormat::ChannelsLast)
                        .requires_grad_(true);
        const auto dy = torch::randn({64, 2 * C, S, S}, kCuda.dtype(torch::kBFloat16))
                            .contiguous(torch::MemoryFormat::ChannelsLast);
        auto step = [&] {
            fisura::compat::CudaAutocast ac(true, torch::kBFloat16);
            auto y = upConcatTraining(skip, x, *up);
            torch::autograd::grad({y}, {skip, x, up->weight, up->bias}, {dy});
        };
        setUNetTrainingKernelsEnabled(false);
        const double a = fisura::bench::cudaTimeMs(step, iterations);
        setUNetTrainingKernelsEnabled(true);
        const double k = fisura::bench::cudaTimeMs(step, iterations);
        ca += a;
        ck += k;
        std::printf("| 64 x %lld x %lld x %lld | %.3f | %.3f | %.2fx |\n", (long long)(2 * C),
                    (long long)S, (long long)S, a, k, a / k);
    }
    std::printf("\nPer training step, the decoder's transposed convolutions and concatenations: "
                "ATen %.2f ms, kernels %.2f ms\n",
                ca, ck);
    {
        const auto z0 = torch::randn({64, 1, 256, 256}, kCuda).to(torch::kBFloat16);
        const auto target = (torch::rand({64, 1, 256, 256}, kCuda) < 0.05).to(torch::kFloat);
        auto z = z0.detach().requires_grad_(true);
        auto step = [&] { torch::autograd::grad({segmentationLoss(z, target)}, {z}); };
        setUNetTrainingKernelsEnabled(false);
        const double a = fisura::bench::cudaTimeMs(step, iterations);
        setUNetTrainingKernelsEnabled(true);
        const double k = fisura::bench::cudaTimeMs(step, iterations);
        std::printf("Loss forward and backward (64 x 256 x 256 bf16 logits): ATen %.3f ms, kernels "
                    "%.3f ms (%.2fx)\n",
                    a, k, a / k);
    }
    return ok ? 0 : 1;
}
