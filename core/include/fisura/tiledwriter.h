// Streaming writer of tiled pyramidal BigTIFFs, and the `pyramid` job built on it.
//
// Rows (or tiles) go in top to bottom; each full band of tiles is compressed (in parallel) and
// written at once, then halved into the next level, so memory stays a few bands per level
// whatever the image height. Overview tiles go into the output as they are made, between level
// 0's, and finish() writes the directories (without Fisura's own codecs, overviews wait in
// temporary files beside the output and are copied behind level 0); the output appears under its
// name only when complete.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/job.h"
#include "fisura/status.h"
#include "fisura/tiledimage.h"

namespace fisura
{

enum class TileCompression { Zstd, Deflate };

struct TiledWriteOptions {
    int tileSize = 256; ///< 256 or 512 (any multiple of 16 from 16 to 2048 is accepted)
    TileCompression compression = TileCompression::Zstd;
    /// 0: Fisura's default, ZSTD 3 (zstd's own default) or Deflate 6. ZSTD 9 (libtiff's
    /// default) makes files 5-6 % smaller but writes 2-7x slower: on a trained model's crack
    /// map, zstd 3 compresses 240 MB/s per core against 35 (tests/bench/RESULTS.md, "Map writer").
    int compressionLevel = 0;
    /// ZSTD: when the appending thread waits for compression (the writer is what limits the
    /// job), the level steps down one band at a time, as far as kAdaptiveFloorLevel (zstd's fast
    /// levels), and climbs back to compressionLevel once the writer keeps up again (as zstd's own
    /// --adapt does). A lower level is kept only where it was measured to compress at least 10 %
    /// faster per core than the levels above it (on a map that hardly compresses the fast levels
    /// are no faster, only larger), and whose sample tiles, compressed at both levels, came out
    /// at most 25 % larger than at compressionLevel (io::AdaptiveLevel::kMaxSizeIncrease). The
    /// pixels are the same; the file is larger where the level was lower (TiledWriteStats says
    /// how many bands and by how much).
    bool adaptiveLevel = false;
    bool pyramid = true; ///< halve until the longest side is below maxOverviewSide
    int maxOverviewSide = 1024;
    double pixelSizeXmm = 0.0; ///< > 0 writes resolution tags (pixels per centimetre)
    double pixelSizeYmm = 0.0;
    std::vector<TiffTag> extraTags; ///< opaque tags for level 0 (GeoTIFF from the source)
    int threads = 0;                ///< compression threads; 0 = one per core
};

/// Where a writer's time went (wall seconds; complete after finish()). Three stages run at once:
/// the appending thread copies rows into a band; a band thread compresses full bands (on the
/// writer's threads) and halves them into the overviews; a file thread writes the compressed
/// tiles in order.
struct TiledWriteStats {
    double copySeconds = 0.0;         ///< appending thread: rows into the band buffers
    double compressWaitSeconds = 0.0; ///< appending thread: waiting for the band thread
    double compressSeconds = 0.0;     ///< pool: predicting, halving into the next level and
                                      ///< compressing tiles, summed over threads
    double compressCpuSeconds = 0.0;  ///< the same work's CPU time (compressSeconds also counts
                                      ///< a task waiting for a core)
    double halveSeconds = 0.0;     ///< halving by the encoding thread (builds without the codecs;
                                   ///< else the tiles' tasks halve, within compressSeconds)
    double halveWaitSeconds = 0.0; ///< band thread: waiting for a full overview band's halving
    double writeWaitSeconds = 0.0; ///< band thread: waiting for the file thread
    double tileWaitSeconds = 0.0;  ///< file thread: waiting for a band's tiles to be compressed
    double writeSeconds = 0.0;     ///< file thread: handing compressed tiles to the files
    double finishSeconds = 0.0;    ///< finish(): the last bands, the directories
    uint64_t bytesIn = 0;          ///< uncompressed tile bytes of every level
    uint64_t bytesOut = 0;         ///< compressed
    /// The levels the bands were compressed at (both compressionLevel's without adaptiveLevel)
    /// and how many level-0 bands were compressed below it.
    int lowestLevel = 0, highestLevel = 0;
    int bandsBelowLevel = 0;
    int bands = 0; ///< level-0 bands in all
    /// adaptiveLevel: level-0 bytes (uncompressed, compressed) of the bands compressed below the
    /// level asked for and of those at it, for adaptiveSizeIncrease().
    uint64_t lowerBytesIn = 0, lowerBytesOut = 0;
    uint64_t askedBytesIn = 0, askedBytesOut = 0;
    /// adaptiveLevel: one sample tile of each lowered band, compressed at the band's level and
    /// again at the level asked for (the same pixels at both levels).
    uint64_t sampleBytesOut = 0, sampleBytesAsked = 0;
};

/// What the adaptive level cost in map size: how much larger level 0 is than it would be at the
/// level asked for (0.12 = 12 %). An estimate: the lowered bands at the level asked for, from
/// their sample tiles compressed at both levels (without samples, at the ratio of the bands
/// that were at that level; other content, so it can be far off: a map of real photographs
/// said 0 where level 0 was 30 % larger). 0 when no band was lowered or the lowered bands came
/// out no larger.
inline double adaptiveSizeIncrease(const TiledWriteStats& s)
{
    if (s.lowerBytesIn == 0)
        return 0.0;
    const bool sampled = s.sampleBytesOut > 0 && s.sampleBytesAsked > 0;
    if (!sampled && s.askedBytesIn == 0)
        return 0.0;
    const double atAsked =
        sampled ? double(s.lowerBytesOut) * double(s.sampleBytesAsked) / double(s.sampleBytesOut)
                : double(s.lowerBytesIn) * double(s.askedBytesOut) / double(s.askedBytesIn);
    const double extra = std::max(0.0, double(s.lowerBytesOut) - atAsked);
    const double asked = double(s.lowerBytesOut + s.askedBytesOut) - extra;
    return asked > 0 ? extra / asked : 0.0;
}

/// Writer options with adaptiveLevel on (an inference's map), the rest at their defaults.
inline TiledWriteOptions adaptiveOutput()
{
    TiledWriteOptions o;
    o.adaptiveLevel = true;
    return o;
}

/// The lowest ZSTD level TiledWriteOptions::adaptiveLevel steps down to (a fast level). On
/// trained-model maps of four real crack sets, -2 wrote 18-23 % more bytes than level 3 and
/// compressed 1.2-1.5x faster per core; -5 was only 1.05-1.15x faster again but 40-50 % larger
/// (tests/bench/RESULTS.md, "The adaptive level's floor"). On a 4.5:1 map no fast level was
/// faster at all: the writer measures that and stays above them ("A hard-to-compress map").
inline constexpr int kAdaptiveFloorLevel = -2;

/// Columns [x0, x0 + width) of a block of rows, `stride` bytes from one row to the next (see
/// TiledTiffWriter::appendRowParts).
struct TiledRowPart {
    int x0 = 0;
    int width = 0;
    const uint8_t* data = nullptr;
    size_t stride = 0;
};

/// Creates `path` atomically. Not thread-safe: one producer appends rows or tiles in order.
/// Destroying an unfinished writer removes everything it wrote.
class TiledTiffWriter
{
public:
    static Result<std::unique_ptr<TiledTiffWriter>> create(const std::string& path, int width,
                                                           int height, int channels,
                                                           const TiledWriteOptions& options = {});
    ~TiledTiffWriter();
    TiledTiffWriter(const TiledTiffWriter&) = delete;
    TiledTiffWriter& operator=(const TiledTiffWriter&) = delete;

    /// Appends full-width rows (any count) below those already written.
    Status appendRows(const Image& rows);
    /// The same from `count` packed rows of width x channels bytes at `rows` (no copy first).
    Status appendRows(const uint8_t* rows, int count);
    /// The same from `n` parts side by side that cover every column once, left to right (a scan
    /// split over several devices, one part per device): copied straight into the writer's
    /// band, with no full-width rows joined first.
    Status appendRowParts(int count, const TiledRowPart* parts, int n);
    /// Appends one tile in raster order (left to right, then down); edge tiles may be clipped
    /// to the image or full tileSize (the excess is ignored).
    Status appendTile(const Image& tile);
    /// Rows complete so far.
    int rowsWritten() const;
    /// Number of levels the file will have.
    int levelCount() const;
    TiledWriteStats stats() const;
    /// Flushes, writes overviews, renames into place. Needs every row appended.
    Status finish(const CancelToken& cancel = {}, ProgressSink* progress = nullptr);
    /// Discards everything written (also done by the destructor when finish() did not succeed).
    void abort();

    struct Impl;

private:
    explicit TiledTiffWriter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d_;
};

struct PyramidJobResult {
    int width = 0;
    int height = 0;
    int channels = 0;
    int levels = 0;
    uint64_t bytesWritten = 0;
    double seconds = 0.0;
};

/// Tiled pyramidal copy of any TIFF Fisura reads (8-bit output; 16-bit through the stretch),
/// streaming with bounded memory. Resolution and GeoTIFF tags are copied from the source.
/// On failure or cancellation nothing is left at `outPath` (an existing file stays untouched).
/// `inputLimits`: what the input may claim (see ImageLimits).
Result<PyramidJobResult> makePyramid(const std::string& inPath, const std::string& outPath,
                                     const TiledWriteOptions& options, const CancelToken& cancel,
                                     ProgressSink* progress, const ImageLimits& inputLimits = {});

} // namespace fisura
