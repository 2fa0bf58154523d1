#pragma once

#include "compat/torch_compat.h"

#include "fisura/model.h"
#include "models/networks.h"

namespace fisura
{

struct Model::Impl {
    ModelInfo info;
    std::shared_ptr<torch::nn::Module> net;
    torch::Tensor forward(const torch::Tensor& x)
    {
        return models::forwardNetwork(*net, info.config.type, x);
    }
};

} // namespace fisura
