// Runs one core job at a time off the GUI thread. Progress arrives as queued signals (coalesced:
// a slow GUI never queues a backlog); finished() is emitted on the GUI thread.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

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

    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels a running job and waits for it: no job outlives its runner.
    ~JobRunner() override;

    /// Start `job`; returns false (and does nothing) while another job runs.
    bool start(Job job);
    bool isRunning() const { return running_; }
    /// Ask the job to stop; finished() follows with ErrorCode::Cancelled when it honours it.
    void cancel();
    /// Block until the job's thread is gone (tests and shutdown only).
    void wait();

Q_SIGNALS:
    void started();
    void progress(double fraction, const QString& message, double etaSeconds);
    void finished(const fisura::Status& status);

private:
    bool running_ = false;
    CancelToken cancel_;
    std::thread thread_;
    std::unique_ptr<ProgressRelay> sink_;
};

} // namespace fisura::ui
