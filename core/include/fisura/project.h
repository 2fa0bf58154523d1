// A Fisura project: a folder that keeps an analyst's work together.
//
//   <dir>/project.json   what the project holds (schema-versioned; written atomically)
//   <dir>/models/        trained model files
//   <dir>/runs/<id>/     one folder per training run: checkpoint, split, log
//   <dir>/maps/          maps written by tiled inference
//
// Datasets and scans are referenced by path, never copied: a path inside the project folder is
// stored relative to it, any other path absolute. In memory every path is absolute. A path that
// no longer exists is listed by missingPaths(), never an error. project.json is replaced
// atomically (temporary file, fsync, rename) on every save, so a crash or kill -9 at any moment
// leaves either the previous or the new file, both of which open.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fisura/dataset.h"
#include "fisura/status.h"
#include "fisura/train.h"

namespace fisura
{

/// project.json schema this build writes; newer files are refused with Unsupported.
constexpr int kProjectSchemaVersion = 1;

enum class RunState { Running, Finished, Cancelled, Paused, Failed };
const char* runStateName(RunState s); ///< "running", "finished", "cancelled", "paused", "failed"
bool parseRunState(const std::string& text, RunState& out);

struct ProjectDataset {
    std::string id;   ///< unique within the project ("ds-1", ...)
    std::string name; ///< shown to the user; the folder name by default
    std::string path; ///< the dataset folder (absolute in memory)
    TaskKind task = TaskKind::Segment;
    std::string splitPath;          ///< may be empty
    std::string summaryJson = "{}"; ///< datasetSummaryJson() of the last scan
    std::string addedAt;            ///< ISO 8601 UTC
};

struct ProjectRun {
    std::string id; ///< unique, sortable by start time ("run-20261126-101500")
    std::string datasetId;
    std::string datasetPath;
    TaskKind task = TaskKind::Segment;
    std::string optionsJson = "{}"; ///< toJson(TrainOptions)
    std::string policyJson = "{}";  ///< the execution policy used, with its reasons
    std::vector<EpochMetrics> history;
    std::vector<std::string> notices; ///< "code: message" as the trainer sent them
    std::string modelPath;            ///< best model (absolute in memory)
    std::string checkpointPath;       ///< last completed epoch, for resuming
    RunState state = RunState::Running;
    std::string startedAt, endedAt; ///< ISO 8601 UTC; endedAt empty while running
    int bestEpoch = -1;
    double bestScore = -1;
    double threshold = -1; ///< threshold the user chose for the model (-1 = the model's own)
    std::string errorCode; ///< failed runs: errorCodeName()
    std::string errorDetail;
    double seconds = 0; ///< training time summed over sessions (pause/resume)
};

struct ProjectScan {
    std::string id; ///< unique within the project
    std::string input;
    std::string modelPath;
    std::string runId; ///< the run that trained the model, if it came from this project
    std::string mapPath;
    std::string truthPath; ///< ground-truth mask attached by the user (may be empty)
    int width = 0, height = 0;
    std::string statsJson = "{}"; ///< toJson(InferStats), stage timings included
    std::string scoreJson;        ///< last comparison with the ground truth (may be empty)
    std::string analysedAt;
    /// The structure the scan shows ("Bridge 12, soffit"): the scans of one structure form a
    /// series over time (fisura/series.h). Empty: in no series.
    std::string structure;
    /// When the surface was scanned, YYYY-MM-DD (isIsoDate); empty: not stated.
    std::string inspectedOn;
};

/// True for a calendar date written YYYY-MM-DD (1900..9999).
bool isIsoDate(const std::string& text);

/// A path the project refers to that does not exist any more.
struct MissingPath {
    std::string kind; ///< "dataset", "split", "model", "checkpoint", "scan", "map", "truth"
    std::string ownerId;
    std::string path;
};

class Project
{
public:
    Project() = default;

    /// Make `dir` (created when missing; must not already hold a project.json) with its
    /// subfolders and an empty project.json.
    static Result<Project> create(const std::string& dir, const std::string& name);
    /// Open `dir` or the project.json in it. Unsupported for a newer schema (detail names the
    /// versions), Corrupt for a file that is not a project.
    static Result<Project> open(const std::string& dirOrFile);

    /// Write project.json atomically.
    Status save() const;
    /// Copy project.json (paths re-based) and models/, runs/, maps/ into `newDir`, which must not
    /// hold a project; returns the copy (saved).
    Result<Project> saveAs(const std::string& newDir) const;

    const std::string& dir() const { return dir_; }
    std::string file() const; ///< dir/project.json
    std::string modelsDir() const;
    std::string runsDir() const;
    std::string mapsDir() const;
    const std::string& name() const { return name_; }
    void setName(const std::string& name) { name_ = name; }
    const std::string& createdAt() const { return createdAt_; }

    std::vector<ProjectDataset>& datasets() { return datasets_; }
    const std::vector<ProjectDataset>& datasets() const { return datasets_; }
    std::vector<ProjectRun>& runs() { return runs_; }
    const std::vector<ProjectRun>& runs() const { return runs_; }
    std::vector<ProjectScan>& scans() { return scans_; }
    const std::vector<ProjectScan>& scans() const { return scans_; }

    /// Adds a dataset (or returns the id of the one with the same path and task).
    std::string addDataset(const std::string& path, TaskKind task, const std::string& name = {});
    ProjectDataset* findDataset(const std::string& id);
    const ProjectDataset* findDataset(const std::string& id) const;
    ProjectRun* findRun(const std::string& id);
    const ProjectRun* findRun(const std::string& id) const;
    ProjectScan* findScan(const std::string& id);

    /// A new run record in state Running, with model, checkpoint and split paths inside the
    /// project filled into `options` (models/<id>.fisura, runs/<id>/checkpoint.ckpt,
    /// runs/<id>/split.json) unless the caller set them. Returns the run id.
    std::string beginRun(TrainOptions& options, const std::string& datasetId = {});
    /// Record the end of a run from the trainer's result or error: Paused, Cancelled or
    /// Finished from the result's flags; an error is Failed with its code and detail (an error
    /// with ErrorCode::Cancelled is Cancelled). Seconds add up over resumed sessions.
    void finishRun(const std::string& runId, const Result<TrainResult>& result);
    /// Record one finished epoch of a running run (replacing an entry of the same epoch), so the
    /// history survives a crash mid-run; best epoch and score follow `m.improved`.
    void recordEpoch(const std::string& runId, const EpochMetrics& m);
    /// Prepare `options` to continue run `runId` from its checkpoint: the run's recorded options
    /// with resumeFrom set (epochs raised to `options.epochs` when larger), the run back in state
    /// Running. False when there is no such run, no checkpoint or unreadable recorded options.
    bool resumeRun(const std::string& runId, TrainOptions& options);
    /// Adds (or replaces, for the same input and model) an analysed scan; returns its id.
    std::string recordScan(const ProjectScan& scan);

    std::vector<MissingPath> missingPaths() const;

    std::string toJson(int indent = 2) const;
    /// Parse project.json text; `dir` resolves relative paths.
    static Result<Project> fromJson(const std::string& text, const std::string& dir);

private:
    void rebaseAll(const std::function<void(std::string&)>& fn);

    std::string dir_;
    std::string name_;
    std::string createdAt_;
    int nextId_ = 1;
    std::vector<ProjectDataset> datasets_;
    std::vector<ProjectRun> runs_;
    std::vector<ProjectScan> scans_;
};

/// TrainOptions as JSON (every field) and back; unknown keys are ignored, missing ones keep the
/// defaults. InvalidArgument for malformed JSON or out-of-range values.
std::string toJson(const TrainOptions& options, int indent = -1);
Result<TrainOptions> trainOptionsFromJson(const std::string& text);
/// EpochMetrics from toJson(EpochMetrics) text.
Result<EpochMetrics> epochMetricsFromJson(const std::string& text);

/// Current UTC time as ISO 8601 ("2026-11-26T10:15:00Z").
std::string utcNowIso();

} // namespace fisura
