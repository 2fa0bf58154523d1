// Training that starts from a model (TrainOptions::startFrom): the starter model, a model of
// the project or any Fisura model file. The starting model decides the architecture and the
// input normalisation; its weights are copied into the job's network, and its BatchNorm
// statistics are estimated again on the new training images before the first step (AdaBN,
// Li et al. 2016, "Revisiting Batch Normalization For Practical Domain Adaptation"): a
// surface that looks unlike the starting model's data otherwise meets running statistics of
// the wrong mean and variance in every layer.
#include "compat/torch_compat.h"

#include <nlohmann/json.hpp>

#include "fisura/starter.h"
#include "models/model_impl.h"
#include "train/trainer.h"

namespace fisura::train_detail
{

namespace
{

/// At most this many training crops estimate the BatchNorm statistics: enough for stable
/// means and variances of a few dozen channels, cheap on a CPU.
constexpr int kBatchNormSamples = 64;

std::string joined(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s;
}

} // namespace

/// Resolves and loads the starting model and makes its architecture the job's (prepareData).
Status Trainer::loadStartingModel()
{
    if (startsFromScratch(o_.startFrom))
        return Status::ok();
    startPath_ = o_.startFrom == "starter" ? findStarterModel() : o_.startFrom;
    if (startPath_.empty())
        return Status(ErrorCode::NotFound, "no starter model is installed (looked in " +
                                               joined(starterModelSearchPath()) + ")");
    auto loaded = Model::load(startPath_);
    if (!loaded)
        return Status(loaded.status().code(),
                      "cannot start from " + startPath_ + ": " + loaded.status().detail());
    if (loaded->isTorchScript())
        return Status(ErrorCode::Unsupported,
                      startPath_ + " is an imported TorchScript module: it cannot be trained");
    const ModelConfig& c = loaded->info().config;
    if (taskForModel(c.type) != o_.task || c.type == ModelType::PatchGaussian)
        return Status(ErrorCode::InvalidArgument, startPath_ + " is a " + modelTypeName(c.type) +
                                                      " model, not one for the " +
                                                      taskName(o_.task) + " task");
    if (o_.task == TaskKind::Classify && loaded->info().classNames != ds_->classes)
        return Status(ErrorCode::InvalidArgument, startPath_ + " knows the classes " +
                                                      joined(loaded->info().classNames) +
                                                      ", the data has " + joined(ds_->classes));
    const int crop = mc_.inputSize;
    mc_ = c;
    mc_.inputSize = crop; // the crop is the job's; the network does not depend on it
    start_ = std::move(*loaded);
    ev_.notice("start_from", startPath_ + ": " + modelTypeName(mc_.type) + ", width " +
                                 std::to_string(mc_.width) + ", depth " +
                                 std::to_string(mc_.depth) +
                                 " (the architecture of the model training starts from)");
    return Status::ok();
}

/// The starting model's weights, buffers and normalisation into the job's network.
void Trainer::adoptStartingWeights()
{
    if (!start_)
        return;
    torch::NoGradGuard ng;
    auto from = start_->impl()->net;
    auto params = from->named_parameters(true);
    auto buffers = from->named_buffers(true);
    for (auto& p : net_->named_parameters(true))
        p.value().copy_(params[p.key()]);
    for (auto& b : net_->named_buffers(true))
        b.value().copy_(buffers[b.key()]);
    ModelInfo& info = model_.info();
    const ModelInfo& src = start_->info();
    info.mean = src.mean;
    info.std = src.std;
    info.threshold = src.threshold;
    const ModelProvenance prov = provenanceOf(src);
    nlohmann::json origin{{"file", startPath_}};
    if (!prov.name.empty())
        origin["name"] = prov.name;
    if (!prov.licence.empty())
        origin["licence"] = prov.licence;
    info.provenanceJson = nlohmann::json{{"started_from", origin}}.dump();
}

/// BatchNorm running statistics as a plain average over up to kBatchNormSamples augmented
/// training crops (momentum off: every batch weighs the same), weights untouched.
Status Trainer::reestimateBatchNorm()
{
    if (!start_ || !o_.resumeFrom.empty())
        return Status::ok();
    std::vector<torch::nn::BatchNorm2dImpl*> norms;
    net_->apply([&](torch::nn::Module& m) {
        if (auto* bn = m.as<torch::nn::BatchNorm2dImpl>())
            norms.push_back(bn);
    });
    if (norms.empty())
        return Status::ok();
    LoaderOptions lo;
    lo.inputSize = mc_.inputSize;
    lo.batchSize = std::max(2, std::min(st_.batchSize, kBatchNormSamples));
    lo.threads = std::max(1, o_.loaderThreads > 0 ? o_.loaderThreads : pol().loaderThreads);
    lo.prefetch = 2 * lo.threads;
    lo.augment = o_.augment;
    lo.shuffle = true;
    lo.minSamplesPerEpoch = kBatchNormSamples;
    lo.seed = o_.seed ^ 0x5bd1e995u;
    BatchLoader loader(*ds_, split_.train, lo);
    auto& L = *loader.impl();
    L.start(0, 0, lo.batchSize);
    for (auto* bn : norms) {
        bn->options.momentum(c10::nullopt); // cumulative average over the batches below
        bn->reset_running_stats();
    }
    net_->train();
    torch::NoGradGuard ng;
    data::Batch b;
    int seen = 0;
    while (seen < kBatchNormSamples && L.next(b, cancel_)) {
        const auto x = toInput(b.pixels.to(device_));
        model_.impl()->forward(x);
        seen += b.count;
    }
    for (auto* bn : norms)
        bn->options.momentum(0.1); // LibTorch's default again for training
    if (cancel_.isCancelled())
        return Status(ErrorCode::Cancelled, "cancelled while adapting the normalisation");
    if (!L.error.isOk())
        return L.error;
    ev_.notice("batchnorm_adapted", "BatchNorm statistics of " + std::to_string(norms.size()) +
                                        " layers re-estimated on " + std::to_string(seen) +
                                        " training crops");
    return Status::ok();
}

} // namespace fisura::train_detail
