// TiledTiffWriter's public calls: creating the levels' files, taking rows, parts or tiles in
// order, finishing (overviews copied behind level 0, renamed into place) or aborting. The band
// pipeline behind them is in tiled_writer_bands.h.
#include "fisura/tiledwriter.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>

#include <unistd.h>

#include "io/tiled_writer_bands.h"
#include "util/atomic_file.h"
#include "util/io_error.h"

namespace fs = std::filesystem;

namespace fisura
{

using io::Clock;
using io::LevelOut;
using io::seconds;

TiledTiffWriter::TiledTiffWriter(std::unique_ptr<Impl> impl) : d_(std::move(impl)) {}

TiledTiffWriter::~TiledTiffWriter()
{
    if (d_ && !d_->finished)
        abort();
}

Result<std::unique_ptr<TiledTiffWriter>> TiledTiffWriter::create(const std::string& path, int width,
                                                                 int height, int channels,
                                                                 const TiledWriteOptions& options)
{
    if (width <= 0 || height <= 0 || width > (1 << 22) || height > (1 << 22))
        return Status(ErrorCode::InvalidArgument, path + ": invalid size " + std::to_string(width) +
                                                      " x " + std::to_string(height));
    if (channels != 1 && channels != 3 && channels != 4)
        return Status(ErrorCode::InvalidArgument, path + ": 1, 3 or 4 channels");
    if (options.tileSize < 16 || options.tileSize > 2048 || options.tileSize % 16 != 0)
        return Status(ErrorCode::InvalidArgument, "tile size must be a multiple of 16 (16-2048)");
    const int maxLevel = options.compression == TileCompression::Zstd ? 22 : 9;
    if (options.compressionLevel < 0 || options.compressionLevel > maxLevel)
        return Status(ErrorCode::InvalidArgument,
                      "compression level must be 1-" + std::to_string(maxLevel));
    if (options.maxOverviewSide < 16)
        return Status(ErrorCode::InvalidArgument, "overviews must stop at 16 px or more");
    const uint16_t scheme =
        options.compression == TileCompression::Zstd ? COMPRESSION_ZSTD : COMPRESSION_ADOBE_DEFLATE;
    if (!TIFFIsCODECConfigured(scheme))
        return Status(ErrorCode::Unsupported, "this libtiff cannot write the chosen compression");

    auto d = std::make_unique<Impl>();
    d->path = path;
    removeStaleTemporaries(path); // left by a writer that was killed
    d->tmpPath = path + ".part" + std::to_string(::getpid());
    d->width = width;
    d->height = height;
    d->channels = channels;
    d->o = options;
#if defined(FISURA_HAVE_ZLIB) || defined(FISURA_HAVE_LIBDEFLATE)
    const bool deflate = true;
#else
    const bool deflate = false;
#endif
#ifdef FISURA_HAVE_ZSTD
    const bool zstd = true;
#else
    const bool zstd = false;
#endif
    d->direct = options.compression == TileCompression::Zstd ? zstd : deflate;
    d->bandLevel = d->level();
    d->adaptive = io::AdaptiveLevel(d->level(), kAdaptiveFloorLevel);
    d->stats.lowestLevel = d->stats.highestLevel = d->level();
    d->pool = std::make_unique<io::TaskPool>(options.threads, io::TaskPool::Priority::Background);
    int w = width, h = height;
    for (int k = 0;; ++k) {
        LevelOut L;
        L.width = w;
        L.height = h;
        L.across = (w + options.tileSize - 1) / options.tileSize;
        L.down = (h + options.tileSize - 1) / options.tileSize;
        L.path = k == 0 ? d->tmpPath : d->tmpPath + ".L" + std::to_string(k);
        d->levels.push_back(std::move(L));
        if (!options.pyramid || std::max(w, h) < options.maxOverviewSide)
            break;
        w = (w + 1) / 2;
        h = (h + 1) / 2;
    }
    try {
        for (size_t k = 0; k < d->levels.size(); ++k) {
            LevelOut& L = d->levels[k];
            L.bandBytes = size_t(options.tileSize) * L.width * channels;
            L.placed = k > 0 && d->direct;
            if (L.placed) { // into the output (LevelOut::placed): no file of its own
                L.path.clear();
                continue;
            }
            L.file = std::make_unique<io::TiffHandle>();
            Status s;
            if (k == 0) {
                auto out = io::OutputFile::create(L.path);
                s = out ? L.file->open(std::move(*out), "w8") : out.status();
            } else {
                s = L.file->open(L.path, "w8");
            }
            if (!s) {
                d->removeFiles();
                return s;
            }
            d->setupDirectory(L.file->get(), int(k));
        }
        d->spares.resize(d->levels.size());
        d->halvers.resize(d->levels.size());
        // Level-0 bands in flight: one filling, one queued, and one compressing per 8 threads
        // (a band has only so many tiles: more threads need more bands to stay busy), within
        // 128 MB and never fewer than three.
        const size_t bandBytes = std::max<size_t>(d->levels[0].bandBytes, 1);
        const size_t byThreads = 2 + size_t(std::max(1, d->pool->threads() / 8));
        d->maxBandBuffers =
            int(std::max<size_t>(3, std::min(byThreads, (size_t(128) << 20) / bandBytes)));
        if (d->direct) {
            d->files = std::make_unique<io::SerialWorker>(3);
            // Three full bands may wait for the band thread (each holds one of the buffers
            // above). With one, on one 4-GPU host an inference's rows waited 0.08-0.24 s of a
            // 1.0-1.2 s run for the band thread; with three, 0-0.01 s (on another host, where
            // the band thread itself was too slow, it made no difference: RESULTS.md).
            d->bands = std::make_unique<io::SerialWorker>(3);
        }
    } catch (const std::bad_alloc&) {
        d->removeFiles();
        return Status(ErrorCode::OutOfMemory, path + ": band buffers");
    }
    return std::unique_ptr<TiledTiffWriter>(new TiledTiffWriter(std::move(d)));
}

int TiledTiffWriter::rowsWritten() const
{
    return d_->levels[0].rowsDone;
}

int TiledTiffWriter::levelCount() const
{
    return int(d_->levels.size());
}

TiledWriteStats TiledTiffWriter::stats() const
{
    return d_->stats;
}

Status TiledTiffWriter::appendRows(const Image& rows)
{
    if (rows.width != d_->width || rows.channels != d_->channels ||
        rows.pixels.size() != rows.stride() * size_t(std::max(rows.height, 0)))
        return Status(ErrorCode::InvalidArgument, d_->path + ": rows of the wrong shape");
    return appendRows(rows.pixels.data(), rows.height);
}

Status TiledTiffWriter::appendRows(const uint8_t* rows, int count)
{
    const TiledRowPart whole{0, d_->width, rows, size_t(d_->width) * size_t(d_->channels)};
    return appendRowParts(count, &whole, 1);
}

Status TiledTiffWriter::appendRowParts(int count, const TiledRowPart* parts, int n)
{
    if (d_->failed)
        return d_->failure;
    if (d_->finished)
        return Status(ErrorCode::InvalidArgument, d_->path + ": already finished");
    const Status wrongShape(ErrorCode::InvalidArgument, d_->path + ": rows of the wrong shape");
    if (count < 0 || n < 1 || !parts)
        return wrongShape;
    int x = 0;
    for (int i = 0; i < n; ++i) {
        const TiledRowPart& p = parts[i];
        if (p.x0 != x || p.width <= 0 || (count > 0 && !p.data) ||
            p.stride < size_t(p.width) * size_t(d_->channels))
            return wrongShape;
        x += p.width;
    }
    if (x != d_->width)
        return wrongShape;
    if (count > d_->height - rowsWritten())
        return Status(ErrorCode::InvalidArgument, d_->path + ": more rows than the image has");
    if (count == 0)
        return Status::ok();
    try {
        if (Status s = d_->pushParts(parts, n, count); !s)
            return d_->fail(s);
    } catch (const std::bad_alloc&) {
        return d_->fail(Status(ErrorCode::OutOfMemory, d_->path));
    }
    return Status::ok();
}

Status TiledTiffWriter::appendTile(const Image& tile)
{
    const int ts = d_->o.tileSize;
    const int y0 = rowsWritten();
    const int x0 = d_->tileColumn * ts;
    const int h = std::min(ts, d_->height - y0);
    const int w = std::min(ts, d_->width - x0);
    if (h <= 0)
        return Status(ErrorCode::InvalidArgument, d_->path + ": more tiles than the image has");
    if (tile.channels != d_->channels || tile.width < w || tile.height < h ||
        tile.pixels.size() != tile.stride() * size_t(tile.height))
        return Status(ErrorCode::InvalidArgument, d_->path + ": tile of the wrong shape");
    if (d_->tileColumn == 0)
        d_->tileBand = Image::make(d_->width, h, d_->channels);
    for (int y = 0; y < h; ++y)
        std::memcpy(d_->tileBand.row(y) + size_t(x0) * d_->channels, tile.row(y),
                    size_t(w) * d_->channels);
    if (++d_->tileColumn * ts < d_->width)
        return Status::ok();
    d_->tileColumn = 0;
    Image band = std::move(d_->tileBand);
    d_->tileBand = Image();
    return appendRows(band);
}

Status TiledTiffWriter::finish(const CancelToken& cancel, ProgressSink* progress)
{
    Impl& d = *d_;
    if (d.failed)
        return d.failure;
    if (d.finished)
        return Status(ErrorCode::InvalidArgument, d.path + ": already finished");
    if (rowsWritten() != d.height)
        return Status(ErrorCode::InvalidArgument,
                      d.path + ": only " + std::to_string(rowsWritten()) + " of " +
                          std::to_string(d.height) + " rows were written");
    const auto f0 = Clock::now();
    Status result = [&]() -> Status {
        if (d.bands) {
            if (Status s = d.bands->drain(); !s)
                return s;
            if (Status s = d.queueDeferred(true); !s) // the band thread is idle now
                return s;
        }
        if (d.files) {
            if (Status s = d.files->drain(); !s)
                return s;
            d.stats.writeSeconds = d.files->busySeconds() - d.stats.tileWaitSeconds;
            d.stats.bytesOut = d.bytesOut;
        }
        TIFF* out = d.levels[0].file->get();
        if (!TIFFWriteDirectory(out))
            return d.levels[0].file->error(ErrorCode::IoError, "cannot write level 0");
        double total = 0, done = 0;
        for (size_t k = 1; k < d.levels.size(); ++k)
            total += double(d.levels[k].across) * d.levels[k].down;
        ProgressTracker tracker(progress, std::max(total, 1.0));
        std::vector<uint8_t> buf;
        for (size_t k = 1; k < d.levels.size(); ++k) {
            LevelOut& L = d.levels[k];
            if (L.placed) {
                if (cancel.isCancelled())
                    return Status(ErrorCode::Cancelled, d.path);
                if (Status s = d.writePlaced(int(k)); !s)
                    return s;
                done += double(L.offsets.size());
                tracker.update(done, "overview " + std::to_string(k));
                continue;
            }
            if (Status s = L.file->close(); !s)
                return s;
            io::TiffHandle src;
            if (Status s = src.open(L.path, "rm"); !s)
                return s;
            d.setupDirectory(out, int(k));
            const uint32_t n = uint32_t(L.across) * uint32_t(L.down);
            for (uint32_t t = 0; t < n; ++t) {
                if (t % uint32_t(L.across) == 0 && cancel.isCancelled())
                    return Status(ErrorCode::Cancelled, d.path);
                const uint64_t size = TIFFGetStrileByteCount(src.get(), t);
                if (size == 0 || size > (1ull << 30))
                    return src.error(ErrorCode::Internal, "bad overview tile " + std::to_string(t));
                buf.resize(size);
                if (TIFFReadRawTile(src.get(), t, buf.data(), tmsize_t(size)) != tmsize_t(size))
                    return src.error(ErrorCode::IoError, "cannot read overview tile");
                if (TIFFWriteRawTile(out, t, buf.data(), tmsize_t(size)) < 0)
                    return d.levels[0].file->error(ErrorCode::IoError,
                                                   "cannot write level " + std::to_string(k));
                tracker.update(++done, "overview " + std::to_string(k));
            }
            if (!TIFFWriteDirectory(out))
                return d.levels[0].file->error(ErrorCode::IoError,
                                               "cannot write level " + std::to_string(k));
        }
        if (Status s = d.levels[0].file->close(); !s)
            return s;
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, d.path);
        std::error_code ec;
        fs::rename(d.tmpPath, d.path, ec);
        if (ec)
            return writeFailure(d.path, ec.value(), d.path + ": " + ec.message());
        tracker.finish("pyramid written");
        return Status::ok();
    }();
    if (!result) {
        abort();
        d.failed = true;
        d.failure = result;
        return result;
    }
    d.finished = true;
    d.stats.finishSeconds = seconds(f0, Clock::now());
    d.levels[0].path.clear(); // renamed: not ours to delete any more
    d.removeFiles();
    return Status::ok();
}

void TiledTiffWriter::abort()
{
    d_->removeFiles();
    d_->failed = true;
    if (d_->failure.isOk())
        d_->failure = Status(ErrorCode::Cancelled, d_->path + ": aborted");
}

} // namespace fisura
