// `fisura-cli infer` over a folder: the shard of this task and its manifest; see infer_shard.h.
#include "infer_shard.h"

#include <cstdlib>
#include <filesystem>

#include "fisura/infer.h"

namespace fs = std::filesystem;

namespace fisura::cli
{

namespace
{

std::string canonical(const std::string& p)
{
    std::error_code ec;
    auto c = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal().string() : c.string();
}

Result<ShardSpec> chooseShard(const std::string& shardArg, std::string& source)
{
    if (!shardArg.empty()) {
        source = "--shard";
        return parseShard(shardArg);
    }
    std::map<std::string, std::string> env;
    for (const char* k : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                          "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP"})
        if (const char* v = std::getenv(k))
            env[k] = v;
    auto slurm = shardFromSlurmEnvironment(env);
    if (!slurm)
        return slurm.status();
    if (!*slurm)
        return ShardSpec{};
    source = "Slurm array task " + env["SLURM_ARRAY_TASK_ID"];
    return **slurm;
}

} // namespace

Result<FolderRun> planFolderRun(const std::string& in, const std::string& out,
                                const std::string& shardArg, const std::string& manifestArg,
                                const std::string& mapKind)
{
    MapKind kind = MapKind::Probability;
    if (!parseMapKind(mapKind, kind))
        return Status(ErrorCode::InvalidArgument, "unknown map kind " + mapKind);
    FolderRun run;
    auto shard = chooseShard(shardArg, run.shardSource);
    if (!shard)
        return shard.status();
    run.shard = *shard;
    const std::string inDir = canonical(in);
    const std::string outDir = canonical(out);
    // Maps written into the input folder must not become inputs of a task that lists it later.
    auto scans = listScans(inDir, inDir == outDir);
    if (!scans)
        return scans.status();
    if (scans->empty())
        return Status(ErrorCode::NotFound, "no images in " + in);
    run.folderScans = int(scans->size());
    for (const auto& s : scansOfShard(*scans, run.shard)) {
        run.jobs.emplace_back(s.path, (fs::path(outDir) / mapFileName(s.path, kind)).string());
        run.manifest.assigned.push_back(s.path);
    }
    std::error_code ec;
    if (manifestArg.empty())
        run.manifestPath = (fs::path(outDir) / defaultManifestName(run.shard)).string();
    else if (fs::is_directory(manifestArg, ec) || manifestArg.back() == '/')
        run.manifestPath =
            (fs::path(canonical(manifestArg)) / defaultManifestName(run.shard)).string();
    else
        run.manifestPath = canonical(manifestArg);
    fs::create_directories(fs::path(run.manifestPath).parent_path(), ec);
    run.manifest.shard = run.shard;
    run.manifest.inputFolder = inDir;
    run.manifest.outputFolder = outDir;
    run.manifest.mapKind = mapKind;
    return run;
}

ScanRecord scanRecord(const std::string& in, const std::string& out, const Status& status,
                      double seconds, int width, int height)
{
    ScanRecord r;
    r.input = in;
    r.output = out;
    r.seconds = seconds;
    if (status) {
        r.state = ScanState::Done;
        r.width = width;
        r.height = height;
    } else {
        r.state = status.code() == ErrorCode::Cancelled ? ScanState::Cancelled : ScanState::Failed;
        r.errorCode = errorCodeName(status.code());
        r.message = status.detail();
    }
    return r;
}

} // namespace fisura::cli
