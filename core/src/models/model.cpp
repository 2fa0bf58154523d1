#include "compat/torch_compat.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "device/torch_step.h"
#include "fisura/version.h"
#include "models/model_archive.h"
#include "models/model_impl.h"
#include "models/model_meta.h"
#include "models/patch_gaussian.h"
#include "models/zip_check.h"
#include "util/atomic_file.h"

namespace fisura
{

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

namespace
{
constexpr const char* kMetadataKey = "fisura_metadata";

std::string gib(uint64_t bytes)
{
    std::ostringstream os;
    os.precision(bytes < (uint64_t(10) << 30) ? 2 : 1);
    os << std::fixed << double(bytes) / double(uint64_t(1) << 30) << " GiB";
    return os.str();
}

/// NaN or infinity in a weight: the file is damaged (or was saved from a run that diverged); a
/// map made with it would be silently empty or full. "" when every value is finite.
std::string nonFiniteWeights(const std::vector<std::pair<std::string, torch::Tensor>>& named)
{
    for (const auto& [name, t] : named) {
        if (!t.defined() || !t.is_floating_point())
            continue;
        const int64_t bad = (~torch::isfinite(t)).sum().item<int64_t>();
        if (bad > 0)
            return std::to_string(bad) + " of the " + std::to_string(t.numel()) + " values of " +
                   name + " are NaN or infinite";
    }
    return {};
}

Status checkFinite(const std::string& path,
                   const std::vector<std::pair<std::string, torch::Tensor>>& named)
{
    const std::string bad = nonFiniteWeights(named);
    if (bad.empty())
        return Status::ok();
    return Status(ErrorCode::Corrupt,
                  path + ": the weights are not finite numbers (" + bad +
                      "): the file is damaged, or the training that wrote it diverged");
}

std::vector<std::pair<std::string, torch::Tensor>> namedTensors(const torch::nn::Module& net)
{
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (const auto& p : net.named_parameters(true))
        out.emplace_back(p.key(), p.value());
    for (const auto& b : net.named_buffers(true))
        out.emplace_back(b.key(), b.value());
    return out;
}

std::vector<std::pair<std::string, torch::Tensor>> namedTensors(const torch::jit::Module& m)
{
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (const auto& p : m.named_parameters(true))
        out.emplace_back(p.name, p.value);
    for (const auto& b : m.named_buffers(true))
        out.emplace_back(b.name, b.value);
    return out;
}

/// A TorchScript module with a valid sidecar: refused without consent, since loading it runs
/// code stored in the file.
Result<Model> loadTorchScript(const std::string& path, const std::string& sidecarPath,
                              const ModelLoadOptions& options)
{
    Model m;
    Model::Impl& d = *m.impl();
    if (Status st = models::sidecarInfo(sidecarPath, d.info, d.scriptOutputsProbabilities); !st)
        return st;
    if (!options.allowTorchScript)
        return Status(ErrorCode::NeedsConsent,
                      path + " is a TorchScript module: loading it runs code stored in the file");
    try {
        d.script = torch::jit::load(path, torch::Device(torch::kCPU));
        d.script->eval();
    } catch (const c10::Error& e) {
        return Status(ErrorCode::Corrupt, path + ": not a TorchScript module: " +
                                              std::string(e.what_without_backtrace()));
    }
    if (Status st = checkFinite(path, namedTensors(*d.script)); !st)
        return st;
    return m;
}

/// The checks a Fisura archive passes before its weights are read: metadata in range, a network
/// no larger than the file, no code, and the stored tensors named and shaped as that network's.
/// On success `m` holds the metadata and the freshly built (untrained) network.
Status checkFisuraArchive(const std::string& path, uint64_t fileSize,
                          const models::ArchiveInventory& inv, Model& m)
{
    ModelInfo& info = m.impl()->info;
    if (Status st = models::infoFromJson(inv.metadata, info); !st)
        return Status(st.code(), path + ": " + st.detail());
    const uint64_t need = models::networkBytes(info.config);
    if (need > fileSize || inv.storageBytes > fileSize)
        return Status(ErrorCode::Corrupt, path + ": the metadata describes a network of " +
                                              std::to_string(std::max(need, inv.storageBytes)) +
                                              " bytes of weights, but the file has only " +
                                              std::to_string(fileSize) + " bytes");
    if (inv.hasCode)
        return Status(ErrorCode::Corrupt,
                      path + ": the file holds code, which a Fisura model never does (a "
                             "TorchScript module needs a JSON sidecar)");
    if (!inv.missingRecords.empty())
        return Status(ErrorCode::Corrupt, path + ": the weights record data/" +
                                              inv.missingRecords.front() + " is missing");
    m.impl()->net = models::makeNetwork(info.config);
    if (const std::string diff =
            models::firstDifference(models::stateOf(*m.impl()->net), inv.tensors);
        !diff.empty())
        return Status(ErrorCode::Corrupt, path +
                                              ": the weights do not match the network the "
                                              "metadata describes (" +
                                              modelTypeName(info.config.type) + "): " + diff);
    return Status::ok();
}

Result<Model> loadChecked(const std::string& path, uint64_t fileSize,
                          const ModelLoadOptions& options)
{
    // Every record against its CRC-32 first: LibTorch reads damaged weights without a word.
    if (Status st = models::verifyZipFile(path); !st)
        return Status(st.code(), path + ": not a model file, or a damaged one: " + st.detail());
    auto inv = models::inspectArchive(path);
    if (!inv)
        return Status(ErrorCode::Corrupt, path + ": not a model file: " + inv.status().detail());
    if (!inv->hasMetadata) {
        // Not Fisura's own: a TorchScript module exported from PyTorch, if described.
        if (const std::string side = models::sidecarFor(path); !side.empty())
            return loadTorchScript(path, side, options);
        if (!inv->pickleError.empty())
            return Status(ErrorCode::Corrupt, path + ": " + inv->pickleError);
        return Status(ErrorCode::Corrupt, path +
                                              " has no Fisura metadata (a TorchScript module "
                                              "needs a JSON sidecar: " +
                                              path + ".json)");
    }
    Model m;
    if (Status st = checkFisuraArchive(path, fileSize, *inv, m); !st)
        return st;
    torch::serialize::InputArchive ar;
    ar.load_from(path, torch::Device(torch::kCPU));
    m.impl()->net->load(ar);
    // InputArchive replaces each tensor with the stored one whatever its shape: check again.
    if (const std::string diff =
            models::firstDifference(models::stateOf(*m.impl()->net), inv->tensors);
        !diff.empty())
        return Status(ErrorCode::Corrupt, path + ": " + diff);
    if (m.info().config.type == ModelType::PatchGaussian &&
        !static_cast<models::PatchGaussianImpl&>(*m.impl()->net).consistent())
        return Status(ErrorCode::Corrupt,
                      path + ": the patch statistics do not match the model's configuration");
    if (Status st = checkFinite(path, namedTensors(*m.impl()->net)); !st)
        return st;
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
        return detail::torchErrorStatus(e);
    }
}

Result<Model> Model::load(const std::string& path)
{
    return load(path, ModelLoadOptions{});
}

Result<Model> Model::load(const std::string& path, const ModelLoadOptions& options)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return Status(ErrorCode::NotFound, path + ": no such model file");
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
        return Status(ErrorCode::IoError, path + ": " + ec.message());
    if (size > options.maxBytes)
        return Status(ErrorCode::TooLarge,
                      path + " is " + std::to_string(size) + " bytes (" + gib(size) +
                          "), more than the " + std::to_string(options.maxBytes) + " bytes (" +
                          gib(options.maxBytes) + ") allowed for a model file");
    try {
        return loadChecked(path, size, options);
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
        ar.write(kMetadataKey, c10::IValue(models::metadataOf(impl_->info, -1)));
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
    return models::metadataOf(impl_->info, indent);
}

} // namespace fisura
