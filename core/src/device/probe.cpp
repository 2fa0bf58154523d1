// Batch size by measurement. Model-agnostic: the caller's step does the work, this file decides
// which sizes to try, times them and keeps the allocator clean.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "fisura/gpumemory.h"
#include "fisura/policy.h"

namespace fisura
{

namespace
{

std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

class Prober
{
public:
    Prober(const BatchStep& step, const BatchProbeOptions& o, const CancelToken& c, ProgressSink* p)
        : step_(step), o_(o), cancel_(c), progress_(p)
    {
    }

    /// Run `steps` steps at `batch` (after `warmup` untimed ones) and record the sample.
    Status measure(int batch, int warmup, int steps, BatchProbeSample& s)
    {
        s = BatchProbeSample{};
        s.batch = batch;
        if (cancel_.isCancelled())
            return {ErrorCode::Cancelled, "batch size probe cancelled"};
        const bool gpu = o_.deviceIndex >= 0;
        if (gpu)
            resetPeakGpuMemory(o_.deviceIndex);
        Status st;
        for (int i = 0; i < warmup && st; ++i)
            st = step_(batch);
        if (st && gpu)
            st = synchronizeGpu(o_.deviceIndex);
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < steps && st; ++i)
            st = step_(batch);
        if (st && gpu)
            st = synchronizeGpu(o_.deviceIndex);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (gpu) {
            if (auto m = gpuMemoryStats(o_.deviceIndex))
                s.peakBytes = m->peakAllocatedBytes;
        }
        if (st.code() == ErrorCode::OutOfMemory) {
            // The failed step's tensors are gone; hand their blocks back so the next, smaller
            // try does not inherit a fragmented cache.
            if (gpu)
                releaseGpuMemory(o_.deviceIndex);
            report(batch, "does not fit");
            return st;
        }
        if (!st)
            return st;
        s.fits = true;
        if (steps > 0 && secs > 0) {
            s.stepSeconds = secs / steps;
            s.imagesPerSecond = batch * steps / secs;
        }
        report(batch, s.imagesPerSecond > 0 ? fmt("%.1f images/s", s.imagesPerSecond) : "fits");
        return Status::ok();
    }

    void report(int batch, const std::string& what)
    {
        if (!progress_)
            return;
        Progress p;
        p.fraction = -1;
        p.message = "batch " + std::to_string(batch) + ": " + what;
        progress_->report(p);
    }

private:
    const BatchStep& step_;
    const BatchProbeOptions& o_;
    const CancelToken& cancel_;
    ProgressSink* progress_;
};

} // namespace

Result<BatchProbeResult> probeBatchSize(const BatchStep& step, const BatchProbeOptions& o,
                                        const CancelToken& cancel, ProgressSink* progress)
{
    if (!step)
        return Status(ErrorCode::InvalidArgument, "no step function to probe with");
    if (o.minBatch < 1 || o.maxBatch < o.minBatch)
        return Status(ErrorCode::InvalidArgument, "batch range " + std::to_string(o.minBatch) +
                                                      ".." + std::to_string(o.maxBatch) +
                                                      " is empty");
    if (!(o.headroom >= 0 && o.headroom < 0.9) || o.timedSteps < 1 || o.warmupSteps < 0)
        return Status(ErrorCode::InvalidArgument, "headroom must lie in [0, 0.9) and at least "
                                                  "one step must be timed");

    Prober prober(step, o, cancel, progress);
    BatchProbeResult r;
    auto finish = [&](Status st) -> Result<BatchProbeResult> {
        if (o.deviceIndex >= 0) {
            releaseGpuMemory(o.deviceIndex); // leave the allocator clean for the job
            resetPeakGpuMemory(o.deviceIndex);
        }
        if (!st)
            return st;
        return r;
    };

    // 1. Grow geometrically, timing each size, until memory, time or the cap stops us.
    int lastFit = 0, firstFail = 0;
    bool timeLimited = false;
    for (int b = o.minBatch;; b = std::min(2 * b, o.maxBatch)) {
        BatchProbeSample s;
        Status st = prober.measure(b, o.warmupSteps, o.timedSteps, s);
        r.samples.push_back(s);
        if (st.code() == ErrorCode::OutOfMemory) {
            firstFail = b;
            break;
        }
        if (!st)
            return finish(st);
        lastFit = b;
        if (b >= o.maxBatch)
            break;
        if (s.stepSeconds > o.maxStepSeconds) {
            timeLimited = true;
            break;
        }
    }
    if (lastFit == 0)
        return finish(
            Status(ErrorCode::OutOfMemory,
                   "even a batch of " + std::to_string(o.minBatch) + " does not fit in memory"));

    // 2. After an out-of-memory, bisect the boundary; two untimed steps show a size fits (the
    //    optimizer allocates its state in the first one). Six rounds reach ~1.5 % of the range.
    r.hitOutOfMemory = firstFail > 0;
    if (r.hitOutOfMemory) {
        int lo = lastFit, hi = firstFail;
        for (int round = 0; round < 6 && hi - lo > 1; ++round) {
            const int mid = lo + (hi - lo) / 2;
            BatchProbeSample s;
            Status st = prober.measure(mid, 0, 2, s);
            s.imagesPerSecond = 0; // too few steps to count as a throughput figure
            s.stepSeconds = 0;
            r.samples.push_back(s);
            if (st.code() == ErrorCode::OutOfMemory)
                hi = mid;
            else if (!st)
                return finish(st);
            else
                lo = mid;
        }
        lastFit = lo;
    }
    r.largestFit = lastFit;
    r.headroomLimit =
        r.hitOutOfMemory
            ? std::max(o.minBatch, static_cast<int>(std::floor(lastFit * (1.0 - o.headroom))))
            : lastFit;

    // 3. Time the headroom limit itself, then pick the best throughput at or below it.
    const bool limitTimed = std::any_of(r.samples.begin(), r.samples.end(), [&](const auto& s) {
        return s.batch == r.headroomLimit && s.imagesPerSecond > 0;
    });
    if (!limitTimed) {
        BatchProbeSample s;
        Status st = prober.measure(r.headroomLimit, o.warmupSteps, o.timedSteps, s);
        r.samples.push_back(s);
        if (st.code() == ErrorCode::OutOfMemory) {
            // Fragmentation can make a size fail that ran before: fall back to the last timed.
            r.headroomLimit = std::max(o.minBatch, r.headroomLimit / 2);
        } else if (!st) {
            return finish(st);
        }
    }
    const BatchProbeSample* best = nullptr;
    for (const auto& s : r.samples)
        if (s.fits && s.imagesPerSecond > 0 && s.batch <= r.headroomLimit &&
            (!best || s.imagesPerSecond > best->imagesPerSecond))
            best = &s;
    if (!best)
        return finish(Status(ErrorCode::Internal, "no timed batch size fits"));
    r.batchSize = best->batch;
    r.imagesPerSecond = best->imagesPerSecond;

    std::string why = "measured: " + fmt("%.0f", r.imagesPerSecond) + " images/s, the best of " +
                      "the sizes tried";
    if (r.hitOutOfMemory)
        why += "; " + std::to_string(r.largestFit) + " is the largest that fits, " +
               fmt("%.0f", o.headroom * 100) + " % headroom keeps it at or below " +
               std::to_string(r.headroomLimit);
    else if (timeLimited)
        why += "; larger batches were not tried because one step already took " +
               fmt("%.1f s", r.samples.back().stepSeconds);
    else
        why += "; every size up to " + std::to_string(o.maxBatch) + " fits";
    r.reason = why;
    return finish(Status::ok());
}

void applyProbe(ExecutionPolicy& p, const BatchProbeResult& probe)
{
    if (probe.batchSize <= 0)
        return;
    p.batchSize = probe.batchSize;
    p.batchSizeMeasured = true;
    for (auto& c : p.choices)
        if (c.what == "batch_size") {
            c.value = std::to_string(probe.batchSize);
            c.reason = probe.reason;
            c.reasonId = "batch_probed";
            c.reasonArg.clear();
            return;
        }
    p.choices.push_back(
        {"batch_size", std::to_string(probe.batchSize), probe.reason, "batch_probed", {}});
}

} // namespace fisura
