#include "fisura/job.h"

#include <algorithm>

namespace fisura
{

ProgressTracker::ProgressTracker(ProgressSink* sink, double total,
                                 std::chrono::milliseconds minInterval)
    : sink_(sink), total_(total), minInterval_(minInterval), start_(Clock::now()),
      lastReport_(start_), lastDoneTime_(start_)
{
}

void ProgressTracker::update(double done, const std::string& message)
{
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    // Rate from the interval since the last update, smoothed so one slow item does not make the
    // ETA jump; the first estimate is the plain average.
    const double dt = std::chrono::duration<double>(now - lastDoneTime_).count();
    if (done > lastDone_ && dt > 0) {
        const double rate = (done - lastDone_) / dt;
        smoothedRate_ =
            smoothedRate_ < 0 ? done / std::max(elapsed, 1e-9) : 0.7 * smoothedRate_ + 0.3 * rate;
        lastDone_ = done;
        lastDoneTime_ = now;
    }
    last_.elapsedSeconds = elapsed;
    last_.message = message;
    if (total_ > 0) {
        last_.fraction = std::clamp(done / total_, 0.0, 1.0);
        last_.etaSeconds =
            smoothedRate_ > 0 ? std::max(0.0, (total_ - done) / smoothedRate_) : -1.0;
    } else {
        last_.fraction = -1.0;
        last_.etaSeconds = -1.0;
    }
    if (!sink_)
        return;
    if (reportedOnce_ && now - lastReport_ < minInterval_)
        return;
    reportedOnce_ = true;
    lastReport_ = now;
    sink_->report(last_);
}

void ProgressTracker::finish(const std::string& message)
{
    last_.fraction = 1.0;
    last_.etaSeconds = 0.0;
    last_.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start_).count();
    last_.message = message;
    if (sink_)
        sink_->report(last_);
}

} // namespace fisura
