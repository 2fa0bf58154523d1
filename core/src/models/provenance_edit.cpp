// Rewriting a model file's provenance record; see fisura/starter.h.
#include <nlohmann/json.hpp>

#include "fisura/starter.h"

namespace fisura
{

Status setModelProvenance(const std::string& modelPath, const std::string& json)
{
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Status(ErrorCode::InvalidArgument, "a provenance record must be a JSON object");
    auto m = Model::load(modelPath); // a TorchScript module is not run: NeedsConsent
    if (!m && m.status().code() != ErrorCode::NeedsConsent)
        return m.status();
    if (!m || m->isTorchScript())
        return Status(ErrorCode::Unsupported,
                      modelPath + " is an imported TorchScript model, not a Fisura model file");
    m->info().provenanceJson = j.dump();
    return m->save(modelPath);
}

} // namespace fisura
