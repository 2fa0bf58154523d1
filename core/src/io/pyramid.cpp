// The `pyramid` job: any TIFF Fisura reads -> tiled pyramidal BigTIFF, one band at a time.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <vector>

#include "fisura/tiledwriter.h"
#include "io/task_pool.h"

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

    // One source block row at a time: its blocks are decoded in parallel and handed to the
    // writer as side-by-side parts, which it copies into its band and compresses on its own
    // threads while the next block row is decoded. No band of rows is assembled in between,
    // so the decoded input held is one block row (plus the writer's bands).
    io::TaskPool pool(std::max(1, threads - 1)); // and this thread
    const int C = info.channels;
    const int nx = L0.blocksAcross;
    auto blocks = std::vector<std::shared_ptr<const Image>>(size_t(nx));
    auto parts = std::vector<TiledRowPart>(size_t(nx));
    const auto readBlockRow = [&](int by) -> Status {
        std::mutex errMutex;
        Status err;
        pool.parallelFor(nx, [&](int bx) {
            auto blk = (*in)->readBlock(0, bx, by);
            std::lock_guard<std::mutex> lock(errMutex);
            if (blk)
                blocks[size_t(bx)] = std::move(*blk);
            else if (err.isOk())
                err = blk.status();
        });
        return err;
    };
    ProgressTracker tracker(progress, double(info.height) * 1.05); // overviews: the last 5 %
    for (int by = 0, y = 0; y < info.height; ++by) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, outPath);
        for (auto& b : blocks)
            b.reset(); // the last row's blocks go before this row's are decoded
        if (Status s = readBlockRow(by); !s)
            return s;
        const int h = std::min(L0.blockHeight, info.height - y);
        for (int bx = 0; bx < nx; ++bx) {
            const Image& b = *blocks[size_t(bx)];
            if (b.height < h)
                return Status(ErrorCode::Internal, inPath + ": block " + std::to_string(bx) + ", " +
                                                       std::to_string(by) + " is short");
            parts[size_t(bx)] = {bx * L0.blockWidth, b.width, b.pixels.data(), b.stride()};
        }
        if (Status s = (*writer)->appendRowParts(h, parts.data(), nx); !s)
            return s;
        y += h;
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
