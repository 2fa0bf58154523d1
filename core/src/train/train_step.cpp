// Pieces of an optimiser step: the learning-rate schedule and fp16 loss scaling.
#include "compat/torch_compat.h"

#include <algorithm>
#include <cmath>

#include "train/trainer.h"

namespace fisura
{

namespace train_detail
{

double lrAt(Schedule s, double base, double p)
{
    p = std::clamp(p, 0.0, 1.0);
    const double pi = 3.14159265358979323846;
    if (s == Schedule::OneCycle) {
        const double warm = 0.3, start = base / 25.0, end = base / 1e4;
        if (p < warm)
            return start + (base - start) * 0.5 * (1.0 - std::cos(pi * p / warm));
        return end + (base - end) * 0.5 * (1.0 + std::cos(pi * (p - warm) / (1.0 - warm)));
    }
    const double warm = 0.05;
    if (p < warm)
        return base * (p / warm);
    return base * 1e-3 +
           base * (1.0 - 1e-3) * 0.5 * (1.0 + std::cos(pi * (p - warm) / (1.0 - warm)));
}

void LossScaler::init(const torch::Device& dev)
{
    scale = torch::full({1}, 65536.0, torch::TensorOptions().dtype(torch::kFloat).device(dev));
    growthTracker = torch::zeros({1}, torch::TensorOptions().dtype(torch::kInt).device(dev));
    foundInf = torch::zeros({1}, torch::TensorOptions().dtype(torch::kFloat).device(dev));
}

bool LossScaler::unscale(const std::vector<torch::Tensor>& params)
{
    std::vector<torch::Tensor> grads;
    for (const auto& p : params)
        if (p.grad().defined())
            grads.push_back(p.grad());
    foundInf.zero_();
    at::_amp_foreach_non_finite_check_and_unscale_(grads, foundInf, scale.reciprocal());
    return foundInf.item<float>() == 0.0f;
}

void LossScaler::update()
{
    at::_amp_update_scale_(scale, growthTracker, foundInf, 2.0, 0.5, 2000);
}

} // namespace train_detail

} // namespace fisura
