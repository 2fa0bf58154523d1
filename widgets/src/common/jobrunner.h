// Runs one core job at a time off the GUI thread. Progress arrives as queued signals (coalesced:
// a slow GUI never queues a backlog); finished() is emitted on the GUI thread. A typed job hands
// its Result<T> to a handler on the GUI thread, so callers need no shared slot for the value.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "common/statusmeta.h"
#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura::ui
{

class ProgressRelay;

class JobRunner : public QObject
{
    Q_OBJECT
public:
    using Job = std::function<Status(const CancelToken&, ProgressSink*)>;
    /// Work that makes a value (T is named at the call: start<Dataset>(...)).
    template <class T> using Work = std::function<Result<T>(const CancelToken&, ProgressSink*)>;
    template <class T> using Done = std::function<void(Result<T>)>;

    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels a running job and waits for it: no job outlives its runner.
    ~JobRunner() override;

    /// Start `job`; returns false (and does nothing) while another job runs.
    bool start(Job job);
    /// Start `work`; when it ends, `done` runs on the GUI thread with its value or its error
    /// (Cancelled when it honoured cancel(), Internal when it threw), then finished() is emitted
    /// with the same status. Returns false (and does nothing) while another job runs.
    template <class T> bool start(Work<T> work, Done<T> done);
    bool isRunning() const { return running_; }
    /// Ask the job to stop; finished() follows with ErrorCode::Cancelled when it honours it.
    void cancel();
    /// Cancel and forget: the running job's done handler is not called (its value belongs to
    /// inputs that changed); finished() still follows, so a caller can start the next job then.
    void discard();
    /// Block until the job's thread is gone (tests and shutdown only).
    void wait();

Q_SIGNALS:
    void started();
    void progress(double fraction, const QString& message, double etaSeconds);
    void finished(const fisura::Status& status);

private:
    bool run(Job job, std::function<void(const Status&)> done);

    bool running_ = false;
    CancelToken cancel_;
    std::thread thread_;
    std::unique_ptr<ProgressRelay> sink_;
    std::function<void(const Status&)> done_;
};

template <class T> bool JobRunner::start(Work<T> work, Done<T> done)
{
    // The value travels from the worker to the GUI thread in this slot; the job's thread has
    // written it before the completion is queued, and only the GUI thread reads it.
    auto value = std::make_shared<std::optional<Result<T>>>();
    return run(
        [value, work = std::move(work)](const CancelToken& cancel, ProgressSink* sink) {
            value->emplace(work(cancel, sink));
            return (*value)->isOk() ? Status::ok() : (*value)->status();
        },
        [value, done = std::move(done)](const Status& s) {
            // No value: the work threw, and `s` says what happened.
            done(*value ? std::move(**value) : Result<T>(s));
        });
}

} // namespace fisura::ui
