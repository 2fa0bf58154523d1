// A shard's manifest while its task runs, and the checks behind skipping a done scan (plain
// C++); see fisura/manifest.h.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "fisura/manifest.h"
#include "fisura/tiledimage.h"
#include "fisura/version.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

int64_t mtimeNsOf(const std::string& path)
{
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0)
        return 0;
    return int64_t(st.st_mtim.tv_sec) * 1000000000 + int64_t(st.st_mtim.tv_nsec);
}

/// ISO 8601 UTC with milliseconds: merge orders manifests by it.
std::string utcNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, int(ms));
    return out;
}

std::string hostName()
{
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0)
        return {};
    return buf;
}

} // namespace

const char* scanStateName(ScanState s)
{
    switch (s) {
    case ScanState::Done:
        return "done";
    case ScanState::Failed:
        return "failed";
    case ScanState::Cancelled:
        return "cancelled";
    }
    return "failed";
}

Result<ManifestModel> describeModelFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::error_code ec;
        return Status(fs::exists(path, ec) ? ErrorCode::IoError : ErrorCode::NotFound, path);
    }
    // FNV-1a, 64 bit (Fowler, Noll, Vo; the parameters of the IETF draft): enough to tell two
    // model files apart, not a defence against someone forging one.
    uint64_t h = 1469598103934665603ull;
    uint64_t bytes = 0;
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        const std::streamsize n = in.gcount();
        for (std::streamsize k = 0; k < n; ++k) {
            h ^= uint8_t(buf[size_t(k)]);
            h *= 1099511628211ull;
        }
        bytes += uint64_t(n);
    }
    if (in.bad())
        return Status(ErrorCode::IoError, "cannot read " + path);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    ManifestModel m;
    m.path = fs::absolute(path).lexically_normal().string();
    m.bytes = bytes;
    m.mtimeNs = mtimeNsOf(path);
    m.hash = std::string("fnv1a64:") + hex;
    return m;
}

const ScanRecord* Manifest::find(const std::string& input) const
{
    for (const auto& r : scans)
        if (r.input == input)
            return &r;
    return nullptr;
}

void Manifest::put(const ScanRecord& record)
{
    for (auto& r : scans)
        if (r.input == record.input) {
            r = record;
            return;
        }
    scans.push_back(record);
}

bool Manifest::sameRunAs(const Manifest& other) const
{
    return model.hash == other.model.hash && mapKind == other.mapKind && settings == other.settings;
}

std::string staleReason(const ScanRecord& r)
{
    if (r.state != ScanState::Done)
        return std::string("not done (") + scanStateName(r.state) + ")";
    std::error_code ec;
    const auto inBytes = fs::file_size(r.input, ec);
    if (ec)
        return "input missing";
    if (uint64_t(inBytes) != r.inputBytes || mtimeNsOf(r.input) != r.inputMtimeNs)
        return "input changed since its map was made";
    const auto outBytes = fs::file_size(r.output, ec);
    if (ec)
        return "map missing";
    if (uint64_t(outBytes) != r.outputBytes)
        return "map size changed (" + std::to_string(outBytes) + " bytes, recorded " +
               std::to_string(r.outputBytes) + ")";
    // Maps appear by rename only when complete; the size check catches truncation, opening the
    // TIFF (directories of every level checked, no pixel decoded) anything else.
    auto map = TiledImage::open(r.output);
    if (!map)
        return "map does not open: " + map.status().toString();
    if ((*map)->info().width != r.width || (*map)->info().height != r.height)
        return "map size in pixels changed";
    return {};
}

Result<ShardJournal> ShardJournal::open(const std::string& path, Manifest fresh, bool redo)
{
    ShardJournal j;
    j.path_ = path;
    j.redo_ = redo;
    std::error_code ec;
    if (fs::exists(path, ec)) {
        auto old = readManifest(path);
        if (!old)
            j.previousProblem_ = "unreadable, started again: " + old.status().toString();
        else if (!old->sameRunAs(fresh))
            j.previousProblem_ = "another model, map kind or options, started again";
        else if (!(old->shard == fresh.shard))
            j.previousProblem_ = "another shard, started again";
        else if (redo)
            j.previousProblem_ = "--redo: every scan runs again";
        else {
            // Continue: keep the records, take the current assignment and model facts.
            fresh.startedAt = old->startedAt;
            fresh.scans = old->scans;
        }
    }
    fresh.updatedAt = utcNow();
    if (fresh.startedAt.empty())
        fresh.startedAt = fresh.updatedAt;
    if (fresh.host.empty())
        fresh.host = hostName();
    if (fresh.fisuraVersion.empty())
        fresh.fisuraVersion = version();
    j.manifest_ = std::move(fresh);
    if (Status s = writeManifest(path, j.manifest_); !s)
        return s;
    return j;
}

std::string ShardJournal::skipReason(const std::string& input) const
{
    if (redo_)
        return {};
    const ScanRecord* r = manifest_.find(input);
    if (!r || r->state != ScanState::Done || !staleReason(*r).empty())
        return {};
    return "done " + r->finishedAt;
}

Status ShardJournal::record(ScanRecord record)
{
    if (record.finishedAt.empty())
        record.finishedAt = utcNow();
    if (record.inputMtimeNs == 0)
        record.inputMtimeNs = mtimeNsOf(record.input);
    std::error_code ec;
    if (record.inputBytes == 0)
        record.inputBytes = uint64_t(fs::file_size(record.input, ec));
    if (ec)
        record.inputBytes = 0;
    if (record.state == ScanState::Done && record.outputBytes == 0) {
        const auto n = fs::file_size(record.output, ec);
        record.outputBytes = ec ? 0 : uint64_t(n);
    }
    manifest_.updatedAt = record.finishedAt;
    manifest_.put(record);
    return writeManifest(path_, manifest_);
}

} // namespace fisura
