// Cluster runs: a folder of scans split into shards (one per task of a Slurm job array), a
// manifest per shard recording what each task did, and the merge of those manifests into one
// report of what is done, failed or still missing.
//
// Sharding. Every task lists the input folder itself, so the split depends only on the folder's
// content: image files sorted by name (maps Fisura wrote into the same folder excluded), then
// assigned largest first to the shard with the fewest bytes so far (ties: the lower shard), the
// "longest processing time first" rule. File size stands for the work a scan takes (a survey's
// scans share a format); groups end up within one scan of each other in bytes. The order in
// which tasks start, or list the folder, does not matter.
//
// Manifest. One JSON file per shard (`fisura-manifest.<I>-of-<N>.json` beside the maps unless
// the user names another place), rewritten atomically after every scan, so a task killed at any
// moment leaves a valid manifest of the scans it finished. It records the model (path, size,
// modification time and a content hash), the options that change the maps, the scans assigned
// to the shard and, per scan, done / failed / cancelled with the error, output path, sizes and
// seconds. A re-run of the same shard skips a scan whose entry is done when the map still exists
// with the recorded size, opens as a TIFF of the recorded width and height, and the input still
// has the size and modification time recorded (ShardJournal::skipReason) — unless asked to redo.
//
// Merge. mergeManifests reads manifests (files or folders holding them), keeps those of the
// newest run (same model hash and options as the manifest updated last) and reports every scan
// as done, failed, cancelled or missing. Missing: assigned or present in the expected input
// folder but in no manifest of that run, or done but its map is gone or changed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura
{

/// One shard of a split: `index` is 0-based internally; the command line shows it 1-based.
struct ShardSpec {
    int index = 0;
    int count = 1;
    bool operator==(const ShardSpec& o) const { return index == o.index && count == o.count; }
};

/// Parses "I/N" with 1 <= I <= N (1-based, as people count tasks: "1/3", "2/3", "3/3").
/// InvalidArgument with a sentence saying what is wrong otherwise.
Result<ShardSpec> parseShard(const std::string& text);

/// The shard of a Slurm job array task from its environment (pass the variables; the CLI passes
/// getenv's values): SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN and
/// SLURM_ARRAY_TASK_STEP (arrays need not start at 0 or 1: `--array=4-6` is shards 0, 1, 2).
/// nullopt when SLURM_ARRAY_TASK_ID is unset (not an array task). InvalidArgument when the
/// values are malformed or the array is not a plain range (`--array=1,5,9`: ids cannot be
/// numbered 0..count-1 without gaps; use --shard there).
Result<std::optional<ShardSpec>>
shardFromSlurmEnvironment(const std::map<std::string, std::string>& env);

/// An input scan of a folder run.
struct ScanFile {
    std::string path; ///< absolute: the folder with links resolved, then the file name
    uint64_t bytes = 0;
};

/// Image files of `folder` (hasImageExtension), sorted by name. With `excludeMaps`, files named
/// like Fisura's maps (`*.probability.tif`, `*.heatmap.tif`, `*.score.tif`) are left out: used
/// when maps are written into the input folder itself. NotFound / IoError when it cannot be read.
Result<std::vector<ScanFile>> listScans(const std::string& folder, bool excludeMaps);

/// For each scan (as listScans returns them), the 0-based shard it belongs to, for `count`
/// shards (see the header comment). Deterministic; independent of the order of `scans`.
std::vector<int> assignShards(const std::vector<ScanFile>& scans, int count);

/// The scans of one shard, in name order.
std::vector<ScanFile> scansOfShard(const std::vector<ScanFile>& scans, const ShardSpec& shard);

/// `fisura-manifest.<I>-of-<N>.json` (I 1-based).
std::string defaultManifestName(const ShardSpec& shard);

enum class ScanState { Done, Failed, Cancelled };
const char* scanStateName(ScanState s); ///< "done", "failed", "cancelled"

/// Which model made the maps.
struct ManifestModel {
    std::string path;
    uint64_t bytes = 0;
    int64_t mtimeNs = 0; ///< modification time, ns since the epoch
    std::string hash;    ///< "fnv1a64:<16 hex digits>" of the whole file
};

/// Size, modification time and content hash of a model file (reads the whole file).
Result<ManifestModel> describeModelFile(const std::string& path);

/// What one scan's run left.
struct ScanRecord {
    std::string input;  ///< absolute path of the scan
    std::string output; ///< absolute path of its map
    ScanState state = ScanState::Done;
    std::string errorCode; ///< errorCodeName() when failed or cancelled
    std::string message;   ///< Status::detail()
    uint64_t inputBytes = 0;
    int64_t inputMtimeNs = 0;
    uint64_t outputBytes = 0; ///< of the map when done
    int width = 0;            ///< of the map when done
    int height = 0;
    double seconds = 0.0;
    std::string finishedAt; ///< ISO 8601 UTC
};

struct Manifest {
    int formatVersion = 1;
    std::string fisuraVersion;
    ShardSpec shard;
    std::string inputFolder;
    std::string outputFolder;
    std::string mapKind; ///< "probability", "heatmap", "score"
    ManifestModel model;
    /// Options that change the maps, as given ("tile" -> "0" = from the model, "window", ...).
    std::map<std::string, std::string> settings;
    std::string host;
    std::string startedAt;
    std::string updatedAt;
    std::vector<std::string> assigned; ///< every scan of this shard (absolute paths)
    std::vector<ScanRecord> scans;     ///< at most one per input, the latest

    const ScanRecord* find(const std::string& input) const;
    /// Replaces the record of the same input, or appends it.
    void put(const ScanRecord& record);
    /// Same model content, map kind and options: the maps of both are interchangeable.
    bool sameRunAs(const Manifest& other) const;
};

std::string toJson(const Manifest& manifest, int indent = 2);
/// Corrupt (with what is wrong and `origin` in the detail) for text that is not a manifest:
/// truncated or invalid JSON, wrong format name, newer format version, fields of the wrong type.
Result<Manifest> manifestFromJson(const std::string& text, const std::string& origin = {});
/// NotFound, IoError, or manifestFromJson's errors.
Result<Manifest> readManifest(const std::string& path);
/// Atomic (temporary file, fsync, rename): readers see the old or the new manifest, never half.
Status writeManifest(const std::string& path, const Manifest& manifest);

/// Why a done record's map may be trusted without running the scan again: empty when it may be
/// skipped; otherwise a short reason ("map missing", "map size changed", ...).
std::string staleReason(const ScanRecord& record);

/// A shard's manifest while its task runs: opened once, updated after every scan.
class ShardJournal
{
public:
    /// Starts from the manifest at `path` when it exists and is of the same run (sameRunAs
    /// `fresh`) and `redo` is false: its records are kept and done scans may be skipped.
    /// Otherwise (none, another model or options, --redo) it starts from `fresh`; an unreadable
    /// manifest is replaced, and its problem reported by previousProblem(). Writes the manifest
    /// at once (so a task that dies before its first scan still leaves its assignment).
    static Result<ShardJournal> open(const std::string& path, Manifest fresh, bool redo);

    /// Empty when `input` must run; otherwise why it is skipped ("done at ...").
    std::string skipReason(const std::string& input) const;
    /// Records the outcome of one scan and rewrites the manifest atomically.
    Status record(ScanRecord record);

    const Manifest& manifest() const { return manifest_; }
    const std::string& path() const { return path_; }
    /// Why an existing manifest was not continued ("another model", "unreadable: ..."); empty
    /// when there was none or it was continued.
    const std::string& previousProblem() const { return previousProblem_; }

private:
    ShardJournal() = default;
    std::string path_;
    Manifest manifest_;
    bool redo_ = false;
    std::string previousProblem_;
};

/// Merge of the manifests of a run.
enum class MergedState { Done, Failed, Cancelled, Missing };
const char* mergedStateName(MergedState s); ///< "done", "failed", "cancelled", "missing"

struct MergedScan {
    std::string input;
    std::string output;
    MergedState state = MergedState::Missing;
    std::string reason;    ///< missing: why ("in no manifest", "map missing", ...)
    std::string errorCode; ///< failed / cancelled
    std::string message;
    std::string manifest; ///< the manifest that has it, when one has
    double seconds = 0.0;
};

struct MergeOptions {
    /// When set, every image of this folder must be done (listed as listScans does).
    std::string expectIn;
};

struct MergeReport {
    std::vector<MergedScan> scans; ///< sorted by input path
    std::string model;             ///< the run's model path and hash
    std::string modelHash;
    std::map<std::string, std::string> settings;
    int shardCount = 0;
    std::vector<std::string> manifestsUsed;
    /// Manifests that were read but describe another run (path -> why: another model, options
    /// or, with expectIn, another input folder), and ones that could not be read or are not
    /// trusted (path -> the error, Corrupt for a truncated file; "rejected: ..." for a scan or
    /// map outside the manifest's own input or output folder, or a path with "." or "..").
    std::map<std::string, std::string> manifestsOtherRun;
    std::map<std::string, std::string> manifestsUnreadable;
    std::vector<int> shardsWithoutManifest; ///< 1-based
    int done = 0, failed = 0, cancelled = 0, missing = 0;

    /// Everything done, every manifest readable, no shard without one.
    bool complete() const;
    /// Inputs to run again (failed, cancelled, missing), sorted.
    std::vector<std::string> toRedo() const;
};

/// `paths`: manifest files, or folders whose `fisura-manifest*.json` files are read.
/// InvalidArgument when nothing is given or no manifest is found and no expectIn; NotFound
/// when a path does not exist. Unreadable manifests are reported in the result, not as errors.
Result<MergeReport> mergeManifests(const std::vector<std::string>& paths,
                                   const MergeOptions& options = {});
std::string toJson(const MergeReport& report, int indent = 2);

} // namespace fisura
