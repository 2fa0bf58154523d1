// Model size before training (parameter count, training memory estimate) and the one metadata
// edit the Train pane makes to a finished model: its threshold.
#include "compat/torch_compat.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "fisura/evaluate.h"
#include "models/model_impl.h"
#include "models/networks.h"
#include "models/patch_gaussian.h"

namespace fisura
{

namespace
{

/// Downsamplings the network applies, as Model::create resolves the depth.
int resolvedDepth(const ModelConfig& c)
{
    if (c.type == ModelType::Autoencoder)
        return c.depth > 0 ? c.depth : models::autoencoderDepth(c.inputSize);
    return c.depth > 0 ? std::clamp(c.depth, 1, 6) : 4;
}

/// No gradient and no optimiser: the random feature weights, the fit's statistics, and the raw
/// feature maps of one image (twice: features and their selection).
Result<ModelFootprint> patchGaussianFootprint(const ModelConfig& config)
{
    auto size = patchGaussianSize(config);
    if (!size)
        return size.status();
    try {
        ModelFootprint f;
        auto net = models::makeNetwork(config);
        for (const auto& p : net->parameters())
            f.parameters += p.numel();
        f.weightBytes = uint64_t(f.parameters) * 4u + size->fitBytes;
        const uint64_t cells = uint64_t(size->gridSize) * uint64_t(size->gridSize);
        f.activationBytesPerImage = cells * uint64_t(models::patchRawChannels(config)) * 4u * 2u;
        return f;
    } catch (const c10::Error& e) {
        return Status(ErrorCode::Internal, e.what_without_backtrace());
    }
}

int64_t elementsOf(const torch::autograd::InputMetadata& meta)
{
    // LibTorch 1.13 keeps the shape private; zeros_like() is the public way to it (a few KiB at
    // the probe's small input).
    return meta.zeros_like().numel();
}

/// Elements of every tensor the autograd graph of `out` holds for the backward pass: each
/// node's forward outputs (its backward inputs), parameters (AccumulateGrad) left out.
int64_t graphActivationElements(const torch::Tensor& out)
{
    int64_t total = 0;
    std::unordered_set<const torch::autograd::Node*> seen;
    std::vector<torch::autograd::Node*> stack{out.grad_fn().get()};
    while (!stack.empty()) {
        torch::autograd::Node* n = stack.back();
        stack.pop_back();
        if (!n || !seen.insert(n).second)
            continue;
        if (n->name().find("AccumulateGrad") != std::string::npos)
            continue;
        for (uint32_t i = 0; i < n->num_inputs(); ++i)
            total += elementsOf(n->input_metadata(i));
        for (const auto& e : n->next_edges())
            stack.push_back(e.function.get());
    }
    return total;
}

} // namespace

Result<ModelFootprint> estimateFootprint(const ModelConfig& config, Precision precision)
{
    if (config.inputSize < 16 || config.inputSize > 4096)
        return Status(ErrorCode::InvalidArgument, "input size must be 16..4096 px");
    const int depth = resolvedDepth(config);
    if (config.type == ModelType::UNet && config.inputSize % (1 << depth) != 0)
        return Status(ErrorCode::InvalidArgument,
                      "U-Net input size must be a multiple of " + std::to_string(1 << depth));
    if (config.type == ModelType::PatchGaussian)
        return patchGaussianFootprint(config);
    try {
        ModelConfig c = config;
        c.depth = depth;
        auto net = models::makeNetwork(c); // on the CPU, never on a device
        ModelFootprint f;
        for (const auto& p : net->parameters())
            f.parameters += p.numel();
        const bool half = precision == Precision::BF16 || precision == Precision::FP16;
        // fp32 weights, gradients and AdamW's two moments; autocast adds a half copy.
        f.weightBytes = uint64_t(f.parameters) * (16u + (half ? 2u : 0u));

        // Activations: a forward pass with autograd at batch 1 on a small input of the same
        // shape class (the smallest multiple of the network's stride >= 32 px and >= twice the
        // stride, at most the real size), then the outputs recorded in its autograd graph are
        // summed and scaled by the area ratio. The networks are fully convolutional, so activations
        // grow with the area; the fixed-size head (classifier) is negligible. Takes milliseconds
        // for the presets.
        const int stride = 1 << std::min(depth, 10);
        int small = std::max(2 * stride, ((32 + stride - 1) / stride) * stride);
        small = std::min(small, config.inputSize);
        net->eval(); // batch statistics of one tiny image could be degenerate
        torch::AutoGradMode grad(true);
        const auto x = torch::rand({1, 3, small, small});
        const auto out = models::forwardNetwork(*net, c.type, x);
        const double area = double(config.inputSize) * config.inputSize / (double(small) * small);
        const double bytesPerElement = half ? 2.0 : 4.0;
        f.activationBytesPerImage =
            uint64_t(std::llround(double(graphActivationElements(out)) * area * bytesPerElement));
        return f;
    } catch (const c10::Error& e) {
        return Status(ErrorCode::Internal, e.what_without_backtrace());
    }
}

Status setModelThreshold(const std::string& modelPath, double threshold)
{
    if (!std::isfinite(threshold) || threshold < 0)
        return Status(ErrorCode::InvalidArgument, "the threshold must be a number >= 0");
    auto m = Model::load(modelPath); // a TorchScript module is not run: NeedsConsent
    if (!m && m.status().code() != ErrorCode::NeedsConsent)
        return m.status();
    if (!m || m->isTorchScript())
        return Status(ErrorCode::Unsupported,
                      modelPath + " is an imported TorchScript model: its threshold lives in its "
                                  "JSON sidecar");
    m->info().threshold = threshold;
    return m->save(modelPath);
}

} // namespace fisura
