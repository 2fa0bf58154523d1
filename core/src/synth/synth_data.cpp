// The training-data writer: realistic scenes as a segmentation dataset, made on every core.
// Each pair depends only on its index and the seed, so the files are the same whatever the
// thread count or the order the threads finish in.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <nlohmann/json.hpp>

#include "fisura/synth.h"
#include "fisura/version.h"
#include "io/task_pool.h"

namespace fs = std::filesystem;

namespace fisura::synth
{

namespace
{

constexpr const char* kGenerator = "fisura-synth";

/// The folder is new, empty, or an earlier dataset of this writer (rewritten in place).
Status prepareFolder(const fs::path& root)
{
    std::error_code ec;
    if (fs::exists(root, ec)) {
        if (!fs::is_directory(root, ec))
            return Status(ErrorCode::InvalidArgument,
                          root.string() + " exists and is not a folder");
        const bool empty = fs::directory_iterator(root, ec) == fs::directory_iterator();
        bool ours = false;
        if (!empty) {
            std::ifstream in(root / "manifest.json");
            const auto j = nlohmann::json::parse(in, nullptr, false);
            ours = !j.is_discarded() && j.is_object() && j.value("generator", "") == kGenerator;
        }
        if (!empty && !ours)
            return Status(ErrorCode::InvalidArgument,
                          root.string() + " is not empty and holds no Fisura training data");
        // Written again: nothing of the earlier set may stay (a smaller count, another seed).
        fs::remove(root / "manifest.json", ec);
        for (const char* sub : {"images", "masks"})
            for (const auto& e : fs::directory_iterator(root / sub, ec))
                if (e.path().filename().string().rfind("synth_", 0) == 0)
                    fs::remove(e.path(), ec);
    }
    for (const char* sub : {"images", "masks"}) {
        fs::create_directories(root / sub, ec);
        if (ec)
            return Status(ErrorCode::IoError, (root / sub).string() + ": " + ec.message());
    }
    return Status::ok();
}

Status writeManifest(const fs::path& root, const TrainingDataOptions& o,
                     const TrainingDataSummary& s)
{
    const nlohmann::json j{{"generator", kGenerator},
                           {"style", "realistic"},
                           {"fisura_version", version()},
                           {"seed", o.seed},
                           {"count", o.count},
                           {"size", o.size},
                           {"crack_free", s.crackFree},
                           {"crack_fraction", s.crackFraction}};
    const fs::path path = root / "manifest.json", tmp = root / "manifest.json.part";
    {
        std::ofstream out(tmp);
        out << j.dump(2) << '\n';
        if (!out.flush())
            return Status(ErrorCode::IoError, tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    return ec ? Status(ErrorCode::IoError, path.string() + ": " + ec.message()) : Status::ok();
}

} // namespace

Result<TrainingDataSummary> writeTrainingDataset(const std::string& dir,
                                                 const TrainingDataOptions& o,
                                                 const CancelToken& cancel, ProgressSink* progress)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (o.count < 1 || o.count > 10000000 || o.size < 32 || o.size > 4096 || o.threads < 0)
        return Status(ErrorCode::InvalidArgument,
                      "training data: count must be 1..10000000, size 32..4096 px");
    const fs::path root(dir);
    if (Status s = prepareFolder(root); !s)
        return s;

    std::mutex mu; // guards the first error and the tracker
    Status failure;
    ProgressTracker tracker(progress, o.count);
    std::atomic<int> done{0}, crackFree{0};
    std::atomic<uint64_t> crackPixels{0};
    io::TaskPool pool(std::max(0, io::TaskPool::resolveThreads(o.threads) - 1));
    pool.parallelFor(o.count, [&](int i) {
        if (cancel.isCancelled())
            return;
        {
            std::lock_guard<std::mutex> lock(mu);
            if (!failure.isOk())
                return;
        }
        const SceneOptions so =
            randomTrainingScene(o.seed * 1000003ull + uint64_t(i), o.size, o.size);
        auto scene = generateScene(so);
        char stem[32];
        std::snprintf(stem, sizeof stem, "synth_%06d.tif", i);
        Status st = scene.status();
        if (st)
            st = writeTiff((root / "images" / stem).string(), scene->image);
        if (st)
            st = writeTiff((root / "masks" / stem).string(), scene->mask);
        std::lock_guard<std::mutex> lock(mu);
        if (!st) {
            if (failure.isOk())
                failure = st;
            return;
        }
        uint64_t n = 0;
        for (uint8_t v : scene->mask.pixels)
            n += v != 0;
        crackPixels += n;
        crackFree += n == 0;
        tracker.update(++done, stem);
    });
    if (!failure.isOk())
        return failure;
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, dir);

    TrainingDataSummary s;
    s.root = fs::absolute(root).string();
    s.pairs = done;
    s.crackFree = crackFree;
    s.crackFraction = double(crackPixels) / (double(o.count) * o.size * o.size);
    if (Status st = writeManifest(root, o, s); !st)
        return st;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tracker.finish("done");
    return s;
}

} // namespace fisura::synth
