// Streaming per-position Gaussian fit: float64 sums around a per-position shift (the first
// sample), so that the covariance is not the small difference of two large sums.
#include "compat/torch_compat.h"

#include "anomaly/patch_stats.h"
#include "anomaly/patch_stats_impl.h"

#include <stdexcept>
#include <string>

namespace fisura::anomaly
{

GaussianAccumulator::GaussianAccumulator(int64_t d, int64_t H, int64_t W, torch::Device device)
    : d_(d), h_(H), w_(W), device_(device)
{
    if (d < 1 || H < 1 || W < 1)
        throw std::invalid_argument("GaussianAccumulator: empty shape");
    const int64_t N = H * W;
    const auto o = torch::TensorOptions().dtype(torch::kFloat64).device(device);
    sum_ = torch::zeros({N, d}, o);
    outer_ = torch::zeros({N, d, d}, o);
    norm2_ = torch::zeros({N}, o);
    norm4_ = torch::zeros({N}, o);
    norm2y_ = torch::zeros({N, d}, o);
}

void GaussianAccumulator::add(const torch::Tensor& features)
{
    if (features.dim() != 4 || features.size(1) != d_ || features.size(2) != h_ ||
        features.size(3) != w_)
        throw std::invalid_argument("GaussianAccumulator::add: features must be [B, " +
                                    std::to_string(d_) + ", " + std::to_string(h_) + ", " +
                                    std::to_string(w_) + "]");
    const int64_t B = features.size(0);
    if (B == 0)
        return;
    allDouble_ = allDouble_ && features.scalar_type() == torch::kFloat64;
    // [B, d, H, W] -> [N, B, d]
    auto y = features.to(device_, torch::kFloat64).flatten(2).permute({2, 0, 1});
    if (count_ == 0)
        shift_ = y.select(1, 0).clone();
    y = y - shift_.unsqueeze(1);
    sum_.add_(y.sum(1));
    outer_.baddbmm_(y.transpose(1, 2), y);
    const auto n2 = y.square().sum(2); // [N, B]
    norm2_.add_(n2.sum(1));
    norm4_.add_(n2.square().sum(1));
    norm2y_.add_((y * n2.unsqueeze(2)).sum(1));
    count_ += B;
}

PatchStats GaussianAccumulator::finish(const PatchStatsOptions& options) const
{
    if (count_ < 2)
        throw std::invalid_argument("GaussianAccumulator::finish: needs at least 2 samples, has " +
                                    std::to_string(count_));
    const int64_t N = h_ * w_, T = count_;
    const double Td = double(T);
    const auto m = sum_ / Td; // mean of y = x - shift
    const auto S = (outer_ - Td * m.unsqueeze(2) * m.unsqueeze(1)) / (Td - 1);
    torch::Tensor fourth;
    if (options.shrinkage == Shrinkage::LedoitWolf) {
        // sum_t |y_t - m|^4 from the moments of y (expand the square of |y|^2 - 2 y.m + |m|^2).
        const auto mm = m.square().sum(1);
        const auto mOm = (torch::bmm(outer_, m.unsqueeze(2)).squeeze(2) * m).sum(1);
        fourth =
            norm4_ + 4 * mOm - 4 * (m * norm2y_).sum(1) + 2 * mm * norm2_ - 3 * Td * mm.square();
    }
    const auto o = sum_.options();
    PatchStats out;
    auto precision = torch::empty({N, d_, d_}, o);
    auto rho = torch::empty({N}, o);
    detail::shrinkAndInvert(S, fourth, T, options, precision, rho);
    const auto type = allDouble_ ? torch::kFloat64 : torch::kFloat32;
    out.mean = (shift_ + m).to(type);
    out.precision = precision.to(type);
    out.rho = rho.to(type);
    out.choleskyFactor = options.cholesky;
    out.samples = T;
    return out;
}

} // namespace fisura::anomaly
