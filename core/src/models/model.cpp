#include "compat/torch_compat.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fisura/version.h"
#include "models/model_impl.h"
#include "models/patch_gaussian.h"
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
    case ModelType::PatchGaussian:
        return "patch-gaussian";
    }
    return "unet";
}

TaskKind taskForModel(ModelType t)
{
    switch (t) {
    case ModelType::Classifier:
        return TaskKind::Classify;
    case ModelType::UNet:
        return TaskKind::Segment;
    case ModelType::Autoencoder:
    case ModelType::PatchGaussian:
        return TaskKind::Anomaly;
    }
    return TaskKind::Segment;
}

const char* patchFeaturesName(PatchFeatures f)
{
    return f == PatchFeatures::Pixels ? "pixels" : "cnn";
}

Result<PatchGaussianSize> patchGaussianSize(const ModelConfig& c)
{
    if (c.inputSize < 16 || c.inputSize > 4096)
        return Status(ErrorCode::InvalidArgument, "input size must be 16..4096 px");
    if (c.featureDim < 1 || c.featureDim > 1024)
        return Status(ErrorCode::InvalidArgument, "feature dimension must be 1..1024");
    if (c.patchRadius < 0 || c.patchRadius > 7)
        return Status(ErrorCode::InvalidArgument, "patch radius must be 0..7");
    PatchGaussianSize s;
    s.gridSize = models::patchGridSize(c);
    s.positions = c.pooledPositions ? 1 : int64_t(s.gridSize) * s.gridSize;
    s.featureDim = models::patchFeatureDim(c);
    const uint64_t d = uint64_t(s.featureDim);
    s.modelBytes = uint64_t(s.positions) * (d * d + d) * 4;
    // The accumulator's float64 sums (outer products, sums, shift and the norms Ledoit-Wolf
    // needs) and the float32 statistics it finishes into.
    const uint64_t accumulator = uint64_t(s.positions) * (d * d + 3 * d + 2) * 8;
    s.fitBytes = accumulator + anomaly::statisticsBytes(s.positions, s.featureDim);
    return s;
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
           {"trained_at", i.trainedAt},
           {"source", i.source},
           {"input_channels", i.inputChannels},
           {"inference", {{"tile", i.tileSize}, {"overlap", i.tileOverlap}}}};
    if (i.config.type == ModelType::PatchGaussian)
        j["patch_gaussian"] = {{"features", patchFeaturesName(i.config.patchFeatures)},
                               {"feature_dim", i.config.featureDim},
                               {"radius", i.config.patchRadius},
                               {"pooled", i.config.pooledPositions}};
    return j.dump(indent);
}

bool parseType(const std::string& name, ModelType& out);

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
        if (!parseType(type, i.config.type))
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
        if (const json pg = j.value("patch_gaussian", json::object()); !pg.empty()) {
            i.config.patchFeatures = pg.value("features", "cnn") == "pixels" ? PatchFeatures::Pixels
                                                                             : PatchFeatures::Cnn;
            i.config.featureDim = pg.value("feature_dim", 32);
            i.config.patchRadius = pg.value("radius", 2);
            i.config.pooledPositions = pg.value("pooled", true);
        }
        const json inf = j.value("inference", json::object());
        i.tileSize = inf.value("tile", 0);
        i.tileOverlap = inf.value("overlap", -1);
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, std::string("model metadata: ") + e.what());
    }
    return Status::ok();
}

bool parseType(const std::string& name, ModelType& out)
{
    for (ModelType t :
         {ModelType::Classifier, ModelType::UNet, ModelType::Autoencoder, ModelType::PatchGaussian})
        if (name == modelTypeName(t)) {
            out = t;
            return true;
        }
    return false;
}

/// `model.pt.json`, else `model.json`; empty when neither exists.
std::string sidecarFor(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_regular_file(path + ".json", ec))
        return path + ".json";
    const auto stem = std::filesystem::path(path).replace_extension(".json");
    if (stem.string() != path && std::filesystem::is_regular_file(stem, ec))
        return stem.string();
    return {};
}

/// The sidecar of a TorchScript module into ModelInfo (see model.h for the format).
Status sidecarInfo(const std::string& sidecarPath, ModelInfo& i, bool& probabilities)
{
    std::ifstream in(sidecarPath);
    std::stringstream text;
    text << in.rdbuf();
    json j = json::parse(text.str(), nullptr, false);
    if (!in || j.is_discarded() || !j.is_object())
        return Status(ErrorCode::Corrupt, sidecarPath + ": not a JSON object");
    try {
        const std::string format = j.value("format", "fisura-torchscript");
        if (format != "fisura-torchscript")
            return Status(ErrorCode::Unsupported, sidecarPath + ": format " + format);
        const std::string type = j.at("type").get<std::string>();
        if (!parseType(type, i.config.type) || i.config.type == ModelType::PatchGaussian)
            return Status(ErrorCode::Unsupported,
                          sidecarPath + ": unknown type " + type +
                              " (expected unet, classifier or autoencoder)");
        i.config.inputSize = j.at("input_size").get<int>();
        if (i.config.inputSize < 16 || i.config.inputSize > 4096)
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": input_size must be 16..4096");
        i.inputChannels = j.value("input_channels", 3);
        if (i.inputChannels != 1 && i.inputChannels != 3)
            return Status(ErrorCode::Unsupported, sidecarPath + ": input_channels must be 1 or 3");
        const std::string output = j.value("output", "logits");
        if (output != "logits" && output != "probabilities")
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": output must be logits or probabilities");
        probabilities = output == "probabilities";
        const json norm = j.value("normalization", json::object());
        const std::vector<float> zero(size_t(i.inputChannels), 0.f), one(zero.size(), 1.f);
        i.mean = norm.value("mean", i.config.type == ModelType::Autoencoder
                                        ? zero
                                        : std::vector<float>(zero.size(), 0.5f));
        i.std = norm.value("std", i.config.type == ModelType::Autoencoder
                                      ? one
                                      : std::vector<float>(zero.size(), 0.25f));
        if (i.mean.size() != zero.size() || i.std.size() != zero.size())
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": normalization needs one mean and std per channel");
        for (float s : i.std)
            if (!(s > 0.f))
                return Status(ErrorCode::InvalidArgument,
                              sidecarPath + ": normalization std must be positive");
        i.classNames = j.value("class_names", std::vector<std::string>{});
        i.config.classes = i.classNames.empty() ? 2 : int(i.classNames.size());
        i.threshold = j.value("threshold", 0.5);
        i.tileSize = j.value("tile", 0);
        i.tileOverlap = j.value("overlap", -1);
        i.metricsJson = j.value("metrics", json::object()).dump();
        i.trainedAt = j.value("trained_at", "");
        i.source = "torchscript";
        i.fisuraVersion.clear();
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, sidecarPath + ": " + e.what());
    }
    return Status::ok();
}

Result<Model> loadTorchScript(const std::string& path, const std::string& sidecarPath)
{
    Model m;
    Model::Impl& d = *m.impl();
    if (Status st = sidecarInfo(sidecarPath, d.info, d.scriptOutputsProbabilities); !st)
        return st;
    try {
        d.script = torch::jit::load(path, torch::Device(torch::kCPU));
        d.script->eval();
    } catch (const c10::Error& e) {
        return Status(ErrorCode::Corrupt, path + ": not a TorchScript module: " +
                                              std::string(e.what_without_backtrace()));
    }
    return m;
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
        if (config.type == ModelType::PatchGaussian) {
            if (auto size = patchGaussianSize(config); !size)
                return size.status();
            m.impl_->info.config.featureDim = models::patchFeatureDim(config);
            if (config.patchFeatures == PatchFeatures::Pixels) { // affine-invariant: raw pixels
                m.impl_->info.mean = {0.f, 0.f, 0.f};
                m.impl_->info.std = {1.f, 1.f, 1.f};
            }
        }
        m.impl_->net = models::makeNetwork(m.impl_->info.config);
        return m;
    } catch (const c10::Error& e) {
        return Status(ErrorCode::DeviceError, e.what_without_backtrace());
    }
}

Result<Model> Model::load(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return Status(ErrorCode::NotFound, path + ": no such model file");
    try {
        torch::serialize::InputArchive ar;
        ar.load_from(path, torch::Device(torch::kCPU));
        c10::IValue meta;
        if (!ar.try_read(kMetadataKey, meta) || !meta.isString()) {
            // Not Fisura's own: a TorchScript module exported from PyTorch, if described.
            if (const std::string side = sidecarFor(path); !side.empty())
                return loadTorchScript(path, side);
            return Status(ErrorCode::Corrupt,
                          path +
                              " has no Fisura metadata (a TorchScript module needs a JSON "
                              "sidecar: " +
                              path + ".json)");
        }
        Model m;
        if (Status st = infoFromJson(meta.toStringRef(), m.impl_->info); !st)
            return Status(st.code(), path + ": " + st.detail());
        m.impl_->net = models::makeNetwork(m.impl_->info.config);
        m.impl_->net->load(ar);
        if (m.impl_->info.config.type == ModelType::PatchGaussian &&
            !static_cast<models::PatchGaussianImpl&>(*m.impl_->net).consistent())
            return Status(ErrorCode::Corrupt,
                          path + ": the patch statistics do not match the model's configuration");
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
    if (impl_->script)
        return Status(ErrorCode::Unsupported,
                      "an imported TorchScript model cannot be saved as a Fisura model");
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
    if (impl_->script) {
        for (const auto& p : impl_->script->parameters())
            n += p.numel();
        return n;
    }
    for (const auto& p : impl_->net->parameters())
        n += p.numel();
    return n;
}

bool Model::isTorchScript() const
{
    return impl_->script.has_value();
}

std::string Model::metadataJson(int indent) const
{
    return metadataOf(impl_->info, indent);
}

} // namespace fisura
