// One training run recorded into a project while it runs, the same way for `fisura-cli train
// --project` and the desktop application's Train pane: the run record begins (saved), every
// finished epoch and every trainer notice is recorded as it arrives and project.json saved
// (atomically, see project.h), and the end of the run is recorded from the trainer's result. A
// run killed at any moment leaves its record as it was at the last save: state "running", the
// epochs and the notices so far.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "fisura/project.h"

namespace fisura
{

class RunRecorder
{
public:
    /// Applies `edit` to the project and saves it; returns the save's status. When the save
    /// fails the store decides what stays in memory (the GUI's session undoes the edit).
    using Store = std::function<Status(const std::function<void(Project&)>& edit)>;

    /// Records into `project`, saved with Project::save after each change. `project` must
    /// outlive the recorder.
    explicit RunRecorder(Project& project);
    /// Records through `store` (the GUI: its project session, which also tells the panes).
    explicit RunRecorder(Store store);

    /// Notices that arrive closer together than this are saved together with the next save (a
    /// later notice, an epoch or the end), not one save each: a dataset with many unreadable
    /// files sends one notice per file. Zero saves every notice.
    void setNoticeSaveInterval(std::chrono::milliseconds interval) { interval_ = interval; }

    /// Begins a new run (Project::beginRun, which fills the run's paths into `options`) and
    /// saves. Returns the run id, or the save's error (the run is then not recorded).
    Result<std::string> begin(TrainOptions& options, const std::string& datasetId = {});
    /// Continues run `runId` (Project::resumeRun prepares `options`) and saves. Corrupt when
    /// the run has no checkpoint or its recorded options cannot be read; the save's error.
    Status resume(const std::string& runId, TrainOptions& options);

    /// A finished epoch: recorded (Project::recordEpoch) and saved.
    Status epoch(const EpochMetrics& m);
    /// A trainer notice, recorded as "code: message" and saved (see setNoticeSaveInterval: one
    /// that arrives soon after another goes into the project with the next save).
    Status notice(const std::string& code, const std::string& message);
    /// The end of the run (Project::finishRun), saved. The notices stay as recorded: those of
    /// earlier sessions of a resumed run, then this session's as the result lists them.
    Status finish(const Result<TrainResult>& result);

    /// The run being recorded (empty before begin/resume and after finish).
    const std::string& runId() const { return runId_; }

private:
    Status save(const std::function<void(Project&)>& edit);

    Store store_;
    std::string runId_;
    std::vector<std::string> earlierNotices_; ///< of the sessions before this one
    std::chrono::milliseconds interval_{1000};
    std::vector<std::string> pendingNotices_; ///< recorded, not saved yet
    std::chrono::steady_clock::time_point lastNoticeSave_{};
    bool noticeSaved_ = false; ///< the first notice of a run is saved at once
};

} // namespace fisura
