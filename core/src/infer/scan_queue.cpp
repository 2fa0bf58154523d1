// Folders of scans over several devices (plain C++); see runScans in fisura/infer.h.
//
// Few huge scans and many small ones want different things: a drone orthomosaic of 40k x 40k
// px keeps every GPU busy on its own column band and finishes sooner split; a folder of camera
// photos has too few tiles per scan for that (a band would get less than a batch or two, and
// the per-scan set-up, pipeline fill and overviews would not overlap), so each device takes
// whole scans. TiledInference::splitPays() draws the line.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "fisura/infer.h"
#include "fisura/tiledimage.h"
#include "util/thread_start.h"

namespace fisura
{

namespace
{

/// Width and height of a TIFF from its header; false for other images (decoded whole, they are
/// small: one per device).
bool tiffSize(const std::string& path, int& width, int& height)
{
    TiledOpenOptions o;
    o.maxHandles = 1;
    auto img = TiledImage::open(path, o);
    if (!img)
        return false;
    width = (*img)->info().width;
    height = (*img)->info().height;
    return true;
}

/// `group` (indices of jobs) one scan per device, each device's thread taking the next.
void runSpread(TiledInference& engine, const std::vector<ScanJob>& jobs,
               const std::vector<size_t>& group, const ScanDone& finish, const CancelToken& cancel)
{
    std::atomic<size_t> next{0};
    auto worker = [&](int device) {
        for (size_t k = next++; k < group.size() && !cancel.isCancelled(); k = next++) {
            const size_t i = group[k];
            finish(i, engine.runOn(device, jobs[i].input, jobs[i].output, cancel, nullptr));
        }
    };
    const int used = int(std::min<size_t>(size_t(engine.deviceCount()), group.size()));
    std::vector<std::thread> threads;
    for (int d = 1; d < used; ++d) {
        std::thread t;
        if (!util::startThread(t, "fisura-gpu", "a device", [&worker, d] { worker(d); }))
            break; // short of memory or threads: the devices that have one share the scans
        threads.push_back(std::move(t));
    }
    if (used > 0)
        worker(0);
    for (auto& t : threads)
        t.join();
}

} // namespace

Status runScans(TiledInference& engine, const std::vector<ScanJob>& jobs, const ScanDone& done,
                const CancelToken& cancel, ProgressSink* progress)
{
    std::mutex doneMu;
    const ScanDone finish = [&](size_t i, const Result<InferStats>& r) {
        std::lock_guard<std::mutex> l(doneMu);
        if (done)
            done(i, r);
    };
    // In list order: runs of small scans spread over the devices, each large scan split.
    std::vector<size_t> group;
    for (size_t i = 0; i < jobs.size() && !cancel.isCancelled(); ++i) {
        int w = 0, h = 0;
        if (engine.deviceCount() > 1 &&
            !(tiffSize(jobs[i].input, w, h) && engine.splitPays(w, h))) {
            group.push_back(i);
            continue;
        }
        runSpread(engine, jobs, group, finish, cancel);
        group.clear();
        if (!cancel.isCancelled())
            finish(i, engine.run(jobs[i].input, jobs[i].output, cancel, progress));
    }
    runSpread(engine, jobs, group, finish, cancel);
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, "cancelled");
    return Status::ok();
}

} // namespace fisura
