// Splitting a folder of scans into shards (plain C++); see fisura/manifest.h.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "fisura/image.h"
#include "fisura/infer.h"
#include "fisura/manifest.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

/// A whole decimal number in [lo, hi] (no sign, spaces or suffix), nullopt otherwise.
std::optional<long long> parseWhole(const std::string& s, long long lo, long long hi)
{
    if (s.empty() || s.size() > 18 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const long long v = std::stoll(s);
    if (v < lo || v > hi)
        return std::nullopt;
    return v;
}

} // namespace

Result<ShardSpec> parseShard(const std::string& text)
{
    const auto slash = text.find('/');
    const std::string hint =
        "--shard must be I/N with 1 <= I <= N (1-based, e.g. 1/3 .. 3/3), got \"" + text + "\"";
    if (slash == std::string::npos)
        return Status(ErrorCode::InvalidArgument, hint);
    const auto i = parseWhole(text.substr(0, slash), 0, 1000000);
    const auto n = parseWhole(text.substr(slash + 1), 0, 1000000);
    if (!i || !n || *n < 1)
        return Status(ErrorCode::InvalidArgument, hint);
    if (*i < 1)
        return Status(ErrorCode::InvalidArgument, hint + ": shards count from 1 (the first of " +
                                                      std::to_string(*n) + " is 1/" +
                                                      std::to_string(*n) + ")");
    if (*i > *n)
        return Status(ErrorCode::InvalidArgument,
                      hint + ": there are only " + std::to_string(*n) + " shards");
    return ShardSpec{int(*i - 1), int(*n)};
}

Result<std::optional<ShardSpec>>
shardFromSlurmEnvironment(const std::map<std::string, std::string>& env)
{
    auto get = [&](const char* k) -> std::string {
        const auto it = env.find(k);
        return it == env.end() ? std::string() : it->second;
    };
    const std::string idText = get("SLURM_ARRAY_TASK_ID");
    if (idText.empty())
        return std::optional<ShardSpec>();
    auto bad = [](const std::string& what) {
        return Status(ErrorCode::InvalidArgument,
                      "cannot use this Slurm array task as a shard: " + what +
                          " (pass --shard I/N to choose it yourself)");
    };
    const auto id = parseWhole(idText, 0, INT_MAX);
    if (!id)
        return bad("SLURM_ARRAY_TASK_ID=\"" + idText + "\" is not a task number");
    const std::string countText = get("SLURM_ARRAY_TASK_COUNT");
    const auto count = parseWhole(countText, 1, 1000000);
    if (!count)
        return bad("SLURM_ARRAY_TASK_COUNT=\"" + countText + "\" is not set or not a count");
    const std::string minText = get("SLURM_ARRAY_TASK_MIN");
    const auto min =
        minText.empty() ? std::optional<long long>(0) : parseWhole(minText, 0, INT_MAX);
    if (!min)
        return bad("SLURM_ARRAY_TASK_MIN=\"" + minText + "\" is not a task number");
    const std::string stepText = get("SLURM_ARRAY_TASK_STEP");
    const auto step =
        stepText.empty() ? std::optional<long long>(1) : parseWhole(stepText, 1, INT_MAX);
    if (!step)
        return bad("SLURM_ARRAY_TASK_STEP=\"" + stepText + "\" is not a step");
    if (*id < *min || (*id - *min) % *step != 0)
        return bad("task " + idText + " is not min + k * step (" + std::to_string(*min) +
                   " + k * " + std::to_string(*step) + ")");
    const long long index = (*id - *min) / *step;
    // A list such as --array=1,5,9 has count 3 but ids that are no range: max tells.
    const std::string maxText = get("SLURM_ARRAY_TASK_MAX");
    if (!maxText.empty()) {
        const auto max = parseWhole(maxText, 0, INT_MAX);
        if (!max || (*max - *min) / *step + 1 != *count)
            return bad("the array is not a plain range (min " + std::to_string(*min) + ", max " +
                       maxText + ", step " + std::to_string(*step) + ", " + std::to_string(*count) +
                       " tasks)");
    }
    if (index >= *count)
        return bad("task " + idText + " is beyond the array's " + std::to_string(*count) +
                   " tasks");
    return std::optional<ShardSpec>(ShardSpec{int(index), int(*count)});
}

Result<std::vector<ScanFile>> listScans(const std::string& folder, bool excludeMaps)
{
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        return Status(ErrorCode::NotFound, "not a folder: " + folder);
    // Symbolic links resolved once, so every task and the merge name a scan alike.
    fs::path root = fs::weakly_canonical(fs::absolute(folder), ec);
    if (ec)
        root = fs::absolute(folder).lexically_normal();
    std::vector<ScanFile> scans;
    fs::directory_iterator it(root, ec), end;
    if (ec)
        return Status(ErrorCode::IoError, folder + ": " + ec.message());
    for (; it != end; it.increment(ec)) {
        if (ec)
            return Status(ErrorCode::IoError, folder + ": " + ec.message());
        const std::string name = it->path().filename().string();
        // Hidden files: temporaries of atomic writes, resource forks ("._scan.tif").
        if (name.empty() || name[0] == '.' || !hasImageExtension(name))
            continue;
        if (excludeMaps && isMapFileName(name))
            continue;
        std::error_code fec;
        if (!it->is_regular_file(fec))
            continue;
        const auto size = it->file_size(fec);
        scans.push_back({(root / name).string(), fec ? 0 : uint64_t(size)});
    }
    std::sort(scans.begin(), scans.end(),
              [](const ScanFile& a, const ScanFile& b) { return a.path < b.path; });
    return scans;
}

std::vector<int> assignShards(const std::vector<ScanFile>& scans, int count)
{
    std::vector<int> shard(scans.size(), 0);
    if (count <= 1)
        return shard;
    // Largest first; equal sizes by name, so the order of `scans` does not matter.
    std::vector<size_t> order(scans.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (scans[a].bytes != scans[b].bytes)
            return scans[a].bytes > scans[b].bytes;
        return scans[a].path < scans[b].path;
    });
    std::vector<uint64_t> load(size_t(count), 0);
    std::vector<size_t> files(size_t(count), 0);
    for (size_t k : order) {
        // The lightest shard: fewest bytes, then fewest files (for empty files), then lowest.
        size_t best = 0;
        for (size_t s = 1; s < load.size(); ++s)
            if (load[s] < load[best] || (load[s] == load[best] && files[s] < files[best]))
                best = s;
        shard[k] = int(best);
        load[best] += scans[k].bytes;
        ++files[best];
    }
    return shard;
}

std::vector<ScanFile> scansOfShard(const std::vector<ScanFile>& scans, const ShardSpec& shard)
{
    std::vector<ScanFile> sorted = scans;
    std::sort(sorted.begin(), sorted.end(),
              [](const ScanFile& a, const ScanFile& b) { return a.path < b.path; });
    const auto assigned = assignShards(sorted, shard.count);
    std::vector<ScanFile> mine;
    for (size_t k = 0; k < sorted.size(); ++k)
        if (assigned[k] == shard.index)
            mine.push_back(sorted[k]);
    return mine;
}

std::string defaultManifestName(const ShardSpec& shard)
{
    return "fisura-manifest." + std::to_string(shard.index + 1) + "-of-" +
           std::to_string(shard.count) + ".json";
}

} // namespace fisura
