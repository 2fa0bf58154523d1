#pragma once

#include <optional>

#include "compat/torch_compat.h"

#include "fisura/model.h"
#include "models/networks.h"

namespace fisura
{

struct Model::Impl {
    ModelInfo info;
    std::shared_ptr<torch::nn::Module> net; ///< Fisura's own network (trainable)
    /// What forward() runs instead of `net` when set: an inference copy (BatchNorm folded,
    /// models::foldedCopy); `net` stays what is trained and saved.
    std::shared_ptr<torch::nn::Module> inference;
    std::optional<torch::jit::Module> script; ///< or an imported TorchScript module
    bool scriptOutputsProbabilities = false;  ///< sidecar "output": "probabilities"

    /// Raw network output: U-Net logits [N,1,H,W], classifier logits [N,C], autoencoder
    /// reconstruction [N,3,H,W] in [0, 1], patch-gaussian Mahalanobis distance [N,1,H,W].
    torch::Tensor forward(const torch::Tensor& x)
    {
        if (script)
            return script->forward({x}).toTensor();
        return models::forwardNetwork(inference ? *inference : *net, info.config.type, x);
    }

    /// What inference wants: U-Net crack probability [N,1,H,W], classifier class probabilities
    /// [N,C] (one column: the crack probability), autoencoder reconstruction, patch-gaussian
    /// distance. Float32.
    torch::Tensor predict(const torch::Tensor& x)
    {
        torch::Tensor out = forward(x).to(torch::kFloat);
        if (script && scriptOutputsProbabilities)
            return out;
        switch (info.config.type) {
        case ModelType::UNet:
            return torch::sigmoid(out);
        case ModelType::Classifier:
            return out.size(1) == 1 ? torch::sigmoid(out) : torch::softmax(out, 1);
        case ModelType::Autoencoder:
        case ModelType::PatchGaussian:
            return out;
        }
        return out;
    }

    /// Per-pixel anomaly score [N,H,W] (float32) of an anomaly model from its prediction:
    /// the autoencoder's squared reconstruction error (mean over channels), the patch-gaussian's
    /// Mahalanobis distance.
    torch::Tensor anomalyScore(const torch::Tensor& x, const torch::Tensor& predicted) const
    {
        if (info.config.type == ModelType::PatchGaussian)
            return predicted.to(torch::kFloat).select(1, 0);
        return (predicted.to(torch::kFloat) - x.to(torch::kFloat)).pow(2).mean(1);
    }

    void to(torch::Device device)
    {
        if (script)
            script->to(device);
        else
            net->to(device);
    }

    void eval()
    {
        if (script)
            script->eval();
        else
            net->eval();
    }
};

} // namespace fisura
