// The networks themselves (LibTorch modules). Internal: the facade is fisura/model.h.
#pragma once

#include "compat/torch_compat.h"

#include "fisura/model.h"
#include "models/model_meta.h"

namespace fisura::models
{

/// Conv-BN-ReLU twice: the U-Net and autoencoder building block.
struct DoubleConvImpl : torch::nn::Module {
    DoubleConvImpl(int in, int out);
    torch::Tensor forward(const torch::Tensor& x);
    void foldBatchNorm(); ///< inference copies only (fold.cpp)
    torch::nn::Sequential body{nullptr};
    std::vector<torch::Tensor> fusedWeights[2]; ///< folded convolutions in the autocast type
};
TORCH_MODULE(DoubleConv);

struct ResidualBlockImpl : torch::nn::Module {
    ResidualBlockImpl(int in, int out, int stride);
    torch::Tensor forward(const torch::Tensor& x);
    void foldBatchNorm(); ///< inference copies only (fold.cpp): b1 and b2 are then skipped
    bool folded = false;
    torch::nn::Conv2d c1{nullptr}, c2{nullptr};
    torch::nn::BatchNorm2d b1{nullptr}, b2{nullptr};
    torch::nn::Sequential shortcut{nullptr};
};
TORCH_MODULE(ResidualBlock);

/// Small residual CNN: stem, `depth` stages of two residual blocks (stride 2), global pooling.
struct ClassifierImpl : torch::nn::Module {
    explicit ClassifierImpl(const ModelConfig& c);
    torch::Tensor forward(torch::Tensor x);
    torch::nn::Sequential stem{nullptr}, stages{nullptr};
    torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Classifier);

/// U-Net: `depth` downsamplings, `width` channels at full resolution; one logit channel.
struct UNetImpl : torch::nn::Module {
    explicit UNetImpl(const ModelConfig& c);
    torch::Tensor forward(torch::Tensor x);
    torch::nn::ModuleList down{nullptr}, up{nullptr}, upconv{nullptr};
    DoubleConv bottom{nullptr};
    std::vector<std::vector<torch::Tensor>> upCache; ///< unet_infer.h's upConcat, per level
    torch::nn::Conv2d out{nullptr};
};
TORCH_MODULE(UNet);

/// Convolutional autoencoder: strided convs down to an 8-16 px code, transposed convs back;
/// sigmoid output in [0, 1].
struct AutoencoderImpl : torch::nn::Module {
    explicit AutoencoderImpl(const ModelConfig& c);
    torch::Tensor forward(torch::Tensor x);
    torch::nn::Sequential encoder{nullptr}, decoder{nullptr};
};
TORCH_MODULE(Autoencoder);

// autoencoderDepth: models/model_meta.h.

/// Conv2d followed by BatchNorm2d becomes one convolution with a bias (the BatchNorm's running
/// statistics; eval mode only). Other modules, the autoencoder's transposed convolutions and
/// their BatchNorm included, are shared with `s` as they are.
torch::nn::Sequential foldSequential(torch::nn::Sequential s);

/// A copy of `net` (built from `c`, same device) in eval mode with every BatchNorm folded into
/// the convolution before it: the same outputs within fp32 rounding, fewer passes over memory.
/// `net` is left as it is.
std::shared_ptr<torch::nn::Module> foldedCopy(const torch::nn::Module& net, const ModelConfig& c);

/// One network of any type behind a common forward.
std::shared_ptr<torch::nn::Module> makeNetwork(const ModelConfig& c);
torch::Tensor forwardNetwork(torch::nn::Module& net, ModelType type, const torch::Tensor& x);

} // namespace fisura::models
