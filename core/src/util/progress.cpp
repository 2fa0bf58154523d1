#include "fisura/job.h"

#include <algorithm>
#include <cmath>

namespace fisura
{

namespace
{

/// Work is folded into the rate only over spans at least this long: a job that delivers rows in
/// bursts (a writer catching up, 64 rows at once) would otherwise measure a rate over
/// microseconds, and one such sample outweighs any smoothing.
constexpr double kWindowSeconds = 1.0;

double secondsBetween(ProgressTracker::Clock::time_point a, ProgressTracker::Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

ProgressTracker::ProgressTracker(ProgressSink* sink, double total,
                                 std::chrono::milliseconds minInterval)
    : ProgressTracker(sink, total, minInterval, [] { return Clock::now(); })
{
}

ProgressTracker::ProgressTracker(ProgressSink* sink, double total,
                                 std::chrono::milliseconds minInterval, ClockFunction clock)
    : sink_(sink), total_(total), minInterval_(minInterval), clock_(std::move(clock)),
      start_(clock_()), lastReport_(start_), windowStart_(start_)
{
}

double ProgressTracker::rate(double done, Clock::time_point now, double elapsed)
{
    // The rate is measured over windows of at least kWindowSeconds (the work done since the
    // window opened, over its length) and smoothed exponentially in time, with a time constant
    // that grows with the job (5 s to 1 min): steady for long jobs, still following a job that
    // slows down. Windows open and close at updates, so with bursty work every window spans
    // whole bursts, from the start of one to the start of another; the first window, from the
    // start of the job to the first burst, only sets that phase. Until a window has been
    // measured, the plain average since the start.
    const double span = secondsBetween(windowStart_, now);
    if (done > windowDone_ && span >= kWindowSeconds) {
        const double sample = (done - windowDone_) / span;
        const double tau = std::clamp(0.1 * elapsed, 5.0, 60.0);
        if (smoothedRate_ > 0)
            smoothedRate_ += (1.0 - std::exp(-span / tau)) * (sample - smoothedRate_);
        else if (windowAligned_)
            smoothedRate_ = sample;
        windowAligned_ = true;
        windowDone_ = done;
        windowStart_ = now;
    }
    if (smoothedRate_ > 0)
        return smoothedRate_;
    return done > 0 && elapsed > 0 ? done / elapsed : -1.0;
}

void ProgressTracker::update(double done, const std::string& message)
{
    const auto now = clock_();
    const double elapsed = secondsBetween(start_, now);
    const double r = rate(done, now, elapsed);
    last_.elapsedSeconds = elapsed;
    last_.message = message;
    if (total_ > 0) {
        last_.fraction = std::clamp(done / total_, 0.0, 1.0);
        last_.etaSeconds = r > 0 ? std::max(0.0, (total_ - done) / r) : -1.0;
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
    last_.elapsedSeconds = secondsBetween(start_, clock_());
    last_.message = message;
    if (sink_)
        sink_->report(last_);
}

} // namespace fisura
