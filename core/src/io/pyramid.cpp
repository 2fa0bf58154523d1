// The `pyramid` job: any TIFF Fisura reads -> tiled pyramidal BigTIFF, one band at a time.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

#include "fisura/tiledwriter.h"
#include "io/task_pool.h"
#include "util/thread_start.h"

namespace fisura
{

Result<PyramidJobResult> makePyramid(const std::string& inPath, const std::string& outPath,
                                     const TiledWriteOptions& options, const CancelToken& cancel,
                                     ProgressSink* progress, const ImageLimits& inputLimits)
{
    const auto start = std::chrono::steady_clock::now();
    {
        std::error_code ec;
        if (std::filesystem::exists(outPath, ec) &&
            std::filesystem::equivalent(inPath, outPath, ec))
            return Status(ErrorCode::InvalidArgument,
                          outPath + ": output would overwrite the input");
    }
    const int threads = io::TaskPool::resolveThreads(options.threads);
    TiledOpenOptions ro;
    ro.maxHandles = threads;
    ro.limits = inputLimits;
    auto in = TiledImage::open(inPath, ro);
    if (!in)
        return in.status();
    const TiledImageInfo& info = (*in)->info();
    const TiledLevel& L0 = info.levels[0];

    TiledWriteOptions wo = options;
    wo.pixelSizeXmm = info.pixelSizeXmm;
    wo.pixelSizeYmm = info.pixelSizeYmm;
    wo.extraTags = info.geoTags;
    auto writer = TiledTiffWriter::create(outPath, info.width, info.height, info.channels, wo);
    if (!writer)
        return writer.status();

    // Bands are whole source blocks high (each block is decoded once) and at least a tile.
    int bandRows = L0.blockHeight;
    while (bandRows < options.tileSize)
        bandRows += L0.blockHeight;
    if (uint64_t(bandRows) * info.width * info.channels > 512ull * 1024 * 1024 / 4)
        bandRows = std::max(L0.blockHeight, options.tileSize);

    // Two stages that overlap: a reader thread decodes the next bands (blocks in parallel)
    // while this thread compresses the current one; at most kAhead band waits in between.
    constexpr size_t kAhead = 1;
    std::mutex m;
    std::condition_variable cv;
    std::deque<Image> ready;
    Status readErr;
    bool readerDone = false, stop = false;
    const int C = info.channels;
    auto readBands = [&] {
        io::TaskPool pool(std::max(1, threads - 1)); // and this thread
        for (int y = 0; y < info.height; y += bandRows) {
            {
                std::unique_lock<std::mutex> lock(m);
                cv.wait(lock, [&] { return stop || ready.size() < kAhead; });
                if (stop)
                    break;
            }
            const int h = std::min(bandRows, info.height - y);
            Image band = Image::make(info.width, h, C);
            const int by0 = y / L0.blockHeight, by1 = (y + h - 1) / L0.blockHeight;
            const int nx = L0.blocksAcross, ny = by1 - by0 + 1;
            std::mutex errMutex;
            Status err;
            pool.parallelFor(nx * ny, [&](int i) {
                const int bx = i % nx, by = by0 + i / nx;
                auto blk = (*in)->readBlock(0, bx, by);
                if (!blk) {
                    std::lock_guard<std::mutex> lock(errMutex);
                    if (err.isOk())
                        err = blk.status();
                    return;
                }
                const Image& b = **blk;
                const int ox = bx * L0.blockWidth, oy = by * L0.blockHeight;
                const int sy = std::max(y, oy), ey = std::min(y + h, oy + b.height);
                for (int yy = sy; yy < ey; ++yy)
                    std::copy_n(b.row(yy - oy), size_t(b.width) * C,
                                band.row(yy - y) + size_t(ox) * C);
            });
            std::lock_guard<std::mutex> lock(m);
            if (!err.isOk()) {
                readErr = err;
                break;
            }
            ready.push_back(std::move(band));
            cv.notify_all();
        }
        std::lock_guard<std::mutex> lock(m);
        readerDone = true;
        cv.notify_all();
    };
    std::thread reader;
    if (Status s = util::startThread(reader, "reading the input", readBands); !s)
        return s;
    struct Joiner {
        std::thread& t;
        std::mutex& m;
        std::condition_variable& cv;
        bool& stop;
        ~Joiner()
        {
            {
                std::lock_guard<std::mutex> lock(m);
                stop = true;
            }
            cv.notify_all();
            if (t.joinable())
                t.join();
        }
    } joiner{reader, m, cv, stop};

    ProgressTracker tracker(progress, double(info.height) * 1.05); // overviews: the last 5 %
    for (int y = 0; y < info.height;) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, outPath);
        Image band;
        {
            std::unique_lock<std::mutex> lock(m);
            cv.wait(lock, [&] { return !ready.empty() || readerDone; });
            if (ready.empty())
                return readErr.isOk() ? Status(ErrorCode::Internal, inPath + ": reader stopped")
                                      : readErr;
            band = std::move(ready.front());
            ready.pop_front();
            cv.notify_all();
        }
        if (Status s = (*writer)->appendRows(band); !s)
            return s;
        y += band.height;
        tracker.update(double(y), "row " + std::to_string(y) + "/" + std::to_string(info.height));
    }
    if (Status s = (*writer)->finish(cancel, nullptr); !s)
        return s;
    tracker.finish("done");
    PyramidJobResult r;
    r.width = info.width;
    r.height = info.height;
    r.channels = C;
    r.levels = (*writer)->levelCount();
    std::error_code ec;
    r.bytesWritten = std::filesystem::file_size(outPath, ec);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

} // namespace fisura
