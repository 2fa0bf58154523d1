// Model metadata and TorchScript sidecars as JSON text: plain C++ (no torch), so that parsing can
// be tested and fuzzed on its own (tests/fuzz).
#include "models/model_meta.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "util/json_int.h"

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

namespace
{

json parseOrEmpty(const std::string& text)
{
    json j = json::parse(text, nullptr, false);
    return j.is_discarded() ? json::object() : j;
}
} // namespace

namespace models
{

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

Status infoFromJson(const std::string& text, ModelInfo& i)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("format", json()) != "fisura-model")
        return Status(ErrorCode::Corrupt, "model metadata is not Fisura's");
    try {
        i.formatVersion = util::jsonToInt(j.at("format_version"));
        if (i.formatVersion > 1)
            return Status(ErrorCode::Unsupported, "model format " +
                                                      std::to_string(i.formatVersion) +
                                                      " is newer than this Fisura");
        const std::string type = j.at("type").get<std::string>();
        if (!parseType(type, i.config.type))
            return Status(ErrorCode::Unsupported, "unknown model type " + type);
        i.fisuraVersion = j.value("fisura_version", "");
        i.config.inputSize = util::jsonToInt(j.at("input_size"));
        i.config.classes = util::jsonInt(j, "classes", 2);
        i.config.depth = util::jsonInt(j, "depth", 4);
        i.config.width = util::jsonInt(j, "width", 16);
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
            i.config.featureDim = util::jsonInt(pg, "feature_dim", 32);
            i.config.patchRadius = util::jsonInt(pg, "radius", 2);
            i.config.pooledPositions = pg.value("pooled", true);
        }
        const json inf = j.value("inference", json::object());
        i.tileSize = util::jsonInt(inf, "tile", 0);
        i.tileOverlap = util::jsonInt(inf, "overlap", -1);
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

Status sidecarInfo(const std::string& sidecarPath, ModelInfo& i, bool& probabilities)
{
    std::ifstream in(sidecarPath, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in)
        return Status(ErrorCode::Corrupt, sidecarPath + ": not a JSON object");
    return sidecarInfoFromText(text.str(), sidecarPath, i, probabilities);
}

Status sidecarInfoFromText(const std::string& text, const std::string& sidecarPath, ModelInfo& i,
                           bool& probabilities)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
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
        i.config.inputSize = util::jsonToInt(j.at("input_size"));
        if (i.config.inputSize < 16 || i.config.inputSize > 4096)
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": input_size must be 16..4096");
        i.inputChannels = util::jsonInt(j, "input_channels", 3);
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
        i.tileSize = util::jsonInt(j, "tile", 0);
        i.tileOverlap = util::jsonInt(j, "overlap", -1);
        i.metricsJson = j.value("metrics", json::object()).dump();
        i.trainedAt = j.value("trained_at", "");
        i.source = "torchscript";
        i.fisuraVersion.clear();
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, sidecarPath + ": " + e.what());
    }
    return Status::ok();
}

} // namespace models
} // namespace fisura
