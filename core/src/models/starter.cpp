// Finding the starter model and reading provenance records; see fisura/starter.h.
#include "fisura/starter.h"

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

/// The folder of the running executable ("" when the system does not say).
fs::path executableDir()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

double numberOr(const nlohmann::json& j, const char* key, double fallback)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string textOr(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ModelScore scoreFrom(const nlohmann::json& s)
{
    ModelScore m;
    m.dataset = textOr(s, "dataset");
    m.images = int(numberOr(s, "images", 0));
    m.tolerancePx = int(numberOr(s, "tolerance_px", 2));
    m.odsF1 = numberOr(s, "ods_f1", -1);
    m.oisF1 = numberOr(s, "ois_f1", -1);
    m.miou = numberOr(s, "miou", -1);
    return m;
}

} // namespace

std::vector<std::string> starterModelSearchPath()
{
    if (const char* env = std::getenv("FISURA_MODELS"))
        return {std::string(env)};
    std::vector<std::string> dirs;
    if (const fs::path exe = executableDir(); !exe.empty()) {
        dirs.push_back((exe.parent_path() / "share" / "fisura" / "models").string());
        dirs.push_back((exe.parent_path() / "share" / "fisura-cli" / "models").string());
        // fisura-cli-net lives one folder deeper, in libexec/fisura/.
        dirs.push_back(
            (exe.parent_path().parent_path() / "share" / "fisura-cli" / "models").string());
    }
#ifdef FISURA_SOURCE_MODELS_DIR
    dirs.push_back(FISURA_SOURCE_MODELS_DIR);
#endif
    return dirs;
}

std::string findStarterModel()
{
    std::error_code ec;
    for (const auto& dir : starterModelSearchPath()) {
        if (dir.empty())
            continue;
        const fs::path p = fs::path(dir) / kStarterModelFile;
        if (fs::is_regular_file(p, ec))
            return fs::absolute(p, ec).string();
    }
    return {};
}

ModelProvenance provenanceOf(const ModelInfo& info)
{
    ModelProvenance p;
    const auto j = nlohmann::json::parse(info.provenanceJson, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.empty())
        return p;
    p.present = true;
    p.name = textOr(j, "name");
    p.starter = j.contains("starter") && j["starter"].is_boolean() && j["starter"].get<bool>();
    p.licence = textOr(j, "licence");
    p.recipe = textOr(j, "recipe");
    p.commit = textOr(j, "commit");
    const double seed = numberOr(j, "seed", 0);
    p.seed = seed > 0 ? uint64_t(seed) : 0;
    if (const auto t = j.find("trained_on"); t != j.end() && t->is_array())
        for (const auto& d : *t)
            if (d.is_string())
                p.trainedOn.push_back(d.get<std::string>());
    if (const auto s = j.find("scores"); s != j.end() && s->is_array())
        for (const auto& e : *s)
            if (e.is_object())
                p.scores.push_back(scoreFrom(e));
    if (const auto f = j.find("started_from"); f != j.end() && f->is_object()) {
        p.startedFrom = textOr(*f, "name");
        if (p.startedFrom.empty()) // a model without a provenance name: its file
            p.startedFrom = textOr(*f, "file");
        p.startedFromLicence = textOr(*f, "licence");
    }
    return p;
}

} // namespace fisura
