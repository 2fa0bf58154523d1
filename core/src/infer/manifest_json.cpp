// Manifests as JSON and on disk (plain C++); see fisura/manifest.h.
#include <nlohmann/json.hpp>

#include "fisura/manifest.h"
#include "util/atomic_file.h"
#include "util/json_bounded.h"
#include "util/json_int.h"

namespace fisura
{

namespace
{

constexpr const char* kFormat = "fisura-manifest";
constexpr int kFormatVersion = 1;

using nlohmann::json;

json scanToJson(const ScanRecord& r)
{
    json j{{"input", r.input},
           {"output", r.output},
           {"status", scanStateName(r.state)},
           {"input_bytes", r.inputBytes},
           {"input_mtime_ns", r.inputMtimeNs},
           {"seconds", r.seconds},
           {"finished_at", r.finishedAt}};
    if (r.state == ScanState::Done) {
        j["output_bytes"] = r.outputBytes;
        j["width"] = r.width;
        j["height"] = r.height;
    } else {
        j["error"] = r.errorCode;
        j["message"] = r.message;
    }
    return j;
}

ScanState stateFromName(const std::string& s)
{
    if (s == "done")
        return ScanState::Done;
    if (s == "failed")
        return ScanState::Failed;
    if (s == "cancelled")
        return ScanState::Cancelled;
    throw json::other_error::create(501, "unknown status \"" + s + "\"", nullptr);
}

ScanRecord scanFromJson(const json& j)
{
    ScanRecord r;
    r.input = j.at("input").get<std::string>();
    r.output = j.at("output").get<std::string>();
    r.state = stateFromName(j.at("status").get<std::string>());
    r.inputBytes = util::jsonUInt64(j, "input_bytes", 0);
    r.inputMtimeNs = util::jsonInt64(j, "input_mtime_ns", 0);
    r.seconds = j.value("seconds", 0.0);
    r.finishedAt = j.value("finished_at", "");
    if (r.state == ScanState::Done) {
        r.outputBytes = util::jsonToUInt64(j.at("output_bytes"));
        r.width = util::jsonInt(j, "width", 0);
        r.height = util::jsonInt(j, "height", 0);
    } else {
        r.errorCode = j.value("error", "");
        r.message = j.value("message", "");
    }
    if (r.input.empty())
        throw json::other_error::create(501, "a scan without an input path", nullptr);
    return r;
}

} // namespace

std::string toJson(const Manifest& m, int indent)
{
    json scans = json::array();
    for (const auto& r : m.scans)
        scans.push_back(scanToJson(r));
    json j{{"format", kFormat},
           {"format_version", m.formatVersion},
           {"fisura_version", m.fisuraVersion},
           {"shard", {{"index", m.shard.index + 1}, {"count", m.shard.count}}},
           {"input_folder", m.inputFolder},
           {"output_folder", m.outputFolder},
           {"map", m.mapKind},
           {"model",
            {{"path", m.model.path},
             {"bytes", m.model.bytes},
             {"mtime_ns", m.model.mtimeNs},
             {"hash", m.model.hash}}},
           {"settings", m.settings},
           {"host", m.host},
           {"started_at", m.startedAt},
           {"updated_at", m.updatedAt},
           {"assigned", m.assigned},
           {"scans", std::move(scans)}};
    return util::dumpJson(j, indent);
}

Result<Manifest> manifestFromJson(const std::string& text, const std::string& origin)
{
    const std::string where = origin.empty() ? std::string("manifest") : origin;
    auto parsed = util::parseJson<json>(text, where);
    if (!parsed)
        return parsed.status();
    try {
        const json& j = *parsed;
        if (!j.is_object() || j.value("format", "") != kFormat)
            return Status(ErrorCode::Corrupt, where + ": not a Fisura manifest");
        Manifest m;
        m.formatVersion = util::jsonInt(j, "format_version", 0);
        if (m.formatVersion < 1)
            return Status(ErrorCode::Corrupt, where + ": no format version");
        if (m.formatVersion > kFormatVersion)
            return Status(ErrorCode::Unsupported, where + ": manifest format " +
                                                      std::to_string(m.formatVersion) +
                                                      " is newer than this Fisura reads (" +
                                                      std::to_string(kFormatVersion) + ")");
        m.fisuraVersion = j.value("fisura_version", "");
        const json& shard = j.at("shard");
        m.shard.index = util::jsonInt(shard, "index", 0) - 1;
        m.shard.count = util::jsonInt(shard, "count", 0);
        if (m.shard.count < 1 || m.shard.index < 0 || m.shard.index >= m.shard.count)
            return Status(ErrorCode::Corrupt, where + ": shard out of range");
        m.inputFolder = j.value("input_folder", "");
        m.outputFolder = j.value("output_folder", "");
        m.mapKind = j.value("map", "");
        const json& model = j.at("model");
        m.model.path = model.value("path", "");
        m.model.bytes = util::jsonUInt64(model, "bytes", 0);
        m.model.mtimeNs = util::jsonInt64(model, "mtime_ns", 0);
        m.model.hash = model.at("hash").get<std::string>();
        m.settings = j.value("settings", std::map<std::string, std::string>());
        m.host = j.value("host", "");
        m.startedAt = j.value("started_at", "");
        m.updatedAt = j.value("updated_at", "");
        m.assigned = j.value("assigned", std::vector<std::string>());
        for (const auto& s : j.at("scans"))
            m.scans.push_back(scanFromJson(s));
        return m;
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, where + ": " + e.what());
    }
}

Result<Manifest> readManifest(const std::string& path)
{
    auto text = util::readTextFile(path);
    if (!text)
        return text.status();
    return manifestFromJson(*text, path);
}

Status writeManifest(const std::string& path, const Manifest& manifest)
{
    removeStaleTemporaries(path);
    return writeFileAtomic(path, toJson(manifest) + "\n");
}

} // namespace fisura
