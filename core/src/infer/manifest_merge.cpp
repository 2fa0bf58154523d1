// Merging the manifests of a cluster run into one report (plain C++); see fisura/manifest.h.
#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "fisura/manifest.h"
#include "util/json_bounded.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

struct Loaded {
    std::string path;
    Manifest manifest;
};

std::string canonicalOf(const std::string& p)
{
    std::error_code ec;
    auto c = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal().string() : c.string();
}

/// True when `path` is a file directly in `folder`, both absolute and spelled without "." or
/// ".." (as infer writes them): a manifest cannot send a merge, or the redo list, elsewhere.
bool directlyIn(const std::string& path, const std::string& folder)
{
    const fs::path p(path), f(folder);
    return p.is_absolute() && f.is_absolute() && p.lexically_normal() == p &&
           !p.filename().empty() && p.parent_path() == f.lexically_normal();
}

/// Why a manifest cannot be trusted: an entry outside its own input or output folder.
std::string foreignEntry(const Manifest& m)
{
    auto outside = [](const std::string& path, const std::string& folder, const char* what) {
        return directlyIn(path, folder)
                   ? std::string()
                   : std::string(what) + " outside the manifest's folder " + folder + ": " + path;
    };
    for (const auto& a : m.assigned)
        if (auto why = outside(a, m.inputFolder, "a scan"); !why.empty())
            return why;
    for (const auto& r : m.scans) {
        if (auto why = outside(r.input, m.inputFolder, "a scan"); !why.empty())
            return why;
        if (r.output.empty())
            continue;
        if (auto why = outside(r.output, m.outputFolder, "a map"); !why.empty())
            return why;
    }
    return {};
}

bool isManifestName(const std::string& name)
{
    return name.rfind("fisura-manifest", 0) == 0 && name.size() > 5 &&
           name.compare(name.size() - 5, 5, ".json") == 0;
}

/// The manifest files named by `paths` (folders: their fisura-manifest*.json), sorted.
Result<std::vector<std::string>> collectFiles(const std::vector<std::string>& paths)
{
    std::vector<std::string> files;
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
                if (isManifestName(it->path().filename().string()))
                    files.push_back(it->path().lexically_normal().string());
            if (ec)
                return Status(ErrorCode::IoError, p + ": " + ec.message());
        } else if (fs::exists(p, ec)) {
            files.push_back(fs::path(p).lexically_normal().string());
        } else {
            return Status(ErrorCode::NotFound, p);
        }
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    return files;
}

std::string otherRunReason(const Manifest& m, const Manifest& ref)
{
    if (m.model.hash != ref.model.hash)
        return "another model (" + m.model.hash + ", the newest run used " + ref.model.hash + ")";
    if (m.mapKind != ref.mapKind)
        return "another map kind (" + m.mapKind + ")";
    for (const auto& [k, v] : ref.settings) {
        const auto it = m.settings.find(k);
        if (it == m.settings.end() || it->second != v)
            return "other options (" + k + " " +
                   (it == m.settings.end() ? std::string("unset") : it->second) + ", newest run " +
                   v + ")";
    }
    return "other options";
}

/// Where a scan appears among the manifests of the run (an index, so that a merge of many
/// thousand scans does not search every manifest for every scan).
struct Sightings {
    std::vector<std::pair<const Loaded*, const ScanRecord*>> records;
    const Loaded* assignedBy = nullptr;
};

/// One scan's best outcome over the manifests of the run: a done record whose map is intact
/// wins; then the newest done, failed or cancelled record.
MergedScan judge(const std::string& input, const Sightings& seen, bool inOtherRun)
{
    MergedScan out;
    out.input = input;
    const ScanRecord* best = nullptr;
    const Loaded* bestFrom = nullptr;
    std::string bestStale;
    for (const auto& [from, r] : seen.records) {
        const std::string stale = r->state == ScanState::Done ? staleReason(*r) : "x";
        const bool good = r->state == ScanState::Done && stale.empty();
        const bool bestGood = best && best->state == ScanState::Done && bestStale.empty();
        if (!best || (good && !bestGood) ||
            (good == bestGood && r->finishedAt > best->finishedAt)) {
            best = r;
            bestFrom = from;
            bestStale = stale;
        }
    }
    if (!best) {
        if (const Loaded* l = seen.assignedBy) {
            out.reason = "not run (shard " + std::to_string(l->manifest.shard.index + 1) + "/" +
                         std::to_string(l->manifest.shard.count) + ")";
            out.manifest = l->path;
        } else {
            out.reason = inOtherRun ? "only in manifests of another run" : "in no manifest";
        }
        return out;
    }
    out.output = best->output;
    out.manifest = bestFrom->path;
    out.seconds = best->seconds;
    out.errorCode = best->errorCode;
    out.message = best->message;
    if (best->state == ScanState::Failed)
        out.state = MergedState::Failed;
    else if (best->state == ScanState::Cancelled)
        out.state = MergedState::Cancelled;
    else if (bestStale.empty())
        out.state = MergedState::Done;
    else
        out.reason = bestStale;
    return out;
}

} // namespace

const char* mergedStateName(MergedState s)
{
    switch (s) {
    case MergedState::Done:
        return "done";
    case MergedState::Failed:
        return "failed";
    case MergedState::Cancelled:
        return "cancelled";
    case MergedState::Missing:
        return "missing";
    }
    return "missing";
}

bool MergeReport::complete() const
{
    return failed == 0 && cancelled == 0 && missing == 0 && manifestsUnreadable.empty() &&
           shardsWithoutManifest.empty();
}

std::vector<std::string> MergeReport::toRedo() const
{
    std::vector<std::string> redo;
    for (const auto& s : scans)
        if (s.state != MergedState::Done)
            redo.push_back(s.input);
    return redo;
}

Result<MergeReport> mergeManifests(const std::vector<std::string>& paths,
                                   const MergeOptions& options)
{
    if (paths.empty())
        return Status(ErrorCode::InvalidArgument, "no manifest files or folders given");
    auto files = collectFiles(paths);
    if (!files)
        return files.status();
    MergeReport report;
    std::vector<Loaded> loaded;
    const std::string expected = options.expectIn.empty() ? "" : canonicalOf(options.expectIn);
    for (const auto& f : *files) {
        auto m = readManifest(f);
        if (!m)
            report.manifestsUnreadable[f] = m.status().toString();
        else if (const std::string why = foreignEntry(*m); !why.empty())
            report.manifestsUnreadable[f] = "rejected: " + why;
        else if (!expected.empty() && canonicalOf(m->inputFolder) != expected)
            report.manifestsOtherRun[f] =
                "another input folder (" + m->inputFolder + ", expected " + expected + ")";
        else
            loaded.push_back({f, std::move(*m)});
    }
    if (files->empty() && options.expectIn.empty())
        return Status(ErrorCode::InvalidArgument, "no fisura-manifest*.json files found");

    // The run is the one of the manifest updated last.
    const Loaded* ref = nullptr;
    for (const auto& l : loaded)
        if (!ref || l.manifest.updatedAt > ref->manifest.updatedAt)
            ref = &l;
    std::vector<const Loaded*> used;
    std::map<std::string, Sightings> seen; // every scan of the run, by input path
    std::set<std::string> inOtherRuns, outputFolders;
    for (const auto& l : loaded) {
        if (l.manifest.sameRunAs(ref->manifest)) {
            used.push_back(&l);
            report.manifestsUsed.push_back(l.path);
            outputFolders.insert(canonicalOf(l.manifest.outputFolder));
            for (const auto& a : l.manifest.assigned) {
                auto& s = seen[a];
                if (!s.assignedBy)
                    s.assignedBy = &l;
            }
            for (const auto& r : l.manifest.scans)
                seen[r.input].records.emplace_back(&l, &r);
        } else {
            report.manifestsOtherRun[l.path] = otherRunReason(l.manifest, ref->manifest);
            inOtherRuns.insert(l.manifest.assigned.begin(), l.manifest.assigned.end());
        }
    }
    if (ref) {
        report.model = ref->manifest.model.path;
        report.modelHash = ref->manifest.model.hash;
        report.settings = ref->manifest.settings;
        report.shardCount = ref->manifest.shard.count;
        std::set<int> seen;
        for (const Loaded* l : used)
            if (l->manifest.shard.count == report.shardCount)
                seen.insert(l->manifest.shard.index);
        for (int s = 0; s < report.shardCount; ++s)
            if (!seen.count(s))
                report.shardsWithoutManifest.push_back(s + 1);
    }
    if (!options.expectIn.empty()) {
        const bool mapsBeside = outputFolders.count(canonicalOf(options.expectIn)) > 0;
        auto expected = listScans(options.expectIn, mapsBeside);
        if (!expected)
            return expected.status();
        for (const auto& s : *expected)
            seen[s.path];
    }
    for (const auto& [name, sightings] : seen) {
        MergedScan s = judge(name, sightings, inOtherRuns.count(name) > 0);
        switch (s.state) {
        case MergedState::Done:
            ++report.done;
            break;
        case MergedState::Failed:
            ++report.failed;
            break;
        case MergedState::Cancelled:
            ++report.cancelled;
            break;
        case MergedState::Missing:
            ++report.missing;
            break;
        }
        report.scans.push_back(std::move(s));
    }
    return report;
}

std::string toJson(const MergeReport& r, int indent)
{
    using nlohmann::json;
    json scans = json::array();
    for (const auto& s : r.scans) {
        json j{{"input", s.input}, {"status", mergedStateName(s.state)}};
        if (!s.output.empty())
            j["output"] = s.output;
        if (!s.reason.empty())
            j["reason"] = s.reason;
        if (!s.errorCode.empty())
            j["error"] = s.errorCode;
        if (!s.message.empty())
            j["message"] = s.message;
        if (!s.manifest.empty())
            j["manifest"] = s.manifest;
        if (s.state != MergedState::Missing)
            j["seconds"] = s.seconds;
        scans.push_back(std::move(j));
    }
    json j{{"complete", r.complete()},
           {"totals",
            {{"scans", r.scans.size()},
             {"done", r.done},
             {"failed", r.failed},
             {"cancelled", r.cancelled},
             {"missing", r.missing}}},
           {"model", {{"path", r.model}, {"hash", r.modelHash}}},
           {"settings", r.settings},
           {"shard_count", r.shardCount},
           {"shards_without_manifest", r.shardsWithoutManifest},
           {"manifests", r.manifestsUsed},
           {"manifests_other_run", r.manifestsOtherRun},
           {"manifests_unreadable", r.manifestsUnreadable},
           {"redo", r.toRedo()},
           {"scans", std::move(scans)}};
    return util::dumpJson(j, indent);
}

} // namespace fisura
