// project.json: reading and writing, and the path rules of a project (see project_paths.h).
#include "fisura/project.h"

#include <nlohmann/json.hpp>

#include "project/project_known.h"
#include "project/project_paths.h"
#include "util/json_bounded.h"
#include "util/json_int.h"

using json = nlohmann::ordered_json; // keys in the order written: "format" and "schema" first

namespace fisura
{

namespace project_detail
{

fs::path normalPath(const fs::path& p)
{
    std::error_code ec;
    fs::path n = (p.is_absolute() ? p : fs::absolute(p, ec)).lexically_normal();
    if (n.filename().empty() && n.has_relative_path())
        n = n.parent_path();
    return n;
}

fs::path insideOf(const fs::path& p, const fs::path& dir)
{
    const fs::path rel = p.lexically_relative(dir);
    if (rel.empty() || rel == "." || *rel.begin() == "..")
        return {};
    return rel;
}

std::string storedPath(const std::string& path, const fs::path& dir)
{
    if (path.empty())
        return {};
    const fs::path p = normalPath(path);
    const fs::path rel = insideOf(p, dir);
    return rel.empty() ? p.generic_string() : rel.generic_string();
}

std::string loadedPath(const std::string& stored, const fs::path& dir)
{
    if (stored.empty())
        return {};
    const fs::path p(stored);
    return normalPath(p.is_absolute() ? p : dir / p).string();
}

std::string mapOptionPaths(const std::string& optionsJson,
                           const std::function<std::string(const std::string&)>& fn)
{
    auto parsed = util::parseJson<json>(optionsJson, "training options");
    if (!parsed || !parsed->is_object())
        return optionsJson;
    json& j = *parsed;
    for (const char* key :
         {"data_dir", "out_path", "checkpoint_path", "resume_from", "split_path"}) {
        auto it = j.find(key);
        if (it != j.end() && it->is_string())
            *it = fn(it->get<std::string>());
    }
    return util::dumpJson(j);
}

} // namespace project_detail

namespace
{

using namespace project_detail;

/// JSON text kept in a string field goes into project.json as JSON (readable, diffable), only
/// what Fisura writes there (project_known.h).
json embed(const std::string& text, Embedded kind)
{
    if (text.empty())
        return nullptr;
    auto j = util::parseJson<json>(text, "embedded JSON");
    return j ? knownOnly(*j, kind) : json();
}

/// The text of an embedded field as read: the known part of it (`fallback` when absent).
std::string unembed(const json& j, const char* key, const std::string& fallback, Embedded kind)
{
    auto it = j.find(key);
    if (it == j.end())
        return fallback;
    const json known = knownOnly(*it, kind);
    return known.is_null() ? std::string() : util::dumpJson(known);
}

std::string str(const json& j, const char* key)
{
    return j.value(key, std::string());
}

Status corrupt(const fs::path& dir, const std::string& why)
{
    return Status(ErrorCode::Corrupt, (dir / "project.json").string() + ": " + why);
}

json datasetJson(const ProjectDataset& d, const fs::path& dir)
{
    return {{"id", d.id},
            {"name", d.name},
            {"path", storedPath(d.path, dir)},
            {"task", taskName(d.task)},
            {"split", storedPath(d.splitPath, dir)},
            {"summary", embed(d.summaryJson, Embedded::Summary)},
            {"added_at", d.addedAt}};
}

json runJson(const ProjectRun& r, const fs::path& dir)
{
    json history = json::array();
    for (const auto& m : r.history)
        if (auto h = util::parseJson<json>(toJson(m), "epoch metrics"))
            history.push_back(std::move(*h));
    const auto store = [&](const std::string& p) { return storedPath(p, dir); };
    return {{"id", r.id},
            {"dataset_id", r.datasetId},
            {"dataset_path", store(r.datasetPath)},
            {"task", taskName(r.task)},
            {"options", embed(mapOptionPaths(r.optionsJson, store), Embedded::Options)},
            {"policy", embed(r.policyJson, Embedded::Policy)},
            {"history", history},
            {"notices", r.notices},
            {"model", store(r.modelPath)},
            {"checkpoint", store(r.checkpointPath)},
            {"state", runStateName(r.state)},
            {"started_at", r.startedAt},
            {"ended_at", r.endedAt},
            {"best_epoch", r.bestEpoch},
            {"best_score", r.bestScore},
            {"threshold", r.threshold},
            {"error_code", r.errorCode},
            {"error_detail", r.errorDetail},
            {"seconds", r.seconds}};
}

json scanJson(const ProjectScan& s, const fs::path& dir)
{
    return {{"id", s.id},
            {"input", storedPath(s.input, dir)},
            {"model", storedPath(s.modelPath, dir)},
            {"run_id", s.runId},
            {"map", storedPath(s.mapPath, dir)},
            {"truth", storedPath(s.truthPath, dir)},
            {"width", s.width},
            {"height", s.height},
            {"stats", embed(s.statsJson, Embedded::Stats)},
            {"score", embed(s.scoreJson, Embedded::Score)},
            {"analysed_at", s.analysedAt},
            {"structure", s.structure},
            {"inspected_on", s.inspectedOn}};
}

Result<ProjectDataset> datasetFrom(const json& j, const fs::path& dir)
{
    ProjectDataset d;
    d.id = str(j, "id");
    d.name = str(j, "name");
    d.path = loadedPath(str(j, "path"), dir);
    if (!parseTask(j.value("task", std::string("segment")), d.task))
        return corrupt(dir, "dataset " + d.id + ": unknown task");
    d.splitPath = loadedPath(str(j, "split"), dir);
    d.summaryJson = unembed(j, "summary", "{}", Embedded::Summary);
    d.addedAt = str(j, "added_at");
    return d;
}

Result<ProjectRun> runFrom(const json& j, const fs::path& dir)
{
    ProjectRun r;
    const auto load = [&](const std::string& p) { return loadedPath(p, dir); };
    r.id = str(j, "id");
    r.datasetId = str(j, "dataset_id");
    r.datasetPath = load(str(j, "dataset_path"));
    if (!parseTask(j.value("task", std::string("segment")), r.task))
        return corrupt(dir, "run " + r.id + ": unknown task");
    r.optionsJson = mapOptionPaths(unembed(j, "options", "{}", Embedded::Options), load);
    r.policyJson = unembed(j, "policy", "{}", Embedded::Policy);
    for (const auto& h : j.value("history", json::array())) {
        auto m = epochMetricsFromJson(util::dumpJson(h));
        if (!m)
            return corrupt(dir, "run " + r.id + ": " + m.status().detail());
        r.history.push_back(*m);
    }
    r.notices = j.value("notices", std::vector<std::string>());
    r.modelPath = load(str(j, "model"));
    r.checkpointPath = load(str(j, "checkpoint"));
    if (!parseRunState(j.value("state", std::string("failed")), r.state))
        return corrupt(dir, "run " + r.id + ": unknown state");
    r.startedAt = str(j, "started_at");
    r.endedAt = str(j, "ended_at");
    r.bestEpoch = util::jsonInt(j, "best_epoch", -1);
    r.bestScore = j.value("best_score", -1.0);
    r.threshold = j.value("threshold", -1.0);
    r.errorCode = str(j, "error_code");
    r.errorDetail = str(j, "error_detail");
    r.seconds = j.value("seconds", 0.0);
    return r;
}

ProjectScan scanFrom(const json& j, const fs::path& dir)
{
    ProjectScan s;
    s.id = str(j, "id");
    s.input = loadedPath(str(j, "input"), dir);
    s.modelPath = loadedPath(str(j, "model"), dir);
    s.runId = str(j, "run_id");
    s.mapPath = loadedPath(str(j, "map"), dir);
    s.truthPath = loadedPath(str(j, "truth"), dir);
    s.width = util::jsonInt(j, "width", 0);
    s.height = util::jsonInt(j, "height", 0);
    s.statsJson = unembed(j, "stats", "{}", Embedded::Stats);
    s.scoreJson = unembed(j, "score", "", Embedded::Score);
    s.analysedAt = str(j, "analysed_at");
    s.structure = str(j, "structure");
    s.inspectedOn = str(j, "inspected_on");
    if (!isIsoDate(s.inspectedOn)) // a hand-edited date that is none: not stated
        s.inspectedOn.clear();
    return s;
}

} // namespace

std::string Project::toJson(int indent) const
{
    const fs::path dir(dir_);
    json datasets = json::array(), runs = json::array(), scans = json::array();
    for (const auto& d : datasets_)
        datasets.push_back(datasetJson(d, dir));
    for (const auto& r : runs_)
        runs.push_back(runJson(r, dir));
    for (const auto& s : scans_)
        scans.push_back(scanJson(s, dir));
    const json j{{"format", "fisura-project"},
                 {"schema", kProjectSchemaVersion},
                 {"name", name_},
                 {"created_at", createdAt_},
                 {"next_id", nextId_},
                 {"datasets", datasets},
                 {"runs", runs},
                 {"scans", scans}};
    return util::dumpJson(j, indent);
}

Result<Project> Project::fromJson(const std::string& text, const std::string& dirText)
{
    const fs::path dir = normalPath(dirText);
    auto parsed = util::parseJson<json>(text, (dir / "project.json").string());
    if (!parsed)
        return parsed.status();
    const json& j = *parsed;
    if (!j.is_object())
        return corrupt(dir, "not a Fisura project (not a JSON object)");
    if (j.value("format", json()) != "fisura-project")
        return corrupt(dir, "not a Fisura project (no \"format\": \"fisura-project\")");
    const json schema = j.value("schema", json());
    if (!schema.is_number_integer() || schema.get<long long>() < 1)
        return corrupt(dir, "no valid schema version");
    if (schema.get<long long>() > kProjectSchemaVersion)
        return Status(ErrorCode::Unsupported,
                      (dir / "project.json").string() + ": project schema " + schema.dump() +
                          " is newer than this version of Fisura supports (schema " +
                          std::to_string(kProjectSchemaVersion) + ")");
    try {
        Project p;
        p.dir_ = dir.string();
        p.name_ = str(j, "name");
        p.createdAt_ = str(j, "created_at");
        p.nextId_ = std::max(1, util::jsonInt(j, "next_id", 1));
        if (p.nextId_ > (1 << 30)) // ids count up from it
            return corrupt(dir, "next_id out of range");
        for (const auto& d : j.value("datasets", json::array())) {
            auto ds = datasetFrom(d, dir);
            if (!ds)
                return ds.status();
            p.datasets_.push_back(std::move(*ds));
        }
        for (const auto& r : j.value("runs", json::array())) {
            auto run = runFrom(r, dir);
            if (!run)
                return run.status();
            p.runs_.push_back(std::move(*run));
        }
        for (const auto& s : j.value("scans", json::array()))
            p.scans_.push_back(scanFrom(s, dir));
        return p;
    } catch (const json::exception& e) {
        return corrupt(dir, e.what());
    }
}

} // namespace fisura
