// Model metadata and TorchScript sidecars as JSON text: plain C++ (no torch), so that parsing can
// be tested and fuzzed on its own (tests/fuzz).
#include "models/model_meta.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "util/json_bounded.h"

using nlohmann::json;

namespace fisura
{

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
    json j = util::parseJsonOrNull<json>(text);
    return j.is_null() ? json::object() : j;
}

/// An integer member of `j` within int's range (a float or a huge number is refused rather than
/// converted); `fallback` when absent. Throws json::other_error, caught where JSON errors are.
int intField(const json& j, const char* key, int fallback)
{
    const auto it = j.find(key);
    if (it == j.end())
        return fallback;
    const auto bad = [&] {
        return json::other_error::create(501, std::string(key) + " must be an integer", &j);
    };
    if (it->is_number_unsigned()) {
        if (it->get<uint64_t>() > uint64_t(std::numeric_limits<int>::max()))
            throw bad();
        return int(it->get<uint64_t>());
    }
    if (!it->is_number_integer())
        throw bad();
    const int64_t v = it->get<int64_t>();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        throw bad();
    return int(v);
}

/// A required integer member.
int intField(const json& j, const char* key)
{
    if (!j.contains(key))
        throw json::other_error::create(501, std::string(key) + " is missing", &j);
    return intField(j, key, 0);
}
} // namespace

namespace models
{

int autoencoderDepth(int inputSize)
{
    int d = 0;
    for (int s = inputSize; s > 16 && d < 6; s /= 2)
        ++d;
    return std::max(1, d);
}

int patchBaseWidth(const ModelConfig& c)
{
    return std::clamp(c.width, 4, 64);
}

int patchGridSize(const ModelConfig& c)
{
    if (c.patchFeatures == PatchFeatures::Pixels)
        return c.inputSize / 2;   // 2x2 average pooling
    return (c.inputSize + 1) / 2; // a stride-2 convolution with padding 1
}

int patchRawChannels(const ModelConfig& c)
{
    if (c.patchFeatures == PatchFeatures::Cnn)
        return 7 * patchBaseWidth(c); // stages of w, 2w and 4w channels, concatenated
    const int side = 2 * std::max(0, c.patchRadius) + 1;
    return side * side;
}

int patchFeatureDim(const ModelConfig& c)
{
    return std::clamp(c.featureDim, 1, patchRawChannels(c));
}

namespace
{

// Bytes of the layers of networks.cpp / patch_gaussian.cpp, mirrored: fp32 weights, BatchNorm's
// weight, bias, running mean and variance plus its int64 batch counter.
uint64_t convBytes(uint64_t in, uint64_t out, uint64_t k, bool bias)
{
    return (in * out * k * k + (bias ? out : 0)) * 4;
}
uint64_t batchNormBytes(uint64_t c)
{
    return 4 * c * 4 + 8;
}
uint64_t doubleConvBytes(uint64_t in, uint64_t out)
{
    return convBytes(in, out, 3, false) + convBytes(out, out, 3, false) + 2 * batchNormBytes(out);
}
uint64_t residualBytes(uint64_t in, uint64_t out, bool shortcut)
{
    uint64_t b =
        convBytes(in, out, 3, false) + convBytes(out, out, 3, false) + 2 * batchNormBytes(out);
    if (shortcut)
        b += convBytes(in, out, 1, false) + batchNormBytes(out);
    return b;
}

uint64_t classifierBytes(const ModelConfig& c)
{
    const uint64_t w = uint64_t(std::max(4, c.width));
    const int depth = c.depth > 0 ? std::clamp(c.depth, 1, 6) : 4;
    uint64_t b = convBytes(3, w, 3, false) + batchNormBytes(w), in = w;
    for (int i = 0; i < depth; ++i) {
        const uint64_t out = w << i;
        b += residualBytes(in, out, i != 0 || in != out) + residualBytes(out, out, false);
        in = out;
    }
    const uint64_t classes = uint64_t(std::max(2, c.classes));
    return b + (in * classes + classes) * 4;
}

uint64_t unetBytes(const ModelConfig& c)
{
    const uint64_t w = uint64_t(std::max(4, c.width));
    const int depth = c.depth > 0 ? std::clamp(c.depth, 1, 6) : 4;
    uint64_t b = 0, in = 3;
    for (int i = 0; i < depth; ++i) {
        b += doubleConvBytes(in, w << i);
        in = w << i;
    }
    b += doubleConvBytes(in, w << depth);
    for (int i = depth - 1; i >= 0; --i)
        b += convBytes(w << (i + 1), w << i, 2, true) + doubleConvBytes(w << (i + 1), w << i);
    return b + convBytes(w, 1, 1, true);
}

uint64_t autoencoderBytes(const ModelConfig& c)
{
    const uint64_t w = uint64_t(std::max(4, c.width));
    const int depth = c.depth > 0 ? c.depth : autoencoderDepth(c.inputSize);
    uint64_t b = 0, in = 3;
    for (int i = 0; i < depth; ++i) {
        const uint64_t out = std::min<uint64_t>(w << i, 256);
        b += convBytes(in, out, 3, false) + batchNormBytes(out);
        in = out;
    }
    for (int i = depth - 1; i >= 0; --i) {
        const uint64_t out = i == 0 ? w : std::min<uint64_t>(w << (i - 1), 256);
        b += convBytes(in, out, 2, true) + batchNormBytes(out);
        in = out;
    }
    return b + convBytes(in, 3, 3, true);
}

uint64_t patchGaussianBytes(const ModelConfig& c)
{
    uint64_t b = 0;
    if (c.patchFeatures == PatchFeatures::Cnn) {
        const uint64_t w = uint64_t(patchBaseWidth(c));
        b += convBytes(3, w, 3, true) + convBytes(w, 2 * w, 3, true) +
             convBytes(2 * w, 4 * w, 3, true);
    }
    const uint64_t d = uint64_t(patchFeatureDim(c));
    const uint64_t grid = uint64_t(patchGridSize(c));
    const uint64_t positions = c.pooledPositions ? 1 : grid * grid;
    return b + d * 8 + positions * (d + d * d) * 4; // channels (int64), mean, precision
}

/// The ranges of kMax*: what infoFromJson accepts (so networkBytes cannot overflow).
Status checkRanges(const ModelInfo& i)
{
    const ModelConfig& c = i.config;
    const auto outside = [](int v, int lo, int hi) { return v < lo || v > hi; };
    std::string bad;
    if (outside(c.inputSize, kMinInputSize, kMaxInputSize))
        bad = "input_size " + std::to_string(c.inputSize) + " (16..4096)";
    else if (outside(c.depth, 0, kMaxDepth))
        bad = "depth " + std::to_string(c.depth) + " (0..8)";
    else if (outside(c.width, 1, kMaxWidth))
        bad = "width " + std::to_string(c.width) + " (1..1024)";
    else if (outside(c.classes, 1, kMaxClasses) || i.classNames.size() > size_t(kMaxClasses))
        bad = "classes " + std::to_string(c.classes) + " (1..4096)";
    else if (outside(c.featureDim, 1, kMaxFeatureDim))
        bad = "feature_dim " + std::to_string(c.featureDim) + " (1..1024)";
    else if (outside(c.patchRadius, 0, kMaxPatchRadius))
        bad = "patch radius " + std::to_string(c.patchRadius) + " (0..7)";
    else if (i.mean.size() != size_t(i.inputChannels) || i.std.size() != size_t(i.inputChannels))
        bad = "normalization (one mean and std per input channel)";
    else if (!std::isfinite(i.threshold) || i.threshold < 0)
        bad = "threshold (a finite number >= 0)";
    else if (outside(i.tileSize, 0, kMaxTile) || outside(i.tileOverlap, -1, kMaxTile / 2))
        bad = "inference tile or overlap";
    for (size_t k = 0; bad.empty() && k < i.mean.size(); ++k)
        if (!std::isfinite(i.mean[k]) || !std::isfinite(i.std[k]) || !(i.std[k] > 0.f))
            bad = "normalization (finite values, std > 0)";
    if (!bad.empty())
        return Status(ErrorCode::Corrupt, "model metadata out of range: " + bad);
    return Status::ok();
}

} // namespace

uint64_t networkBytes(const ModelConfig& c)
{
    switch (c.type) {
    case ModelType::Classifier:
        return classifierBytes(c);
    case ModelType::UNet:
        return unetBytes(c);
    case ModelType::Autoencoder:
        return autoencoderBytes(c);
    case ModelType::PatchGaussian:
        return patchGaussianBytes(c);
    }
    return 0;
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
    if (const json prov = parseOrEmpty(i.provenanceJson); prov.is_object() && !prov.empty())
        j["provenance"] = prov;
    if (i.config.type == ModelType::PatchGaussian)
        j["patch_gaussian"] = {{"features", patchFeaturesName(i.config.patchFeatures)},
                               {"feature_dim", i.config.featureDim},
                               {"radius", i.config.patchRadius},
                               {"pooled", i.config.pooledPositions}};
    return util::dumpJson(j, indent);
}

Status infoFromJson(const std::string& text, ModelInfo& i)
{
    auto parsed = util::parseJson<json>(text, "model metadata");
    if (!parsed)
        return parsed.status();
    const json& j = *parsed;
    const auto notFisura = [] {
        return Status(ErrorCode::Corrupt, "model metadata is not Fisura's");
    };
    if (!j.is_object())
        return notFisura();
    try {
        if (!j.contains("format") || j.at("format") != "fisura-model")
            return notFisura();
        i.formatVersion = intField(j, "format_version");
        if (i.formatVersion > 1)
            return Status(ErrorCode::Unsupported, "model format " +
                                                      std::to_string(i.formatVersion) +
                                                      " is newer than this Fisura");
        const std::string type = j.at("type").get<std::string>();
        if (!parseType(type, i.config.type))
            return Status(ErrorCode::Unsupported, "unknown model type " + type);
        i.fisuraVersion = j.value("fisura_version", "");
        i.config.inputSize = intField(j, "input_size");
        i.config.classes = intField(j, "classes", 2);
        i.config.depth = intField(j, "depth", 4);
        i.config.width = intField(j, "width", 16);
        i.mean = j.at("normalization").at("mean").get<std::vector<float>>();
        i.std = j.at("normalization").at("std").get<std::vector<float>>();
        i.classNames = j.value("class_names", std::vector<std::string>{});
        i.threshold = j.value("threshold", 0.5);
        i.policyJson = util::dumpJson(j.value("policy", json::object()));
        i.metricsJson = util::dumpJson(j.value("metrics", json::object()));
        i.datasetJson = util::dumpJson(j.value("dataset", json::object()));
        i.trainedAt = j.value("trained_at", "");
        if (const auto p = j.find("provenance"); p != j.end() && p->is_object())
            i.provenanceJson = p->dump();
        if (const json pg = j.value("patch_gaussian", json::object()); !pg.empty()) {
            i.config.patchFeatures = pg.value("features", "cnn") == "pixels" ? PatchFeatures::Pixels
                                                                             : PatchFeatures::Cnn;
            i.config.featureDim = intField(pg, "feature_dim", 32);
            i.config.patchRadius = intField(pg, "radius", 2);
            i.config.pooledPositions = pg.value("pooled", true);
        }
        const json inf = j.value("inference", json::object());
        i.tileSize = intField(inf, "tile", 0);
        i.tileOverlap = intField(inf, "overlap", -1);
        i.inputChannels = intField(j, "input_channels", 3);
        if (i.inputChannels != 3) // Fisura's own networks take RGB
            return Status(ErrorCode::Corrupt, "model metadata: input_channels must be 3");
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, std::string("model metadata: ") + e.what());
    }
    return checkRanges(i);
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
    std::error_code ec;
    const auto size = std::filesystem::file_size(sidecarPath, ec);
    if (!ec && size > kMaxSidecarBytes)
        return Status(ErrorCode::TooLarge,
                      sidecarPath + ": " + std::to_string(size) + " bytes, more than the " +
                          std::to_string(kMaxSidecarBytes) + " a model's JSON sidecar may have");
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
    auto parsed = util::parseJson<json>(text, sidecarPath);
    if (!parsed)
        return parsed.status();
    const json& j = *parsed;
    if (!j.is_object())
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
        i.config.inputSize = intField(j, "input_size");
        if (i.config.inputSize < kMinInputSize || i.config.inputSize > kMaxInputSize)
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": input_size must be 16..4096");
        i.inputChannels = intField(j, "input_channels", 3);
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
        for (size_t k = 0; k < i.std.size(); ++k)
            if (!(i.std[k] > 0.f) || !std::isfinite(i.std[k]) || !std::isfinite(i.mean[k]))
                return Status(ErrorCode::InvalidArgument,
                              sidecarPath + ": normalization std must be positive");
        i.classNames = j.value("class_names", std::vector<std::string>{});
        if (i.classNames.size() > size_t(kMaxClasses))
            return Status(ErrorCode::InvalidArgument, sidecarPath + ": too many class_names");
        i.config.classes = i.classNames.empty() ? 2 : int(i.classNames.size());
        i.threshold = j.value("threshold", 0.5);
        if (!std::isfinite(i.threshold) || i.threshold < 0)
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": threshold must be a finite number >= 0");
        i.tileSize = intField(j, "tile", 0);
        i.tileOverlap = intField(j, "overlap", -1);
        if (i.tileSize < 0 || i.tileSize > kMaxTile || i.tileOverlap < -1 ||
            i.tileOverlap > kMaxTile / 2)
            return Status(ErrorCode::InvalidArgument,
                          sidecarPath + ": tile must be 0..65536 and overlap -1..32768");
        i.metricsJson = util::dumpJson(j.value("metrics", json::object()));
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
