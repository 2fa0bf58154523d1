// Multi-tensor AdamW and device-side gradient clipping (see train_optim.h). The arithmetic follows
// torch::optim::AdamW::step() of LibTorch (torch/csrc/api/src/optim/adamw.cpp) and the foreach /
// fused paths of PyTorch's torch/optim/adamw.py.
#include "train/train_optim.h"

#include "fisura/testing.h"
#include "fisura/train.h"

#include <cmath>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>

namespace fisura
{

namespace
{
/// The kernel a test asked for (empty: choose).
std::mutex g_forcedMutex;
std::string g_forcedKernel;
} // namespace

void testing::forceAdamWKernel(const std::string& kernel)
{
    std::lock_guard<std::mutex> lock(g_forcedMutex);
    g_forcedKernel = kernel;
}

} // namespace fisura

namespace fisura::train_detail
{

namespace
{

/// torch::optim keys its per-parameter state by the TensorImpl: as a string in 1.13, as the
/// pointer itself in later versions.
template <class Key> Key stateKey(const torch::Tensor& p)
{
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream s; // what c10::guts::to_string does
        s << p.unsafeGetTensorImpl();
        return s.str();
    } else {
        return Key(p.unsafeGetTensorImpl());
    }
}

/// The parameter's AdamW state, created as AdamW::step() creates it on first use.
torch::optim::AdamWParamState& stateOf(torch::optim::AdamW& opt, const torch::Tensor& p)
{
    auto& states = opt.state();
    using Key = typename std::decay_t<decltype(states)>::key_type;
    const Key key = stateKey<Key>(p);
    auto it = states.find(key);
    if (it == states.end()) {
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->step(0);
        s->exp_avg(torch::zeros_like(p, at::MemoryFormat::Preserve));
        s->exp_avg_sq(torch::zeros_like(p, at::MemoryFormat::Preserve));
        it = states.emplace(key, std::move(s)).first;
    }
    return static_cast<torch::optim::AdamWParamState&>(*it->second);
}

struct Lists {
    std::vector<torch::Tensor> params, grads, expAvg, expAvgSq;
    int64_t step = 0; ///< after this update
};

/// Gathers the tensors of one update; false when the multi-tensor path does not apply
/// (a parameter without gradient, amsgrad, or parameters at different step counts).
bool gather(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params, Lists& l,
            bool advance = true)
{
    auto& group = opt.param_groups().front();
    const auto& o = static_cast<const torch::optim::AdamWOptions&>(group.options());
    if (o.amsgrad() || opt.param_groups().size() != 1)
        return false;
    int64_t step = -1;
    for (const auto& p : params) {
        if (!p.grad().defined() || p.grad().is_sparse())
            return false;
        auto& s = stateOf(opt, p);
        if (step < 0)
            step = s.step();
        if (s.step() != step)
            return false;
        l.params.push_back(p);
        l.grads.push_back(p.grad());
        l.expAvg.push_back(s.exp_avg());
        l.expAvgSq.push_back(s.exp_avg_sq());
    }
    l.step = step + 1;
    if (advance)
        for (const auto& p : params)
            stateOf(opt, p).step(l.step);
    return !l.params.empty();
}

void forEachUpdate(const Lists& l, const torch::optim::AdamWOptions& o)
{
    const double lr = o.lr(), b1 = std::get<0>(o.betas()), b2 = std::get<1>(o.betas());
    if (o.weight_decay() != 0)
        at::_foreach_mul_(l.params, 1.0 - lr * o.weight_decay());
    const double bc1 = 1.0 - std::pow(b1, double(l.step));
    const double bc2 = 1.0 - std::pow(b2, double(l.step));
    at::_foreach_mul_(l.expAvg, b1);
    at::_foreach_add_(l.expAvg, l.grads, 1.0 - b1);
    at::_foreach_mul_(l.expAvgSq, b2);
    at::_foreach_addcmul_(l.expAvgSq, l.grads, l.grads, 1.0 - b2);
    auto denom = at::_foreach_sqrt(l.expAvgSq);
    at::_foreach_div_(denom, std::sqrt(bc2));
    at::_foreach_add_(denom, o.eps());
    at::_foreach_addcdiv_(l.params, l.expAvg, denom, -lr / bc1);
}

#ifdef FISURA_TORCH_CUDA
/// ATen's fused Adam kernel (one launch for all tensors) after the decoupled weight decay: that
/// is AdamW (PyTorch's own fused AdamW kernel exists only from 2.x; this works in 1.13 too).
void fusedUpdate(const Lists& l, const torch::optim::AdamWOptions& o)
{
    const double lr = o.lr(), b1 = std::get<0>(o.betas()), b2 = std::get<1>(o.betas());
    if (o.weight_decay() != 0)
        at::_foreach_mul_(l.params, 1.0 - lr * o.weight_decay());
    // The kernel reads each parameter's step from a device tensor: one fill, then views.
    const auto steps = torch::full({int64_t(l.params.size())}, double(l.step),
                                   l.params.front().options().dtype(torch::kFloat));
    const std::vector<torch::Tensor> stepViews = steps.unbind(0);
    at::_fused_adam_(l.params, l.grads, l.expAvg, l.expAvgSq, /*max_exp_avg_sqs=*/{}, stepViews, lr,
                     b1, b2, /*weight_decay=*/0.0, o.eps(), /*amsgrad=*/false,
                     /*maximize=*/false, /*grad_scale=*/c10::nullopt, /*found_inf=*/c10::nullopt);
}
#endif

} // namespace

const char* adamwKernelName(AdamWKernel k)
{
    switch (k) {
    case AdamWKernel::ForEach:
        return "foreach";
    case AdamWKernel::Fused:
        return "fused";
    case AdamWKernel::PerTensor:
        break;
    }
    return "per-tensor";
}

AdamWKernel chooseAdamWKernel(const torch::Device& device)
{
    {
        std::lock_guard<std::mutex> lock(g_forcedMutex);
        if (g_forcedKernel == "per-tensor")
            return AdamWKernel::PerTensor;
        if (g_forcedKernel == "foreach")
            return AdamWKernel::ForEach;
        if (g_forcedKernel == "fused")
            return AdamWKernel::Fused;
    }
#ifdef FISURA_TORCH_CUDA
    if (device.is_cuda())
        return AdamWKernel::Fused;
#endif
    (void)device;
    return AdamWKernel::ForEach;
}

AdamWKernel adamwStep(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params,
                      AdamWKernel kernel)
{
    torch::NoGradGuard noGrad;
    Lists l;
    if (kernel == AdamWKernel::PerTensor || !gather(opt, params, l)) {
        opt.step();
        return AdamWKernel::PerTensor;
    }
    const auto& o =
        static_cast<const torch::optim::AdamWOptions&>(opt.param_groups().front().options());
#ifdef FISURA_TORCH_CUDA
    if (kernel == AdamWKernel::Fused && l.params.front().is_cuda()) {
        fusedUpdate(l, o);
        return AdamWKernel::Fused;
    }
#endif
    forEachUpdate(l, o);
    return AdamWKernel::ForEach;
}

#if defined(FISURA_TORCH_CUDA) && FISURA_TORCH_AT_LEAST(2, 1)
bool adamwStepFromTensors(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params,
                          const torch::Tensor& lr, const torch::Tensor& steps)
{
    torch::NoGradGuard noGrad;
    Lists l;
    if (!gather(opt, params, l, /*advance=*/false) || !l.params.front().is_cuda() ||
        steps.numel() != int64_t(l.params.size()))
        return false;
    const auto& o =
        static_cast<const torch::optim::AdamWOptions&>(opt.param_groups().front().options());
    if (o.weight_decay() != 0) // decoupled decay by 1 - lr wd, lr read on the device
        at::_foreach_mul_(l.params, 1.0 - lr * o.weight_decay());
    at::_fused_adam_(l.params, l.grads, l.expAvg, l.expAvgSq, /*max_exp_avg_sqs=*/{},
                     steps.unbind(0), lr, std::get<0>(o.betas()), std::get<1>(o.betas()),
                     /*weight_decay=*/0.0, o.eps(), /*amsgrad=*/false, /*maximize=*/false,
                     /*grad_scale=*/c10::nullopt, /*found_inf=*/c10::nullopt);
    return true;
}
#else
bool adamwStepFromTensors(torch::optim::AdamW&, const std::vector<torch::Tensor>&,
                          const torch::Tensor&, const torch::Tensor&)
{
    return false;
}
#endif

int64_t advanceAdamWSteps(torch::optim::AdamW& opt, const std::vector<torch::Tensor>& params)
{
    int64_t step = 0;
    for (const auto& p : params) {
        auto& s = stateOf(opt, p);
        s.step(s.step() + 1);
        step = s.step();
    }
    return step;
}

torch::Tensor clipGradNormOnDevice(const std::vector<torch::Tensor>& params, double maxNorm)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> grads;
    for (const auto& p : params)
        if (p.grad().defined())
            grads.push_back(p.grad());
    if (grads.empty())
        return {};
    const auto norms = at::_foreach_norm(grads, 2);
    const auto total = torch::stack(norms).norm(2);
    const auto coef = torch::clamp_max(maxNorm / (total + 1e-6), 1.0);
    for (auto& g : grads) // a device scalar: no read-back (the _foreach_ form needs 2.1)
        g.mul_(coef);
    return total;
}

} // namespace fisura::train_detail
