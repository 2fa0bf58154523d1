// BatchNorm folded into the preceding convolutions, for inference: y = s * (W x + b - mean) + beta
// with s = gamma / sqrt(var + eps) is the convolution W' = s W, b' = s (b - mean) + beta. Works on
// a copy of the network; the trainable one keeps its BatchNorm layers. (The same rewrite as
// torch.fx's fuse / torch.ao.quantization.fuse_modules in PyTorch.)
#include "compat/torch_compat.h"

#include "models/networks.h"

namespace nn = torch::nn;

namespace fisura::models
{

namespace
{

struct Folded {
    torch::Tensor weight, bias;
};

/// Folded weight and bias of a convolution whose output channels lie along `outDim` of its
/// weight (0 for Conv2d; groups = 1).
Folded foldInto(const torch::Tensor& w, const torch::Tensor& b, const nn::BatchNorm2dImpl& bn,
                int64_t outDim)
{
    const auto var = bn.running_var.to(torch::kDouble);
    auto s = bn.weight.to(torch::kDouble) / torch::sqrt(var + bn.options.eps());
    std::vector<int64_t> shape(size_t(w.dim()), 1);
    shape[size_t(outDim)] = -1;
    Folded f;
    f.weight = (w.to(torch::kDouble) * s.view(shape)).to(w.scalar_type());
    auto b0 = b.defined() ? b.to(torch::kDouble) : torch::zeros_like(s);
    f.bias = ((b0 - bn.running_mean.to(torch::kDouble)) * s + bn.bias.to(torch::kDouble))
                 .to(w.scalar_type());
    return f;
}

void setFolded(nn::Module& conv, Folded f)
{
    auto params = conv.named_parameters(false);
    params["weight"].set_data(f.weight.contiguous());
    // The convolutions of the networks have no bias when a BatchNorm follows: register one.
    if (params.contains("bias") && params["bias"].defined())
        params["bias"].set_data(f.bias);
}

nn::Conv2d foldedConv(const nn::Conv2dImpl& c, const nn::BatchNorm2dImpl& bn)
{
    const auto& o = c.options;
    auto opt = nn::Conv2dOptions(o.in_channels(), o.out_channels(), o.kernel_size())
                   .stride(o.stride())
                   .padding(o.padding())
                   .dilation(o.dilation())
                   .groups(o.groups())
                   .padding_mode(o.padding_mode())
                   .bias(true);
    nn::Conv2d out(opt);
    setFolded(*out, foldInto(c.weight, c.bias, bn, 0));
    return out;
}

} // namespace

nn::Sequential foldSequential(nn::Sequential s)
{
    nn::Sequential out;
    for (size_t i = 0; i < s->size(); ++i) {
        auto m = s->ptr(i);
        nn::BatchNorm2dImpl* bn =
            i + 1 < s->size() ? s->ptr(i + 1)->as<nn::BatchNorm2dImpl>() : nullptr;
        if (bn && m->as<nn::Conv2dImpl>() && m->as<nn::Conv2dImpl>()->options.groups() == 1) {
            out->push_back(foldedConv(*m->as<nn::Conv2dImpl>(), *bn));
            ++i;
        } else {
            out->push_back(*(s->begin() + std::ptrdiff_t(i)));
        }
    }
    return out;
}

void DoubleConvImpl::foldBatchNorm()
{
    body = replace_module("body", foldSequential(body));
}

void ResidualBlockImpl::foldBatchNorm()
{
    c1 = replace_module("c1", foldedConv(*c1, *b1));
    c2 = replace_module("c2", foldedConv(*c2, *b2));
    shortcut = replace_module("shortcut", foldSequential(shortcut));
    unregister_module("b1");
    unregister_module("b2");
    b1 = nullptr;
    b2 = nullptr;
    folded = true;
}

std::shared_ptr<nn::Module> foldedCopy(const nn::Module& net, const ModelConfig& c)
{
    torch::NoGradGuard noGrad;
    std::shared_ptr<nn::Module> copy = makeNetwork(c);
    // The same architecture: copy every parameter and buffer by name.
    auto dstP = copy->named_parameters(true);
    for (const auto& p : net.named_parameters(true))
        dstP[p.key()].set_data(p.value().detach().clone());
    auto dstB = copy->named_buffers(true);
    for (const auto& b : net.named_buffers(true))
        if (dstB.contains(b.key()) && b.value().defined())
            dstB[b.key()].set_data(b.value().detach().clone());
    copy->eval();

    auto foldDouble = [](const std::shared_ptr<nn::Module>& m) {
        m->as<DoubleConvImpl>()->foldBatchNorm();
    };
    switch (c.type) {
    case ModelType::UNet: {
        auto& u = static_cast<UNetImpl&>(*copy);
        for (const auto& m : *u.down)
            foldDouble(m);
        for (const auto& m : *u.up)
            foldDouble(m);
        u.bottom->foldBatchNorm();
        break;
    }
    case ModelType::Classifier: {
        auto& k = static_cast<ClassifierImpl&>(*copy);
        k.stem = k.replace_module("stem", foldSequential(k.stem));
        for (size_t i = 0; i < k.stages->size(); ++i)
            k.stages->ptr(i)->as<ResidualBlockImpl>()->foldBatchNorm();
        break;
    }
    case ModelType::Autoencoder: {
        auto& a = static_cast<AutoencoderImpl&>(*copy);
        a.encoder = a.replace_module("encoder", foldSequential(a.encoder));
        a.decoder = a.replace_module("decoder", foldSequential(a.decoder));
        break;
    }
    case ModelType::PatchGaussian: // its feature extractor has no BatchNorm to fold
        break;
    }
    // Module and device of the source: the copy follows.
    for (const auto& p : net.parameters(true)) {
        copy->to(p.device());
        break;
    }
    copy->eval();
    return copy;
}

} // namespace fisura::models
