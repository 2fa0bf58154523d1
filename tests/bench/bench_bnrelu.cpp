// Fisura's fused BatchNorm + ReLU (core/src/models/bn_relu*) against LibTorch's BatchNorm2d +
// ReLU on the GPU: outputs, gradients and running statistics agree (exit status 1 when they do
// not), then forward + backward time per U-Net level shape (batch 64, 256 px, width 32).
//   bench_bnrelu [ITERATIONS]
#include "compat/torch_compat.h"

#include <cstdio>
#include <cstdlib>

#include "cuda_timing.h"
#include "models/bn_relu.h"

namespace nn = torch::nn;
using fisura::models::bnRelu;
using fisura::models::fusedBnReluApplies;
using fisura::models::setFusedBnReluEnabled;

namespace
{

struct Run {
    torch::Tensor y, dx, dgamma, dbeta, runningMean, runningVar;
};

Run runOnce(bool fused, const torch::Tensor& x0, const torch::Tensor& dy, nn::BatchNorm2d bn)
{
    setFusedBnReluEnabled(fused);
    auto x = x0.detach().clone(torch::MemoryFormat::ChannelsLast).requires_grad_(true);
    bn->train();
    auto y = bnRelu(x, *bn);
    y.backward(dy);
    return {y.detach(),
            x.grad(),
            bn->weight.grad().clone(),
            bn->bias.grad().clone(),
            bn->running_mean.clone(),
            bn->running_var.clone()};
}

double relErr(const torch::Tensor& a, const torch::Tensor& b)
{
    const auto d = (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
    const auto s = b.to(torch::kFloat64).abs().max().item<double>();
    return d / std::max(s, 1e-12);
}

bool check(torch::ScalarType t, int64_t N, int64_t C, int64_t H, int64_t W)
{
    torch::manual_seed(7);
    const auto opt = torch::TensorOptions().device(torch::kCUDA);
    auto x = (torch::randn({N, C, H, W}, opt) * 2 + 3)
                 .to(t)
                 .contiguous(torch::MemoryFormat::ChannelsLast);
    auto dy = torch::randn({N, C, H, W}, opt).to(t).contiguous(torch::MemoryFormat::ChannelsLast);
    nn::BatchNorm2d a(C), b(C);
    a->to(torch::kCUDA);
    {
        torch::NoGradGuard ng;
        a->weight.uniform_(0.5, 1.5);
        a->bias.uniform_(-0.5, 0.5);
    }
    b->to(torch::kCUDA);
    {
        torch::NoGradGuard ng;
        b->weight.copy_(a->weight);
        b->bias.copy_(a->bias);
    }
    setFusedBnReluEnabled(true);
    const bool applies = fusedBnReluApplies(x, *a);
    const Run f = runOnce(true, x, dy, a), e = runOnce(false, x, dy, b);
    const double tol = t == torch::kFloat32 ? 1e-4 : 3e-2;
    const double ey = relErr(f.y, e.y), edx = relErr(f.dx, e.dx), eg = relErr(f.dgamma, e.dgamma),
                 eb = relErr(f.dbeta, e.dbeta), em = relErr(f.runningMean, e.runningMean),
                 ev = relErr(f.runningVar, e.runningVar);
    const bool ok = ey < tol && edx < tol && eg < tol && eb < tol && em < 1e-4 && ev < 1e-3;
    std::printf("check %-9s N%-3lld C%-4lld %4lldx%-4lld fused=%d  y %.1e  dx %.1e  dgamma %.1e  "
                "dbeta %.1e  running mean %.1e var %.1e  %s\n",
                c10::toString(t), (long long)N, (long long)C, (long long)H, (long long)W, applies,
                ey, edx, eg, eb, em, ev, ok ? "ok" : "FAIL");
    return ok;
}

double timeMs(bool fused, const torch::Tensor& x0, const torch::Tensor& dy, nn::BatchNorm2d bn,
              int iterations)
{
    setFusedBnReluEnabled(fused);
    auto x = x0.detach().requires_grad_(true);
    bn->train();
    return fisura::bench::cudaTimeMs([&] { bnRelu(x, *bn).backward(dy); }, iterations);
}

} // namespace

int main(int argc, char** argv)
{
    if (!torch::cuda::is_available()) {
        std::printf("bench_bnrelu: no CUDA device\n");
        return 0;
    }
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 50;
    bool ok = true;
    for (auto t : {torch::kBFloat16, torch::kFloat32, torch::kHalf})
        for (auto [n, c, h, w] : {std::array<int64_t, 4>{4, 32, 33, 17},
                                  {2, 64, 16, 16},
                                  {3, 512, 5, 7},
                                  {8, 24, 64, 64},
                                  {64, 32, 64, 64},
                                  {1, 2048, 3, 3}})
            ok = check(t, n, c, h, w) && ok;
    std::printf("\n| level tensor (bf16, channels-last) | eager ms | fused ms | speed-up |\n"
                "|---|---:|---:|---:|\n");
    double te = 0, tf = 0;
    for (int level = 0; level <= 4; ++level) {
        const int64_t C = 32 << level, S = 256 >> level;
        const auto opt = torch::TensorOptions().device(torch::kCUDA);
        auto x = torch::randn({64, C, S, S}, opt)
                     .to(torch::kBFloat16)
                     .contiguous(torch::MemoryFormat::ChannelsLast);
        auto dy = torch::randn_like(x);
        nn::BatchNorm2d bn(C);
        bn->to(torch::kCUDA);
        const double e = timeMs(false, x, dy, bn, iterations);
        const double f = timeMs(true, x, dy, bn, iterations);
        // A U-Net level has four BatchNorm + ReLU (two down, two up); the bottom has two.
        const int count = level == 4 ? 2 : 4;
        te += e * count;
        tf += f * count;
        std::printf("| 64 x %lld x %lld x %lld | %.3f | %.3f | %.2fx |\n", (long long)C,
                    (long long)S, (long long)S, e, f, e / f);
    }
    std::printf("\nPer training step (the U-Net's 18 BatchNorm + ReLU): eager %.2f ms, fused %.2f "
                "ms\n",
                te, tf);
    return ok ? 0 : 1;
}
