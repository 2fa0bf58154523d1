// A training run recorded into a project as it goes; see fisura/runrecorder.h.
#include "fisura/runrecorder.h"

namespace fisura
{

RunRecorder::RunRecorder(Project& project)
    : store_([&project](const std::function<void(Project&)>& edit) {
          edit(project);
          return project.save();
      })
{
}

RunRecorder::RunRecorder(Store store) : store_(std::move(store)) {}

Status RunRecorder::save(const std::function<void(Project&)>& edit)
{
    const std::string id = runId_;
    std::vector<std::string> pending;
    pending.swap(pendingNotices_); // in this save, or lost with it when it fails
    return store_([&](Project& p) {
        if (ProjectRun* r = p.findRun(id))
            r->notices.insert(r->notices.end(), pending.begin(), pending.end());
        edit(p);
    });
}

Result<std::string> RunRecorder::begin(TrainOptions& options, const std::string& datasetId)
{
    std::string id;
    if (Status s = save([&](Project& p) { id = p.beginRun(options, datasetId); }); !s)
        return s;
    runId_ = id;
    earlierNotices_.clear();
    noticeSaved_ = false;
    return id;
}

Status RunRecorder::resume(const std::string& runId, TrainOptions& options)
{
    bool prepared = false;
    std::vector<std::string> earlier;
    const Status s = save([&](Project& p) {
        prepared = p.resumeRun(runId, options);
        if (const ProjectRun* r = p.findRun(runId))
            earlier = r->notices;
    });
    if (!s)
        return s;
    if (!prepared)
        return Status(ErrorCode::Corrupt,
                      "run " + runId + " has no checkpoint or its recorded options cannot be read");
    runId_ = runId;
    earlierNotices_ = std::move(earlier);
    noticeSaved_ = false;
    return Status::ok();
}

Status RunRecorder::epoch(const EpochMetrics& m)
{
    const std::string id = runId_;
    return save([&](Project& p) { p.recordEpoch(id, m); });
}

Status RunRecorder::notice(const std::string& code, const std::string& message)
{
    pendingNotices_.push_back(code + ": " + message);
    const auto now = std::chrono::steady_clock::now();
    if (noticeSaved_ && interval_.count() > 0 && now - lastNoticeSave_ < interval_)
        return Status::ok(); // saved with the next save
    noticeSaved_ = true;
    lastNoticeSave_ = now;
    return save([](Project&) {});
}

Status RunRecorder::finish(const Result<TrainResult>& result)
{
    const std::string id = runId_;
    const std::vector<std::string> earlier = earlierNotices_;
    const Status s = save([&](Project& p) {
        p.finishRun(id, result);
        ProjectRun* r = p.findRun(id);
        if (r && result) { // finishRun took this session's notices from the result
            r->notices.insert(r->notices.begin(), earlier.begin(), earlier.end());
        }
    });
    runId_.clear();
    earlierNotices_.clear();
    return s;
}

} // namespace fisura
