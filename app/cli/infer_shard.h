// `fisura-cli infer` over a folder: which scans this task runs (--shard I/N or the Slurm array
// task) and where its manifest goes. The rules live in core (fisura/manifest.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fisura/manifest.h"

namespace fisura::cli
{

struct FolderRun {
    ShardSpec shard;
    std::string shardSource; ///< "--shard", "Slurm array task N", or empty (whole folder)
    int folderScans = 0;     ///< images in the folder, all shards together
    std::vector<std::pair<std::string, std::string>> jobs; ///< this shard's (scan, map)
    std::string manifestPath;
    Manifest manifest; ///< fresh: model, options and assignment, no records yet
};

/// Lists `in`, picks this task's shard (`shardArg` when given, else the Slurm array variables,
/// else the whole folder) and names its maps `<out>/<stem>.<kind>.tif` (mapFileName, with
/// `mapKind` a mapKindName) and its manifest
/// (`manifestArg`: a file, or a folder for the default name; empty = beside the maps).
/// InvalidArgument with a sentence for the user when the shard or the folders are wrong.
Result<FolderRun> planFolderRun(const std::string& in, const std::string& out,
                                const std::string& shardArg, const std::string& manifestArg,
                                const std::string& mapKind);

/// The record of a scan that ran, failed or was cancelled.
ScanRecord scanRecord(const std::string& in, const std::string& out, const Status& status,
                      double seconds, int width, int height);

} // namespace fisura::cli
