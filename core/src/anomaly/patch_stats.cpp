// Batched LibTorch implementation of the per-position statistics (CPU and CUDA alike), chunked
// over positions, with dispatch to Fisura's own CUDA kernels where they fit (patch_stats_cuda.cu).
#include "compat/torch_compat.h"

#include "anomaly/patch_stats.h"
#include "anomaly/patch_stats_impl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#ifdef FISURA_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime_api.h>
#endif
#ifdef FISURA_PATCHSTATS_KERNELS
#include "anomaly/patch_stats_cuda.h"
#include <c10/cuda/CUDAStream.h>
#endif

namespace fisura::anomaly
{
namespace detail
{

torch::ScalarType workType(const torch::Tensor& t)
{
    return t.scalar_type() == torch::kFloat64 ? torch::kFloat64 : torch::kFloat32;
}

namespace
{

constexpr int64_t kHostBudget = int64_t(256) << 20;

int64_t deviceBudget(const torch::Device& device)
{
#ifdef FISURA_TORCH_CUDA
    if (device.is_cuda()) {
        c10::cuda::CUDAGuard guard(device);
        size_t freeB = 0, totalB = 0;
        if (cudaMemGetInfo(&freeB, &totalB) != cudaSuccess)
            return kHostBudget;
        // Blocks the caching allocator holds but does not use are free for us too.
        const auto s = c10::cuda::CUDACachingAllocator::getDeviceStats(device.index());
        const int64_t cached = s.reserved_bytes[0].current - s.allocated_bytes[0].current;
        // Half of it: LibTorch's batched solvers keep workspaces we do not count.
        return std::max<int64_t>(int64_t(64) << 20, (int64_t(freeB) + cached) / 2);
    }
#else
    (void)device;
#endif
    return kHostBudget;
}

} // namespace

int64_t positionsPerChunk(uint64_t bytesPerPosition, const torch::Device& device,
                          int64_t chunkBytes)
{
    const int64_t budget = chunkBytes > 0 ? chunkBytes : deviceBudget(device);
    return std::max<int64_t>(1, budget / int64_t(std::max<uint64_t>(bytesPerPosition, 1)));
}

void shrinkAndInvert(const torch::Tensor& S, const torch::Tensor& sumFourth, int64_t T,
                     const PatchStatsOptions& options, torch::Tensor precision, torch::Tensor rho)
{
    const int64_t d = S.size(1);
    const auto diag = S.diagonal(0, 1, 2); // [n, d]
    const auto trS = diag.sum(1);          // tr(S)
    const auto trS2 = (S * S).sum({1, 2}); // tr(S^2) (S symmetric)
    torch::Tensor r, C;
    switch (options.shrinkage) {
    case Shrinkage::None:
        r = torch::zeros_like(trS);
        C = S;
        break;
    case Shrinkage::Paco: {
        // PACO's shrinkage towards F = diag(S) (Flasseur et al. 2018, A&A 618, A138, the
        // shrinkage covariance estimate of PACO, after Chen et al. 2010):
        //   rho = (tr(S^2) + tr^2(S) - 2 sum_i S_ii^2) / ((T + 1) (tr(S^2) - sum_i S_ii^2)).
        // Numerator and denominator are both quadratic in S, so the 1/T (paper) or 1/(T-1)
        // (here) normalisation of S gives the same rho.
        const auto sumDiag2 = (diag * diag).sum(1);
        const auto num = trS2 + trS * trS - 2 * sumDiag2;
        const auto den = double(T + 1) * (trS2 - sumDiag2);
        // S already diagonal (den = 0): C = F = S whatever rho is; report 1.
        r = torch::where(den > 0, num / den.clamp_min(1e-300), torch::ones_like(num));
        r = r.clamp(0.0, 1.0);
        // (1 - rho) S + rho diag(S): off-diagonal scaled, diagonal kept.
        C = S * (1 - r).view({-1, 1, 1});
        C.diagonal(0, 1, 2).copy_(diag);
        break;
    }
    case Shrinkage::LedoitWolf: {
        // Ledoit & Wolf, "A well-conditioned estimator for large-dimensional covariance
        // matrices", J. Multivariate Anal. 88 (2004) 365-411, its estimators m, d^2, b^2: with
        // the biased S_n (1/T), <A,B> = tr(A B^T)/d, m = <S_n, I>, d^2 = |S_n - m I|^2,
        // b^2 = min(d^2, 1/T^2 sum_t |x_t x_t^T - S_n|^2), rho = b^2 / d^2; the sum expands to
        // sum_t |x_t|^4 / d - T tr(S_n^2) / d. C = (1 - rho) S + rho tr(S)/d I, S unbiased.
        const double Td = double(T);
        const double scale = (Td - 1) / Td; // S_n = scale S
        const auto m = trS * scale / double(d);
        const auto trSn2 = trS2 * (scale * scale);
        const auto delta2 = (trSn2 / double(d) - m * m).clamp_min(0);
        const auto bbar2 = (sumFourth / Td - trSn2) / (Td * double(d));
        const auto b2 = torch::minimum(bbar2.clamp_min(0), delta2);
        r = torch::where(delta2 > 0, b2 / delta2.clamp_min(1e-300), torch::ones_like(b2));
        C = S * (1 - r).view({-1, 1, 1});
        C.diagonal(0, 1, 2).add_((r * trS / double(d)).unsqueeze(1));
        break;
    }
    }
    rho.copy_(r);
    const auto L = torch::linalg_cholesky(C);
    if (options.cholesky) {
        const auto I = torch::eye(d, C.options()).expand_as(C);
        precision.copy_(torch::linalg_solve_triangular(L, I, /*upper=*/false));
    } else {
        precision.copy_(torch::cholesky_inverse(L));
    }
}

} // namespace detail

namespace
{

using detail::positionsPerChunk;
using detail::workType;

PatchStats allocate(int64_t N, int64_t d, int64_t T, const torch::TensorOptions& o,
                    const PatchStatsOptions& options)
{
    PatchStats s;
    s.mean = torch::empty({N, d}, o);
    s.precision = torch::empty({N, d, d}, o);
    s.rho = torch::empty({N}, o);
    s.choleskyFactor = options.cholesky;
    s.samples = T;
    return s;
}

/// Statistics of one chunk of samples X [n, T, d] (work dtype) into slices of `out`.
void fitChunk(const torch::Tensor& X, const PatchStatsOptions& options, PatchStats& out, int64_t a,
              int64_t b)
{
    const int64_t T = X.size(1);
    const auto mean = X.mean(1);
    const auto Xc = X - mean.unsqueeze(1);
    const auto S = torch::bmm(Xc.transpose(1, 2), Xc).div_(double(T - 1));
    torch::Tensor fourth;
    if (options.shrinkage == Shrinkage::LedoitWolf)
        fourth = Xc.square().sum(2).square().sum(1);
    out.mean.slice(0, a, b).copy_(mean);
    detail::shrinkAndInvert(S, fourth, T, options, out.precision.slice(0, a, b),
                            out.rho.slice(0, a, b));
}

#ifdef FISURA_PATCHSTATS_KERNELS
cudaStream_t currentStream(const torch::Device& device)
{
    return c10::cuda::getCurrentCUDAStream(device.index()).stream();
}

void checkLaunch(int err, const char* what)
{
    if (err != 0)
        throw std::runtime_error(std::string(what) + ": " + cuda::errorString(err));
}
#endif

} // namespace

uint64_t fitBytesPerPosition(int64_t T, int64_t d)
{
    // X and X - m (T d each), S, C, L and the inverse (d^2 each), LibTorch's temporaries.
    return uint64_t(4) * uint64_t(2 * T * d + 6 * d * d + 4 * d + 8);
}

uint64_t statisticsBytes(int64_t positions, int64_t d)
{
    return uint64_t(positions) * uint64_t(d * d + d + 1) * sizeof(float);
}

bool cudaKernelsBuilt()
{
#ifdef FISURA_PATCHSTATS_KERNELS
    return true;
#else
    return false;
#endif
}

bool cudaKernelsApply(int64_t T, int64_t d, const torch::Device& device)
{
#ifdef FISURA_PATCHSTATS_KERNELS
    if (!device.is_cuda())
        return false;
    c10::cuda::CUDAGuard guard(device);
    return cuda::kernelsFit(T, d);
#else
    (void)T, (void)d, (void)device;
    return false;
#endif
}

PatchStats gaussianStatistics(const torch::Tensor& samples, const PatchStatsOptions& options)
{
    if (samples.dim() != 3 || samples.size(1) < 2 || samples.size(2) < 1)
        throw std::invalid_argument("gaussianStatistics: samples must be [N, T >= 2, d]");
    const int64_t N = samples.size(0), T = samples.size(1), d = samples.size(2);
    const auto type = workType(samples);
    const auto o = samples.options().dtype(type);
    PatchStats out = allocate(N, d, T, o, options);
    if (N == 0)
        return out;
#ifdef FISURA_PATCHSTATS_KERNELS
    if (options.allowKernels && samples.is_cuda() && type == torch::kFloat32 &&
        cuda::kernelsFit(T, d)) {
        c10::cuda::CUDAGuard guard(samples.device());
        const auto x = samples.to(type).contiguous();
        checkLaunch(cuda::statsFromSamples(
                        x.data_ptr<float>(), N, T, d, int(options.shrinkage), options.cholesky,
                        out.mean.data_ptr<float>(), out.precision.data_ptr<float>(),
                        out.rho.data_ptr<float>(), currentStream(samples.device())),
                    "gaussianStatistics kernel");
        return out;
    }
#endif
    const int64_t step =
        positionsPerChunk(fitBytesPerPosition(T, d) * (type == torch::kFloat64 ? 2 : 1),
                          samples.device(), options.chunkBytes);
    for (int64_t a = 0; a < N; a += step) {
        const int64_t b = std::min(N, a + step);
        fitChunk(samples.slice(0, a, b).to(type), options, out, a, b);
    }
    return out;
}

PatchStats patchStatistics(const torch::Tensor& stack, const PatchStatsOptions& options)
{
    if (stack.dim() != 3 && stack.dim() != 4)
        throw std::invalid_argument("patchStatistics: stack must be [T, H, W] or [T, C, H, W]");
    if (options.radius < 0)
        throw std::invalid_argument("patchStatistics: negative radius");
    const auto type = workType(stack);
    const auto frames = (stack.dim() == 3 ? stack.unsqueeze(1) : stack).to(type);
    const int64_t T = frames.size(0), Cn = frames.size(1), H = frames.size(2), W = frames.size(3);
    if (T < 2 || H < 1 || W < 1 || Cn < 1)
        throw std::invalid_argument("patchStatistics: need T >= 2 frames of at least 1x1");
    const int64_t r = options.radius, k = 2 * r + 1, d = Cn * k * k, N = H * W;
    PatchStats out = allocate(N, d, T, frames.options(), options);
#ifdef FISURA_PATCHSTATS_KERNELS
    if (options.allowKernels && frames.is_cuda() && type == torch::kFloat32 &&
        cuda::kernelsFit(T, d)) {
        c10::cuda::CUDAGuard guard(frames.device());
        const auto f = frames.contiguous();
        checkLaunch(
            cuda::statsFromFrames(f.data_ptr<float>(), T, Cn, H, W, int(r), int(options.shrinkage),
                                  options.cholesky, out.mean.data_ptr<float>(),
                                  out.precision.data_ptr<float>(), out.rho.data_ptr<float>(),
                                  currentStream(frames.device())),
            "patchStatistics kernel");
        return out;
    }
#endif
    // Replicate padding: positions near the border see the edge pixel repeated.
    const auto padded = r > 0 ? torch::replication_pad2d(frames, {r, r, r, r}) : frames;
    const int64_t perPos = fitBytesPerPosition(T, d) * (type == torch::kFloat64 ? 2 : 1);
    const int64_t rows =
        std::max<int64_t>(1, positionsPerChunk(perPos, frames.device(), options.chunkBytes) / W);
    for (int64_t y0 = 0; y0 < H; y0 += rows) {
        const int64_t y1 = std::min(H, y0 + rows);
        // [T, C, (y1-y0)+2r, W+2r] -> [T, d, (y1-y0) W] -> [n, T, d]
        const auto band = padded.slice(2, y0, y1 + 2 * r);
        const auto cols =
            torch::nn::functional::unfold(band, torch::nn::functional::UnfoldFuncOptions({k, k}));
        const auto X = cols.permute({2, 0, 1}).contiguous();
        if (options.chunkBytes > 0 && X.size(0) > 0) {
            // An explicit budget may be smaller than one row: split the band further.
            const int64_t step = std::max<int64_t>(1, options.chunkBytes / perPos);
            for (int64_t a = 0; a < X.size(0); a += step) {
                const int64_t b = std::min(X.size(0), a + step);
                fitChunk(X.slice(0, a, b), options, out, y0 * W + a, y0 * W + b);
            }
        } else {
            fitChunk(X, options, out, y0 * W, y1 * W);
        }
    }
    return out;
}

torch::Tensor mahalanobis(const torch::Tensor& features, const PatchStats& stats,
                          int64_t chunkBytes)
{
    if (features.dim() != 4)
        throw std::invalid_argument("mahalanobis: features must be [B, d, H, W]");
    const int64_t B = features.size(0), d = features.size(1), H = features.size(2),
                  W = features.size(3), N = H * W;
    if (!stats.mean.defined() || stats.mean.size(0) != N || stats.mean.size(1) != d)
        throw std::invalid_argument("mahalanobis: statistics are for " +
                                    std::to_string(stats.mean.defined() ? stats.mean.size(0) : 0) +
                                    " positions, features have " + std::to_string(N) + " x " +
                                    std::to_string(d));
    const auto type = stats.precision.scalar_type();
    const auto x = features.to(stats.mean.device(), type).flatten(2); // [B, d, N]
    auto out = torch::empty({B, N}, x.options());
    const uint64_t perPos = uint64_t(type == torch::kFloat64 ? 8 : 4) * uint64_t(3 * B * d + d * d);
    const int64_t step = positionsPerChunk(perPos, x.device(), chunkBytes);
    for (int64_t a = 0; a < N; a += step) {
        const int64_t b = std::min(N, a + step);
        const auto diff =
            x.slice(2, a, b).permute({2, 0, 1}) - stats.mean.slice(0, a, b).unsqueeze(1);
        const auto P = stats.precision.slice(0, a, b);
        torch::Tensor q;
        if (stats.choleskyFactor)
            q = torch::bmm(diff, P.transpose(1, 2)).square().sum(2); // |W (x - m)|^2
        else
            q = (torch::bmm(diff, P) * diff).sum(2);
        out.slice(1, a, b).copy_(q.clamp_min(0).sqrt().transpose(0, 1));
    }
    return out.view({B, H, W});
}

} // namespace fisura::anomaly
