// TiledTiffWriter's state and its band pipeline (tiled_writer.cpp has the public calls,
// tiled_writer_files.cpp the directories and the writing of the tiles): rows fill a level-0 band; a
// full band goes to the band thread, which hands its tiles to the task pool: each tile's task
// predicts the tile, halving its columns into the next level's band in the same pass, and
// compresses it (ZSTD / Deflate exactly as libtiff would); the file thread writes each band's
// compressed tiles in order once they are ready. A full overview band waits two level-0 bands (its
// halving tasks are done by then) before the band thread queues its own tiles. Overview levels'
// compressed tiles go into the output file as they are made (interleaved with level 0's); finish()
// writes the directories. Without the codecs, overview levels are encoded by libtiff into temporary
// tiled files that finish() copies behind level 0.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "fisura/tiledwriter.h"
#include "io/adaptive_level.h"
#include "io/pending_tiles.h"
#include "io/serial_worker.h"
#include "io/task_pool.h"
#include "io/tiff_handle.h"
#include "io/tile_codec.h"
#include "util/cpu_time.h"

namespace fisura
{

namespace io
{

struct LevelOut {
    int width = 0, height = 0;
    int across = 0, down = 0;
    std::string path; // temporary file (level 0: the output's temporary name)
    std::unique_ptr<io::TiffHandle> file;
    size_t bandBytes = 0;      // tileSize rows of this level
    std::vector<uint8_t> band; // bandBytes, allocated when the level's first rows come
    int bandRows = 0;
    int bandIndex = 0;
    int rowsDone = 0;
    // Overview levels of the codecs' path: compressed tiles go straight into the output, behind
    // what is there (OutputFile::append), and finish() only tells libtiff where they are; no
    // temporary file. Tile t is `sizes[t]` bytes at `offsets[t]`.
    bool placed = false;
    std::vector<uint64_t> offsets;
    std::vector<uint64_t> sizes;
};

using Clock = std::chrono::steady_clock;
inline double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace io

struct TiledTiffWriter::Impl {
    using LevelOut = io::LevelOut;
    using Clock = io::Clock;
    static double seconds(Clock::time_point a, Clock::time_point b) { return io::seconds(a, b); }

    struct BandBuffer;
    using PendingTiles = io::PendingTiles<BandBuffer>;
    // An overview band that is full, waiting for the tasks that halve into it (queueDeferred).
    struct Deferred {
        std::shared_ptr<BandBuffer> band;
        int rows = 0, index = 0;
        int stamp = 0; // the level-0 band after which it was filled
        std::vector<std::shared_ptr<PendingTiles>> halvers;
    };

    std::string path, tmpPath;
    int width = 0, height = 0, channels = 0;
    TiledWriteOptions o;
    std::vector<LevelOut> levels;
    std::mutex spareMu;
    std::condition_variable spareCv;
    std::vector<std::vector<std::vector<uint8_t>>> spares; // per level: band buffers to fill
    int bandBuffers = 1;                                   // level-0 band buffers in existence
    int maxBandBuffers = 3; // one filling, one queued, the rest compressing (set by create())
    // Band thread: overview bands waiting for their halving, and per level the tasks halving
    // into the band being filled; the level-0 band being queued. After the spares (they give
    // their buffers back), before the pool (its last tasks may still halve into them).
    std::deque<Deferred> deferred;
    std::vector<std::vector<std::shared_ptr<PendingTiles>>> halvers;
    int tick = 0;
    uint32_t sampleTick = 0; // band thread: lowered level-0 bands so far (their sample column)
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
    // The level the next level-0 band is compressed at (adaptiveLevel lowers it while the
    // appending thread waits for compression, and while the lower level compresses faster);
    // its bands keep the level they were given.
    std::atomic<int> bandLevel{0};
    std::mutex adaptMu; // the appending thread decides, the file thread measures
    io::AdaptiveLevel adaptive{3, kAdaptiveFloorLevel};
    // Appending thread: the last level-0 band waited for room in the band thread's queue (a
    // wait for compression as much as one for a free buffer: the band thread waits for the
    // file thread, which waits for the tiles).
    bool bandQueueWaited = false;
    int tileColumn = 0;               // appendTile position
    Image tileBand;                   // appendTile assembly of one band
    std::vector<uint8_t> halfScratch; // halveInto's rows where they do not fit a band

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

    // Level k's TIFF directory fields (tiled_writer_files.cpp).
    void setupDirectory(TIFF* tif, int k) const;

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
        if (k > 0) { // already on the band thread: queued once its halving tasks are done
            deferred.push_back({full, rows, index, tick, std::move(halvers[size_t(k)])});
            halvers[size_t(k)].clear();
            return Status::ok();
        }
        return bands->push([this, full, rows, index] { return processShared(full, rows, index); },
                           stats.compressWaitSeconds, &bandQueueWaited);
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

    // Band thread: the band's tiles go to the pool (the file thread waits for them); each tile's
    // task also halves the tile's columns into the next level's band. Then, after a level-0
    // band, the overview bands that were filled two level-0 bands ago are queued the same way.
    Status processShared(const std::shared_ptr<BandBuffer>& band, int rows, int index)
    {
        const int k = band->level;
        if (k == 0)
            tick = index;
        LevelOut& L = levels[size_t(k)];
        LevelOut* N = k + 1 < int(levels.size()) ? &levels[size_t(k) + 1] : nullptr;
        const int hr = (rows + 1) / 2;
        HalfTarget half;
        if (N) {
            // Into the first or the second half of the next level's band: the tile size is even,
            // and only a level's last band has fewer rows.
            if (N->bandRows + hr > o.tileSize)
                return Status(ErrorCode::Internal, path + ": overview rows out of step");
            allocateBand(*N);
            half.stride = size_t(N->width) * channels;
            half.out = N->band.data() + size_t(N->bandRows) * half.stride;
        }
        auto pending = compressTiles(L, band, rows, half);
        if (Status s = queueStore(L, pending, index); !s)
            return s;
        if (N) {
            halvers[size_t(k) + 1].push_back(pending);
            N->bandRows += hr;
            N->rowsDone += hr;
            if (N->bandRows == o.tileSize || N->rowsDone == N->height)
                if (Status s = flushBand(k + 1); !s)
                    return s;
        }
        return k == 0 ? queueDeferred(false) : Status::ok();
    }

    // Band thread (finish(): all of them, once the band thread is idle): the overview bands
    // filled two or more level-0 bands ago, oldest first. Their halving tasks were queued ahead
    // of a whole band's tiles and halve before they compress, so they are almost always done;
    // waiting for them is the safety net. The order depends only on the band count, so the file's
    // layout does not depend on timing (a fixed compression level gives the same file every run).
    Status queueDeferred(bool all)
    {
        while (!deferred.empty() && (all || deferred.front().stamp + 2 <= tick)) {
            Deferred d = std::move(deferred.front());
            deferred.pop_front();
            const auto w0 = Clock::now();
            for (const auto& p : d.halvers)
                p->waitHalved();
            stats.halveWaitSeconds += seconds(w0, Clock::now());
            d.halvers.clear();
            if (Status s = processShared(d.band, d.rows, d.index); !s)
                return s;
        }
        return Status::ok();
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
            return std::vector<uint8_t>(levels[size_t(k)].bandBytes);
        }
        if (k == 0) { // the appending thread's wait; smaller levels never wait
            const auto t0 = Clock::now();
            const bool waits = free.empty();
            spareCv.wait(l, [&] { return !free.empty(); });
            stats.compressWaitSeconds += seconds(t0, Clock::now());
            adapt(waits || std::exchange(bandQueueWaited, false));
        }
        std::vector<uint8_t> b = std::move(free.back());
        free.pop_back();
        return b;
    }

    // Appending thread, as it takes a level-0 buffer: a wait for the band thread means the
    // compression is what limits the job, so the next band is compressed at a lower level, if
    // one pays (io::AdaptiveLevel); bands in a row without a wait climb back toward the level
    // asked for.
    bool adapting() const
    {
        return o.adaptiveLevel && direct && o.compression == TileCompression::Zstd;
    }
    void adapt(bool waited)
    {
        if (!adapting())
            return;
        std::lock_guard<std::mutex> lock(adaptMu);
        bandLevel.store(adaptive.next(waited));
    }

    void returnSpare(int k, std::vector<uint8_t> b)
    {
        {
            std::lock_guard<std::mutex> l(spareMu);
            spares[size_t(k)].push_back(std::move(b));
        }
        spareCv.notify_all();
    }

    // Where a band's tasks halve its rows: the next level's band from its first free row.
    struct HalfTarget {
        uint8_t* out = nullptr; // none: no next level
        size_t stride = 0;
    };

    // The band's tiles to the pool: each task predicts its tile and, in the same pass over the
    // tile's columns, halves them into `half` (if any); then it compresses the tile.
    std::shared_ptr<PendingTiles> compressTiles(const LevelOut& L,
                                                const std::shared_ptr<BandBuffer>& band, int rows,
                                                HalfTarget half)
    {
        const int ts = o.tileSize;
        const size_t tileBytes = size_t(ts) * ts * channels;
        const size_t rowBytes = size_t(L.width) * channels;
        auto pending = std::make_shared<PendingTiles>();
        pending->tiles.resize(size_t(L.across));
        pending->ok.assign(size_t(L.across), 0);
        pending->band = band;
        pending->remaining = L.across;
        pending->unhalved = half.out ? L.across : 0;
        const int width = L.width;
        const int codecLevel = direct ? bandLevel.load() : level();
        pending->codecLevel = codecLevel;
        noteLevel(&L == &levels[0], codecLevel);
        // A lowered level-0 band compresses one tile (a different column each band) at the level
        // asked for too, for io::AdaptiveLevel's size budget and the stats' size estimate.
        const int sampleTx = &L == &levels[0] && adapting() && codecLevel < level()
                                 ? int((uint64_t(sampleTick++) * 7919u) % uint32_t(L.across))
                                 : -1;
        pool->submitRange(L.across, [this, pending, ts, tileBytes, rowBytes, rows, width,
                                     codecLevel, half, sampleTx](int tx) {
            const auto c0 = Clock::now();
            const int64_t cpu0 = util::threadCpuNanos();
            const int x0 = tx * ts;
            bool halved = !half.out;
            double sampleSeconds = 0;
            int64_t sampleCpu = 0;
            try {
                thread_local std::vector<uint8_t> tile;
                tile.resize(tileBytes);
                io::extractPredicted(pending->band->data.data(), rowBytes, rows, x0,
                                     std::min(ts, width - x0), ts, channels, tile.data(),
                                     half.out ? half.out + size_t(x0 / 2) * channels : nullptr,
                                     half.stride);
                halved = true;
                if (half.out)
                    pending->halvedOne();
                pending->ok[size_t(tx)] = io::compressTile(o.compression, codecLevel, tile.data(),
                                                           tileBytes, pending->tiles[size_t(tx)]);
                if (tx == sampleTx && pending->ok[size_t(tx)]) { // not in the level's rate
                    const auto s0 = Clock::now();
                    const int64_t sc0 = util::threadCpuNanos();
                    sampleAtAsked(*pending, tx, tile.data(), tileBytes);
                    sampleSeconds = seconds(s0, Clock::now());
                    sampleCpu = util::threadCpuNanos() - sc0;
                }
            } catch (const std::bad_alloc&) {
                pending->ok[size_t(tx)] = 0; // the file thread fails the write
                if (!halved)                 // nobody waits forever for these rows
                    pending->halvedOne();
            }
            pending->finishOne(seconds(c0, Clock::now()) - sampleSeconds,
                               double(util::threadCpuNanos() - cpu0 - sampleCpu) / 1e9);
        });
        return pending;
    }

    // Tile `tx` of a lowered band (`tile`: predicted) compressed again at the level asked for;
    // only its size is kept (before finishOne: the file thread reads it after the band's last
    // tile).
    void sampleAtAsked(PendingTiles& pending, int tx, const uint8_t* tile, size_t tileBytes)
    {
        try {
            thread_local std::vector<uint8_t> asked;
            if (io::compressTile(o.compression, level(), tile, tileBytes, asked)) {
                pending.sampleBytes = pending.tiles[size_t(tx)].size();
                pending.sampleAskedBytes = asked.size();
            }
        } catch (const std::bad_alloc&) {
            // no sample for this band: the budget and the estimate use the others
        }
    }

    // The file thread stores the band's tiles once they are compressed.
    Status queueStore(LevelOut& L, const std::shared_ptr<PendingTiles>& pending, int index)
    {
        const size_t tileBytes = size_t(o.tileSize) * o.tileSize * channels;
        LevelOut* level = &L;
        const uint32_t first = uint32_t(index) * uint32_t(L.across);
        const uint64_t in = uint64_t(L.across) * tileBytes;
        const bool measure = &L == &levels[0] && adapting();
        return files->push(
            [this, level, first, index, pending, in, measure] {
                const auto w0 = Clock::now();
                pending->wait();
                stats.tileWaitSeconds += seconds(w0, Clock::now());
                stats.compressSeconds += pending->seconds;
                stats.compressCpuSeconds += pending->cpuSeconds;
                stats.bytesIn += in;
                if (measure) { // what this level costs per byte, for the next decisions
                    {
                        std::lock_guard<std::mutex> lock(adaptMu);
                        adaptive.measured(pending->codecLevel, double(in), pending->seconds);
                    }
                    uint64_t out = 0;
                    for (const auto& t : pending->tiles)
                        out += t.size();
                    const bool lower = pending->codecLevel < this->level();
                    (lower ? stats.lowerBytesIn : stats.askedBytesIn) += in;
                    (lower ? stats.lowerBytesOut : stats.askedBytesOut) += out;
                    if (pending->sampleAskedBytes > 0) {
                        stats.sampleBytesOut += pending->sampleBytes;
                        stats.sampleBytesAsked += pending->sampleAskedBytes;
                        std::lock_guard<std::mutex> lock(adaptMu);
                        adaptive.sized(pending->codecLevel, double(pending->sampleBytes),
                                       double(pending->sampleAskedBytes));
                    }
                }
                for (char ok : pending->ok)
                    if (!ok)
                        return Status(ErrorCode::Internal, path + ": tile compression failed");
                return storeTiles(*level, first, index, pending->tiles);
            },
            stats.writeWaitSeconds);
    }

    // Band thread: the level a band was compressed at, in the stats.
    void noteLevel(bool levelZero, int codecLevel)
    {
        stats.lowestLevel = std::min(stats.lowestLevel, codecLevel);
        stats.highestLevel = std::max(stats.highestLevel, codecLevel);
        if (levelZero) {
            ++stats.bands;
            stats.bandsBelowLevel += codecLevel < level() ? 1 : 0;
        }
    }

    // The files (tiled_writer_files.cpp). File thread: one band's compressed tiles, in order:
    // level 0's through libtiff, an overview level's appended to the output as they are.
    Status storeTiles(LevelOut& L, uint32_t first, int index,
                      std::vector<std::vector<uint8_t>>& tiles);
    Status writeTiles(io::TiffHandle& file, uint32_t first, int index,
                      const std::vector<std::vector<uint8_t>>& tiles);
    // finish(): level k's directory in the output, its tiles where storeTiles put them (libtiff
    // is told each tile's place and size; no byte of them is written again).
    Status writePlaced(int k);
    // Without the codecs: libtiff encodes each band's tiles.
    Status encodeWithLibtiff(LevelOut& L, const std::vector<uint8_t>& data, int rows, int index);

    // 2x2 box filter of the `rows` rows of L's band into level k; the last odd row/column pairs
    // with itself. The rows go straight into level k's band where they fit (with an even tile
    // size they always do), else through a scratch buffer kept from band to band: a new buffer
    // per band (10 MB for a 40000 px wide map, allocated and zeroed) was most of the halving.
    Status halveInto(const LevelOut& L, const std::vector<uint8_t>& data, int rows, int k)
    {
        LevelOut& N = levels[k];
        const size_t rowBytes = size_t(L.width) * channels;
        const size_t halfBytes = size_t(N.width) * channels;
        const int hr = (rows + 1) / 2;
        const auto h0 = Clock::now();
        const bool inPlace = N.bandRows + hr <= o.tileSize;
        uint8_t* out = nullptr;
        if (inPlace) {
            allocateBand(N);
            out = N.band.data() + size_t(N.bandRows) * halfBytes;
        } else {
            halfScratch.resize(halfBytes * size_t(hr));
            out = halfScratch.data();
        }
        pool->parallelFor(hr, [&](int y) {
            const uint8_t* r0 = data.data() + size_t(2 * y) * rowBytes;
            const uint8_t* r1 = 2 * y + 1 < rows ? r0 + rowBytes : r0;
            io::halveRow(r0, r1, out + size_t(y) * halfBytes, N.width, L.width, channels);
        });
        stats.halveSeconds += seconds(h0, Clock::now());
        if (!inPlace)
            return pushRows(k, out, hr);
        N.bandRows += hr;
        N.rowsDone += hr;
        if (N.bandRows == o.tileSize || N.rowsDone == N.height)
            return flushBand(k);
        return Status::ok();
    }

    // A level's first band is allocated when its first rows come, not by create(): zeroing tens
    // of megabytes there would delay whatever starts the writer (a tiled inference's readers).
    static void allocateBand(LevelOut& L)
    {
        if (L.band.size() != L.bandBytes)
            L.band.resize(L.bandBytes);
    }

    // Level 0 is filled by the appending thread (copySeconds); smaller levels by the band thread
    // that halves into them (counted with the halving, so each figure has one writer).
    void copyRows(int k, uint8_t* dst, const uint8_t* src, int rows, size_t rowBytes)
    {
        const auto t0 = Clock::now();
        std::memcpy(dst, src, size_t(rows) * rowBytes);
        (k == 0 ? stats.copySeconds : stats.halveSeconds) += seconds(t0, Clock::now());
    }

    Status pushRows(int k, const uint8_t* src, int n)
    {
        LevelOut& L = levels[k];
        const size_t rowBytes = size_t(L.width) * channels;
        while (n > 0) {
            const int take = std::min(n, o.tileSize - L.bandRows);
            allocateBand(L);
            copyRows(k, L.band.data() + size_t(L.bandRows) * rowBytes, src, take, rowBytes);
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
            allocateBand(L);
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
                std::filesystem::remove(L.path, ec);
        }
    }
};

} // namespace fisura
