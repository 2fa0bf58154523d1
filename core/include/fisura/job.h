// Long work is a job: it polls a CancelToken and reports to a ProgressSink (the QgsFeedback idea).
// Both are thread-safe; the GUI runs jobs off its thread and relays progress with queued signals.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace fisura
{

/// Shared cancellation flag. Copies refer to the same flag; cancel() is visible on every thread.
class CancelToken
{
public:
    CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
    void cancel() { flag_->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return flag_->load(std::memory_order_relaxed); }
    void reset() { flag_->store(false, std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> flag_;
};

struct Progress {
    double fraction = 0.0;    ///< 0..1, or negative when unknown
    double etaSeconds = -1.0; ///< negative when unknown
    double elapsedSeconds = 0.0;
    std::string message; ///< untranslated, short: "image 12/64"
};

/// Receives progress reports; implementations must be cheap and thread-safe.
class ProgressSink
{
public:
    virtual ~ProgressSink() = default;
    virtual void report(const Progress& progress) = 0;
};

/// A sink that forwards to a function (handy for the CLI and tests).
class CallbackProgressSink final : public ProgressSink
{
public:
    explicit CallbackProgressSink(std::function<void(const Progress&)> fn) : fn_(std::move(fn)) {}
    void report(const Progress& progress) override
    {
        if (fn_)
            fn_(progress);
    }

private:
    std::function<void(const Progress&)> fn_;
};

/// Turns "done k of n" into Progress with an ETA and throttles reports to at most one per
/// `minInterval` (the first and the last always go out). The rate behind the ETA is measured over
/// windows of at least a second and smoothed in time, so work that arrives in bursts (many rows
/// within microseconds, then nothing for seconds) still gives a steady, honest ETA.
class ProgressTracker
{
public:
    using Clock = std::chrono::steady_clock;
    /// Where the tracker reads the time (tests pass a fake clock).
    using ClockFunction = std::function<Clock::time_point()>;

    ProgressTracker(ProgressSink* sink, double total,
                    std::chrono::milliseconds minInterval = std::chrono::milliseconds(100));
    ProgressTracker(ProgressSink* sink, double total, std::chrono::milliseconds minInterval,
                    ClockFunction clock);

    /// Report that `done` units of `total` are complete.
    void update(double done, const std::string& message = {});
    /// Report completion (fraction 1, ETA 0) regardless of throttling.
    void finish(const std::string& message = {});
    /// The last computed progress (also when it was throttled).
    Progress last() const { return last_; }

private:
    double rate(double done, Clock::time_point now, double elapsed);

    ProgressSink* sink_;
    double total_;
    std::chrono::milliseconds minInterval_;
    ClockFunction clock_;
    Clock::time_point start_;
    Clock::time_point lastReport_;
    bool reportedOnce_ = false;
    double smoothedRate_ = -1.0;    // units per second
    Clock::time_point windowStart_; // the open rate window: since when, and the work done then
    double windowDone_ = 0.0;
    bool windowAligned_ = false; // the first window (job start to first update) has closed
    Progress last_;
};

} // namespace fisura
