// TiledTiffWriter: bands of tiles compressed in parallel (ZSTD / Deflate with the horizontal
// predictor, exactly as libtiff would) and written raw; overviews halved band by band into
// temporary tiled files, copied compressed behind level 0 on finish.
#include "fisura/tiledwriter.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>

#include <unistd.h>

#include "fisura/version.h"
#include "io/serial_worker.h"
#include "io/task_pool.h"
#include "io/tiff_handle.h"
#include "io/tiff_tags.h"
#include "io/tile_codec.h"
#include "util/atomic_file.h"
#include "util/io_error.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

struct LevelOut {
    int width = 0, height = 0;
    int across = 0, down = 0;
    std::string path; // temporary file (level 0: the output's temporary name)
    std::unique_ptr<io::TiffHandle> file;
    std::vector<uint8_t> band; // tileSize rows of this level
    int bandRows = 0;
    int bandIndex = 0;
    int rowsDone = 0;
};

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

struct TiledTiffWriter::Impl {
    std::string path, tmpPath;
    int width = 0, height = 0, channels = 0;
    TiledWriteOptions o;
    std::vector<LevelOut> levels;
    std::mutex spareMu;
    std::condition_variable spareCv;
    std::vector<std::vector<std::vector<uint8_t>>> spares; // per level: band buffers to fill
    int bandBuffers = 1;                                   // level-0 band buffers in existence
    int maxBandBuffers = 3; // one filling, one queued, the rest compressing (set by create())
    // After the spares (its last tasks give band buffers back), before the workers.
    std::unique_ptr<io::TaskPool> pool;
    std::atomic<uint64_t> bytesOut{0};
    // Declared after levels, pool and spares, so they stop before those go; bands after files,
    // since band jobs queue file jobs.
    std::unique_ptr<io::SerialWorker> files; // compressed tiles into the level files, in order
    std::unique_ptr<io::SerialWorker> bands; // full level-0 bands: compress, halve, levels 1..
    bool direct = false; // compress ourselves (parallel) rather than through libtiff
    bool failed = false, finished = false;
    Status failure;
    TiledWriteStats stats;
    int tileColumn = 0; // appendTile position
    Image tileBand;     // appendTile assembly of one band

    int level() const
    {
        if (o.compressionLevel > 0)
            return o.compressionLevel;
        return o.compression == TileCompression::Zstd ? 3 : 6;
    }

    Status fail(Status s)
    {
        failed = true;
        failure = s;
        return s;
    }

    void setupDirectory(TIFF* tif, int k) const
    {
        const LevelOut& L = levels[k];
        TIFFSetField(tif, TIFFTAG_SUBFILETYPE, k == 0 ? 0 : FILETYPE_REDUCEDIMAGE);
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(L.width));
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(L.height));
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(channels));
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                     channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
        if (channels == 4) {
            const uint16_t extraType = EXTRASAMPLE_UNASSALPHA;
            TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, uint16_t(1), &extraType);
        }
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, uint32_t(o.tileSize));
        TIFFSetField(tif, TIFFTAG_TILELENGTH, uint32_t(o.tileSize));
        if (o.compression == TileCompression::Zstd) {
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ZSTD);
            TIFFSetField(tif, TIFFTAG_ZSTD_LEVEL, level());
        } else {
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
            TIFFSetField(tif, TIFFTAG_ZIPQUALITY, level());
        }
        TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
        const std::string software = "Fisura " + version();
        TIFFSetField(tif, TIFFTAG_SOFTWARE, software.c_str());
        const double scale = double(width) / L.width;
        if (o.pixelSizeXmm > 0 && o.pixelSizeYmm > 0) {
            TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_CENTIMETER);
            TIFFSetField(tif, TIFFTAG_XRESOLUTION, float(10.0 / (o.pixelSizeXmm * scale)));
            TIFFSetField(tif, TIFFTAG_YRESOLUTION, float(10.0 / (o.pixelSizeYmm * scale)));
        }
        if (k == 0)
            io::writeOpaqueTags(tif, o.extraTags);
    }

    // The band of level k is full (or the last): compressed and queued for the file thread (or,
    // without the codecs, encoded by libtiff here), then halved into level k+1. A full level-0
    // band goes to the band thread in its own buffer while the caller fills another.
    Status flushBand(int k)
    {
        LevelOut& L = levels[k];
        const int rows = L.bandRows, index = L.bandIndex;
        L.bandRows = 0;
        ++L.bandIndex;
        if (!direct)
            return processBand(k, L.band, rows, index);
        // The full buffer goes with the band's jobs and comes back as a spare once its tiles are
        // compressed and it is halved (or the jobs were dropped after a failure).
        auto full = std::make_shared<BandBuffer>();
        full->owner = this;
        full->level = k;
        full->data = takeSpare(k);
        std::swap(full->data, L.band);
        if (k > 0) // already on the band thread
            return processShared(full, rows, index);
        return bands->push([this, full, rows, index] { return processShared(full, rows, index); },
                           stats.compressWaitSeconds);
    }

    struct BandBuffer {
        Impl* owner = nullptr;
        int level = 0;
        std::vector<uint8_t> data;
        ~BandBuffer()
        {
            if (owner && !data.empty())
                owner->returnSpare(level, std::move(data));
        }
    };

    // Band thread: the band's tiles go to the pool (the file thread waits for them), then the
    // band is halved into the next level while they are compressed.
    Status processShared(const std::shared_ptr<BandBuffer>& band, int rows, int index)
    {
        const int k = band->level;
        if (Status s = compressAndQueue(levels[size_t(k)], band, rows, index); !s)
            return s;
        if (k + 1 >= int(levels.size()))
            return Status::ok();
        return halveInto(levels[size_t(k)], band->data, rows, k + 1);
    }

    // Without the codecs: libtiff encodes each band here, then it is halved.
    Status processBand(int k, const std::vector<uint8_t>& band, int rows, int index)
    {
        LevelOut& L = levels[k];
        if (Status s = encodeWithLibtiff(L, band, rows, index); !s)
            return s;
        if (k + 1 >= int(levels.size()))
            return Status::ok();
        return halveInto(L, band, rows, k + 1);
    }

    // A buffer for the band of level k to fill next: level 0 waits while maxBandBuffers exist
    // (the appending thread's wait for the band thread); smaller levels allocate when none is
    // free (there are ever fewer of them in flight).
    std::vector<uint8_t> takeSpare(int k)
    {
        std::unique_lock<std::mutex> l(spareMu);
        auto& free = spares[size_t(k)];
        if (free.empty() && (k > 0 || bandBuffers < maxBandBuffers)) {
            if (k == 0)
                ++bandBuffers;
            l.unlock();
            return std::vector<uint8_t>(levels[size_t(k)].band.size());
        }
        const auto t0 = Clock::now();
        spareCv.wait(l, [&] { return !free.empty(); });
        stats.compressWaitSeconds += seconds(t0, Clock::now());
        std::vector<uint8_t> b = std::move(free.back());
        free.pop_back();
        return b;
    }

    void returnSpare(int k, std::vector<uint8_t> b)
    {
        {
            std::lock_guard<std::mutex> l(spareMu);
            spares[size_t(k)].push_back(std::move(b));
        }
        spareCv.notify_all();
    }

    // One band's tiles being compressed on the pool; the file thread waits for all of them.
    struct PendingTiles {
        std::vector<std::vector<uint8_t>> tiles;
        std::vector<char> ok;
        std::shared_ptr<BandBuffer> band; // released when the last tile is compressed
        std::mutex mu;
        std::condition_variable cv;
        int remaining = 0;
        double seconds = 0; // compressing, summed over the pool's threads

        void finishOne(double s)
        {
            std::shared_ptr<BandBuffer> release;
            {
                std::lock_guard<std::mutex> lock(mu);
                seconds += s;
                if (--remaining == 0)
                    release = std::move(band);
            }
            if (release) { // back to the spares outside the lock
                release.reset();
                cv.notify_all();
            }
        }
        void wait()
        {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait(lock, [&] { return remaining == 0; });
        }
    };

    Status compressAndQueue(LevelOut& L, const std::shared_ptr<BandBuffer>& band, int rows,
                            int index)
    {
        const int ts = o.tileSize;
        const size_t tileBytes = size_t(ts) * ts * channels;
        const size_t rowBytes = size_t(L.width) * channels;
        auto pending = std::make_shared<PendingTiles>();
        pending->tiles.resize(size_t(L.across));
        pending->ok.assign(size_t(L.across), 0);
        pending->band = band;
        pending->remaining = L.across;
        const int width = L.width;
        for (int tx = 0; tx < L.across; ++tx)
            pool->submit([this, pending, tx, ts, tileBytes, rowBytes, rows, width] {
                const auto c0 = Clock::now();
                try {
                    thread_local std::vector<uint8_t> tile;
                    tile.resize(tileBytes);
                    const int x0 = tx * ts;
                    io::extractPredicted(pending->band->data.data(), rowBytes, rows, x0,
                                         std::min(ts, width - x0), ts, channels, tile.data());
                    pending->ok[size_t(tx)] = io::compressTile(
                        o.compression, level(), tile.data(), tileBytes, pending->tiles[size_t(tx)]);
                } catch (const std::bad_alloc&) {
                    pending->ok[size_t(tx)] = 0;
                }
                pending->finishOne(seconds(c0, Clock::now()));
            });
        io::TiffHandle* file = L.file.get();
        const uint32_t first = uint32_t(index) * uint32_t(L.across);
        const uint64_t in = uint64_t(L.across) * tileBytes;
        return files->push(
            [this, file, first, index, pending, in] {
                const auto w0 = Clock::now();
                pending->wait();
                stats.tileWaitSeconds += seconds(w0, Clock::now());
                stats.compressSeconds += pending->seconds;
                stats.bytesIn += in;
                for (char ok : pending->ok)
                    if (!ok)
                        return Status(ErrorCode::Internal, path + ": tile compression failed");
                return writeTiles(*file, first, index, pending->tiles);
            },
            stats.writeWaitSeconds);
    }

    // File thread: one band's compressed tiles, in order.
    Status writeTiles(io::TiffHandle& file, uint32_t first, int index,
                      const std::vector<std::vector<uint8_t>>& tiles)
    {
        for (size_t tx = 0; tx < tiles.size(); ++tx) {
            const std::vector<uint8_t>& t = tiles[tx];
            if (TIFFWriteRawTile(file.get(), first + uint32_t(tx), const_cast<uint8_t*>(t.data()),
                                 tmsize_t(t.size())) < 0)
                return file.error(ErrorCode::IoError,
                                  "cannot write tile row " + std::to_string(index));
            bytesOut += t.size();
        }
        return Status::ok();
    }

    Status encodeWithLibtiff(LevelOut& L, const std::vector<uint8_t>& data, int rows, int index)
    {
        const int ts = o.tileSize;
        const size_t tileBytes = size_t(ts) * ts * channels;
        const size_t rowBytes = size_t(L.width) * channels;
        const uint32_t firstTile = uint32_t(index) * uint32_t(L.across);
        std::vector<uint8_t> tile;
        for (int tx = 0; tx < L.across; ++tx) {
            tile.assign(tileBytes, 0);
            const int x0 = tx * ts;
            const int w = std::min(ts, L.width - x0);
            for (int y = 0; y < rows; ++y)
                std::memcpy(tile.data() + size_t(y) * ts * channels,
                            data.data() + size_t(y) * rowBytes + size_t(x0) * channels,
                            size_t(w) * channels);
            if (TIFFWriteEncodedTile(L.file->get(), firstTile + uint32_t(tx), tile.data(),
                                     tmsize_t(tileBytes)) < 0)
                return L.file->error(ErrorCode::IoError,
                                     "cannot write tile row " + std::to_string(index));
        }
        return Status::ok();
    }

    // 2x2 box filter of the `rows` rows of L's band into level k; the last odd row/column pairs
    // with itself.
    Status halveInto(const LevelOut& L, const std::vector<uint8_t>& data, int rows, int k)
    {
        const LevelOut& N = levels[k];
        const size_t rowBytes = size_t(L.width) * channels;
        const int hr = (rows + 1) / 2;
        const auto h0 = Clock::now();
        std::vector<uint8_t> half(size_t(N.width) * channels * hr);
        pool->parallelFor(hr, [&](int y) {
            const uint8_t* r0 = data.data() + size_t(2 * y) * rowBytes;
            const uint8_t* r1 = 2 * y + 1 < rows ? r0 + rowBytes : r0;
            io::halveRow(r0, r1, half.data() + size_t(y) * N.width * channels, N.width, L.width,
                         channels);
        });
        stats.halveSeconds += seconds(h0, Clock::now());
        return pushRows(k, half.data(), hr);
    }

    void copyRows(uint8_t* dst, const uint8_t* src, int rows, size_t rowBytes)
    {
        const auto t0 = Clock::now();
        std::memcpy(dst, src, size_t(rows) * rowBytes);
        stats.copySeconds += seconds(t0, Clock::now());
    }

    Status pushRows(int k, const uint8_t* src, int n)
    {
        LevelOut& L = levels[k];
        const size_t rowBytes = size_t(L.width) * channels;
        while (n > 0) {
            const int take = std::min(n, o.tileSize - L.bandRows);
            copyRows(L.band.data() + size_t(L.bandRows) * rowBytes, src, take, rowBytes);
            L.bandRows += take;
            L.rowsDone += take;
            src += take * rowBytes;
            n -= take;
            if (L.bandRows == o.tileSize || L.rowsDone == L.height)
                if (Status s = flushBand(k); !s)
                    return s;
        }
        return Status::ok();
    }

    // Level 0 from side-by-side parts: each band-full of rows copied part by part.
    Status pushParts(const TiledRowPart* parts, int n, int count)
    {
        LevelOut& L = levels[0];
        const size_t rowBytes = size_t(L.width) * channels;
        if (n == 1 && parts[0].stride == rowBytes)
            return pushRows(0, parts[0].data, count);
        for (int done = 0; done < count;) {
            const int take = std::min(count - done, o.tileSize - L.bandRows);
            const auto t0 = Clock::now();
            for (int i = 0; i < n; ++i) {
                const TiledRowPart& p = parts[i];
                const size_t bytes = size_t(p.width) * channels;
                for (int r = 0; r < take; ++r)
                    std::memcpy(L.band.data() + size_t(L.bandRows + r) * rowBytes +
                                    size_t(p.x0) * channels,
                                p.data + size_t(done + r) * p.stride, bytes);
            }
            stats.copySeconds += seconds(t0, Clock::now());
            L.bandRows += take;
            L.rowsDone += take;
            done += take;
            if (L.bandRows == o.tileSize || L.rowsDone == L.height)
                if (Status s = flushBand(0); !s)
                    return s;
        }
        return Status::ok();
    }

    void removeFiles()
    {
        if (bands)
            bands->stop(); // band jobs queue file jobs
        if (files)
            files->stop(); // its thread may be writing to the handles closed below
        std::error_code ec;
        for (auto& L : levels) {
            L.file.reset();
            if (!L.path.empty())
                fs::remove(L.path, ec);
        }
    }
};

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
    d->pool = std::make_unique<io::TaskPool>(options.threads);
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
            L.band.resize(size_t(options.tileSize) * L.width * channels);
            L.file = std::make_unique<io::TiffHandle>();
            if (Status s = L.file->open(L.path, "w8"); !s) {
                d->removeFiles();
                return s;
            }
            d->setupDirectory(L.file->get(), int(k));
        }
        d->spares.resize(d->levels.size());
        // Level-0 bands in flight: one filling, one queued, and one compressing per 8 threads
        // (a band has only so many tiles: more threads need more bands to stay busy), within
        // 128 MB and never fewer than three.
        const size_t bandBytes = std::max<size_t>(d->levels[0].band.size(), 1);
        const size_t byThreads = 2 + size_t(std::max(1, d->pool->threads() / 8));
        d->maxBandBuffers =
            int(std::max<size_t>(3, std::min(byThreads, (size_t(128) << 20) / bandBytes)));
        if (d->direct) {
            d->files = std::make_unique<io::SerialWorker>(3);
            d->bands = std::make_unique<io::SerialWorker>(1);
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
        if (d.bands)
            if (Status s = d.bands->drain(); !s)
                return s;
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
