// A ProgressSink for a job on a worker thread whose reports reach a QObject on the GUI thread,
// coalesced: at most one delivery is queued at a time and it carries the newest report, so a
// busy GUI never builds a backlog of stale progress.
#pragma once

#include <QObject>

#include <atomic>
#include <functional>
#include <mutex>

#include "fisura/job.h"

namespace fisura::ui
{

class ProgressRelay final : public ProgressSink
{
public:
    /// `deliver` runs on `target`'s thread with the newest report.
    ProgressRelay(QObject* target, std::function<void(const Progress&)> deliver);
    /// Any thread: remember the report and queue one delivery if none is queued.
    void report(const Progress& progress) override;
    /// Target's thread: deliver what is pending now (a job ended; its last report must show).
    void flush();
    /// Target's thread: forget what is pending (a new job starts, or its reports are stale).
    void reset();

private:
    QObject* target_;
    std::function<void(const Progress&)> deliver_;
    std::mutex mutex_;
    Progress latest_;
    std::atomic<bool> pending_{false};
};

} // namespace fisura::ui
