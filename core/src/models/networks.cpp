#include "compat/torch_compat.h"

#include "models/bn_relu.h"
#include "models/model_meta.h"
#include "models/networks.h"
#include "models/patch_gaussian.h"
#include "models/unet_infer.h"
#include "models/unet_train.h"

namespace nn = torch::nn;

namespace fisura::models
{

namespace
{
nn::Conv2dOptions conv(int in, int out, int k, int stride = 1)
{
    return nn::Conv2dOptions(in, out, k).stride(stride).padding(k / 2).bias(false);
}
} // namespace

DoubleConvImpl::DoubleConvImpl(int in, int out)
{
    body = register_module(
        "body", nn::Sequential(nn::Conv2d(conv(in, out, 3)), nn::BatchNorm2d(out),
                               nn::ReLU(nn::ReLUOptions(true)), nn::Conv2d(conv(out, out, 3)),
                               nn::BatchNorm2d(out), nn::ReLU(nn::ReLUOptions(true))));
}

torch::Tensor DoubleConvImpl::forward(const torch::Tensor& x)
{
    if (body->size() == 6 && is_training()) { // not folded: BatchNorm + ReLU fused where it can
        auto y =
            bnRelu(body[0]->as<nn::Conv2dImpl>()->forward(x), *body[1]->as<nn::BatchNorm2dImpl>());
        return bnRelu(body[3]->as<nn::Conv2dImpl>()->forward(y),
                      *body[4]->as<nn::BatchNorm2dImpl>());
    }
    if (body->size() == 4 && !is_training() && convBiasReluAvailable()) { // folded: conv, ReLU
        auto y = convBiasRelu(x, *body[0]->as<nn::Conv2dImpl>(), fusedWeights[0]);
        if (y.defined())
            y = convBiasRelu(y, *body[2]->as<nn::Conv2dImpl>(), fusedWeights[1]);
        if (y.defined())
            return y;
    }
    return body->forward(x);
}

ResidualBlockImpl::ResidualBlockImpl(int in, int out, int stride)
{
    c1 = register_module("c1", nn::Conv2d(conv(in, out, 3, stride)));
    b1 = register_module("b1", nn::BatchNorm2d(out));
    c2 = register_module("c2", nn::Conv2d(conv(out, out, 3)));
    b2 = register_module("b2", nn::BatchNorm2d(out));
    shortcut = register_module("shortcut", nn::Sequential());
    if (stride != 1 || in != out) {
        shortcut->push_back(nn::Conv2d(conv(in, out, 1, stride)));
        shortcut->push_back(nn::BatchNorm2d(out));
    }
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x)
{
    auto y = folded ? torch::relu(c1(x)) : bnRelu(c1(x), *b1);
    y = folded ? c2(y) : b2(c2(y));
    return torch::relu(y + (shortcut->is_empty() ? x : shortcut->forward(x)));
}

ClassifierImpl::ClassifierImpl(const ModelConfig& c)
{
    const int w = std::max(4, c.width);
    const int depth = c.depth > 0 ? std::clamp(c.depth, 1, 6) : 4;
    stem = register_module("stem", nn::Sequential(nn::Conv2d(conv(3, w, 3, 2)), nn::BatchNorm2d(w),
                                                  nn::ReLU(nn::ReLUOptions(true))));
    stages = register_module("stages", nn::Sequential());
    int in = w;
    for (int i = 0; i < depth; ++i) {
        const int out = w << i;
        stages->push_back(ResidualBlock(in, out, i == 0 ? 1 : 2));
        stages->push_back(ResidualBlock(out, out, 1));
        in = out;
    }
    head = register_module("head", nn::Linear(in, std::max(2, c.classes)));
}

torch::Tensor ClassifierImpl::forward(torch::Tensor x)
{
    x = stages->forward(stem->forward(x));
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    return head(x);
}

UNetImpl::UNetImpl(const ModelConfig& c)
{
    const int w = std::max(4, c.width);
    const int depth = c.depth > 0 ? std::clamp(c.depth, 1, 6) : 4;
    down = register_module("down", nn::ModuleList());
    up = register_module("up", nn::ModuleList());
    upconv = register_module("upconv", nn::ModuleList());
    int in = 3;
    for (int i = 0; i < depth; ++i) {
        down->push_back(DoubleConv(in, w << i));
        in = w << i;
    }
    bottom = register_module("bottom", DoubleConv(in, w << depth));
    for (int i = depth - 1; i >= 0; --i) {
        upconv->push_back(
            nn::ConvTranspose2d(nn::ConvTranspose2dOptions(w << (i + 1), w << i, 2).stride(2)));
        up->push_back(DoubleConv(w << (i + 1), w << i));
    }
    out = register_module("out", nn::Conv2d(nn::Conv2dOptions(w, 1, 1)));
}

torch::Tensor UNetImpl::forward(torch::Tensor x)
{
    std::vector<torch::Tensor> skips;
    for (size_t i = 0; i < down->size(); ++i) {
        auto [pooled, skip] =
            poolWithSkip(down[i]->as<DoubleConvImpl>()->forward(x), is_training());
        skips.push_back(std::move(skip));
        x = std::move(pooled);
    }
    x = bottom(x);
    upCache.resize(up->size());
    for (size_t i = 0; i < up->size(); ++i) {
        const auto& skip = skips[skips.size() - 1 - i];
        auto& upconvI = *upconv[i]->as<nn::ConvTranspose2dImpl>();
        torch::Tensor cat = is_training() ? upConcatTraining(skip, x, upconvI)
                                          : upConcat(skip, x, upconvI, upCache[i]);
        if (!cat.defined())
            cat = torch::cat({skip, upconvI.forward(x)}, 1);
        x = up[i]->as<DoubleConvImpl>()->forward(cat);
    }
    return out(x);
}

AutoencoderImpl::AutoencoderImpl(const ModelConfig& c)
{
    const int w = std::max(4, c.width);
    const int depth = c.depth > 0 ? c.depth : autoencoderDepth(c.inputSize);
    encoder = register_module("encoder", nn::Sequential());
    decoder = register_module("decoder", nn::Sequential());
    int in = 3;
    for (int i = 0; i < depth; ++i) {
        const int out = std::min(w << i, 256);
        encoder->push_back(nn::Conv2d(conv(in, out, 3, 2)));
        encoder->push_back(nn::BatchNorm2d(out));
        encoder->push_back(nn::ReLU(nn::ReLUOptions(true)));
        in = out;
    }
    for (int i = depth - 1; i >= 0; --i) {
        const int out = i == 0 ? w : std::min(w << (i - 1), 256);
        decoder->push_back(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(in, out, 2).stride(2)));
        decoder->push_back(nn::BatchNorm2d(out));
        decoder->push_back(nn::ReLU(nn::ReLUOptions(true)));
        in = out;
    }
    decoder->push_back(nn::Conv2d(nn::Conv2dOptions(in, 3, 3).padding(1)));
    decoder->push_back(nn::Sigmoid());
}

torch::Tensor AutoencoderImpl::forward(torch::Tensor x)
{
    return decoder->forward(encoder->forward(x));
}

std::shared_ptr<nn::Module> makeNetwork(const ModelConfig& c)
{
    switch (c.type) {
    case ModelType::Classifier:
        return std::make_shared<ClassifierImpl>(c);
    case ModelType::UNet:
        return std::make_shared<UNetImpl>(c);
    case ModelType::Autoencoder:
        return std::make_shared<AutoencoderImpl>(c);
    case ModelType::PatchGaussian:
        return std::make_shared<PatchGaussianImpl>(c);
    }
    return nullptr;
}

torch::Tensor forwardNetwork(nn::Module& net, ModelType type, const torch::Tensor& x)
{
    switch (type) {
    case ModelType::Classifier:
        return static_cast<ClassifierImpl&>(net).forward(x);
    case ModelType::UNet:
        return static_cast<UNetImpl&>(net).forward(x);
    case ModelType::Autoencoder:
        return static_cast<AutoencoderImpl&>(net).forward(x);
    case ModelType::PatchGaussian:
        return static_cast<PatchGaussianImpl&>(net).forward(x);
    }
    return {};
}

} // namespace fisura::models
