#include "compat/torch_compat.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "fisura/version.h"
#include "models/model_impl.h"
#include "util/atomic_file.h"

using nlohmann::json;

namespace fisura
{

const char* modelTypeName(ModelType t)
{
    switch (t) {
    case ModelType::Classifier:
        return "classifier";
    case ModelType::UNet:
        return "unet";
    case ModelType::Autoencoder:
        return "autoencoder";
    }
    return "unet";
}

ModelType modelTypeFor(TaskKind task)
{
    switch (task) {
    case TaskKind::Classify:
        return ModelType::Classifier;
    case TaskKind::Segment:
        return ModelType::UNet;
    case TaskKind::Anomaly:
        return ModelType::Autoencoder;
    }
    return ModelType::UNet;
}

namespace
{
constexpr const char* kMetadataKey = "fisura_metadata";

json parseOrEmpty(const std::string& text)
{
    json j = json::parse(text, nullptr, false);
    return j.is_discarded() ? json::object() : j;
}

std::string metadataOf(const ModelInfo& i, int indent)
{
    json j{{"format", "fisura-model"},
           {"format_version", i.formatVersion},
           {"fisura_version", i.fisuraVersion},
           {"type", modelTypeName(i.config.type)},
           {"input_size", i.config.inputSize},
           {"classes", i.config.classes},
           {"depth", i.config.depth},
           {"width", i.config.width},
           {"normalization", {{"mean", i.mean}, {"std", i.std}}},
           {"class_names", i.classNames},
           {"threshold", i.threshold},
           {"policy", parseOrEmpty(i.policyJson)},
           {"metrics", parseOrEmpty(i.metricsJson)},
           {"dataset", parseOrEmpty(i.datasetJson)},
           {"trained_at", i.trainedAt}};
    return j.dump(indent);
}

Status infoFromJson(const std::string& text, ModelInfo& i)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || j.value("format", "") != "fisura-model")
        return Status(ErrorCode::Corrupt, "model metadata is not Fisura's");
    try {
        i.formatVersion = j.at("format_version").get<int>();
        if (i.formatVersion > 1)
            return Status(ErrorCode::Unsupported, "model format " +
                                                      std::to_string(i.formatVersion) +
                                                      " is newer than this Fisura");
        const std::string type = j.at("type").get<std::string>();
        bool known = false;
        for (ModelType t : {ModelType::Classifier, ModelType::UNet, ModelType::Autoencoder})
            if (type == modelTypeName(t)) {
                i.config.type = t;
                known = true;
            }
        if (!known)
            return Status(ErrorCode::Unsupported, "unknown model type " + type);
        i.fisuraVersion = j.value("fisura_version", "");
        i.config.inputSize = j.at("input_size").get<int>();
        i.config.classes = j.value("classes", 2);
        i.config.depth = j.value("depth", 4);
        i.config.width = j.value("width", 16);
        i.mean = j.at("normalization").at("mean").get<std::vector<float>>();
        i.std = j.at("normalization").at("std").get<std::vector<float>>();
        i.classNames = j.value("class_names", std::vector<std::string>{});
        i.threshold = j.value("threshold", 0.5);
        i.policyJson = j.value("policy", json::object()).dump();
        i.metricsJson = j.value("metrics", json::object()).dump();
        i.datasetJson = j.value("dataset", json::object()).dump();
        i.trainedAt = j.value("trained_at", "");
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, std::string("model metadata: ") + e.what());
    }
    return Status::ok();
}

} // namespace

Model::Model() : impl_(std::make_unique<Impl>()) {}
Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

Result<Model> Model::create(const ModelConfig& config, uint64_t seed)
{
    if (config.inputSize < 16 || config.inputSize > 4096)
        return Status(ErrorCode::InvalidArgument, "input size must be 16..4096 px");
    const int depth = config.depth > 0 ? config.depth : 4;
    if (config.type == ModelType::UNet && config.inputSize % (1 << depth) != 0)
        return Status(ErrorCode::InvalidArgument,
                      "U-Net input size must be a multiple of " + std::to_string(1 << depth));
    try {
        torch::manual_seed(seed);
        Model m;
        m.impl_->info.config = config;
        m.impl_->info.fisuraVersion = version();
        if (config.type == ModelType::Autoencoder) {
            m.impl_->info.mean = {0.f, 0.f, 0.f};
            m.impl_->info.std = {1.f, 1.f, 1.f};
            m.impl_->info.config.depth =
                config.depth > 0 ? config.depth : models::autoencoderDepth(config.inputSize);
        }
        m.impl_->net = models::makeNetwork(m.impl_->info.config);
        return m;
    } catch (const c10::Error& e) {
        return Status(ErrorCode::DeviceError, e.what_without_backtrace());
    }
}

Result<Model> Model::load(const std::string& path)
{
    try {
        torch::serialize::InputArchive ar;
        ar.load_from(path, torch::Device(torch::kCPU));
        c10::IValue meta;
        if (!ar.try_read(kMetadataKey, meta) || !meta.isString())
            return Status(ErrorCode::Corrupt, path + " has no Fisura metadata");
        Model m;
        if (Status st = infoFromJson(meta.toStringRef(), m.impl_->info); !st)
            return Status(st.code(), path + ": " + st.detail());
        m.impl_->net = models::makeNetwork(m.impl_->info.config);
        m.impl_->net->load(ar);
        return m;
    } catch (const c10::Error& e) {
        const std::string msg = e.what_without_backtrace();
        if (msg.find("open file") != std::string::npos)
            return Status(ErrorCode::NotFound, path + ": " + msg);
        return Status(ErrorCode::Corrupt, path + ": " + msg);
    } catch (const std::exception& e) {
        return Status(ErrorCode::Corrupt, path + ": " + e.what());
    }
}

Status Model::save(const std::string& path) const
{
    try {
        torch::serialize::OutputArchive ar;
        impl_->net->save(ar);
        ar.write(kMetadataKey, c10::IValue(metadataOf(impl_->info, -1)));
        std::ostringstream os;
        ar.save_to(os);
        return writeFileAtomic(path, os.str());
    } catch (const c10::Error& e) {
        return Status(ErrorCode::IoError, path + ": " + e.what_without_backtrace());
    }
}

ModelInfo& Model::info()
{
    return impl_->info;
}
const ModelInfo& Model::info() const
{
    return impl_->info;
}

int64_t Model::parameterCount() const
{
    int64_t n = 0;
    for (const auto& p : impl_->net->parameters())
        n += p.numel();
    return n;
}

std::string Model::metadataJson(int indent) const
{
    return metadataOf(impl_->info, indent);
}

} // namespace fisura
