// Large TIFF scans without holding the whole image: levels, blocks, region reads, metadata.
//
// A TiledImage decodes one block (tile, or strip / band of rows) at a time into 8-bit gray, RGB
// or RGBA. 1-, 2- and 4-bit gray (bilevel, CCITT fax included) expand to 0..255; MinIsWhite is
// inverted; palettes (1 to 16-bit indices) become RGB; CMYK becomes RGB as libtiff's RGBA
// interface converts it; SGILog LogL / LogLuv are decoded by libtiff to 8-bit gray / RGB.
// 16- and 32-bit, signed and floating-point samples go through one percentile stretch computed
// when the file is opened, so every level and every region of a file maps a sample value to the
// same 8-bit value; readRawValue() gives the stored values for a pixel readout.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/status.h"
#include "fisura/tilecache.h"

namespace fisura
{

/// One TIFF tag copied verbatim (GeoTIFF, GDAL metadata): Fisura does not interpret these, it
/// only carries them from a source scan to the maps it writes so they line up in GIS tools.
struct TiffTag {
    uint16_t tag = 0;
    uint16_t type = 0;          ///< TIFF field type: 2 ASCII, 3 SHORT, 12 DOUBLE
    uint32_t count = 0;         ///< number of values (characters incl. NUL for ASCII)
    std::vector<uint8_t> bytes; ///< the values in host byte order
};

struct TiledLevel {
    int width = 0;
    int height = 0;
    int blockWidth = 0;  ///< tile width, or the image width for strips
    int blockHeight = 0; ///< tile height, or rows decoded at once for strips
    int blocksAcross = 0;
    int blocksDown = 0;
    double downsample = 1.0; ///< level-0 width / this width
};

struct TiledImageInfo {
    std::string path;
    int width = 0; ///< level 0
    int height = 0;
    int channels = 0;                  ///< of the decoded 8-bit image: 1, 3 or 4
    int bitsPerSample = 8;             ///< in the file: 1, 2, 4, 8, 16, 32 or 64
    std::string sampleFormat = "uint"; ///< "uint", "int" or "float"
    int samplesPerPixel = 0;
    bool tiled = false;
    bool bigTiff = false;
    bool planarSeparate = false;
    std::string compression; ///< "none", "lzw", "deflate", "zstd", "jpeg", ...
    /// "gray", "rgb", "rgba", "gray+alpha", "palette", "ycbcr", "cmyk", "logl", "logluv"
    std::string colour;
    /// With alpha: true when the file stores colour premultiplied by alpha (associated alpha).
    /// Pixels are returned as stored either way.
    bool alphaPremultiplied = false;
    std::string pyramidKind;        ///< "none", "pages" (reduced-resolution IFDs) or "subifds"
    std::vector<TiledLevel> levels; ///< [0] is full resolution, then smaller and smaller
    double pixelSizeXmm = 0.0;      ///< from the resolution tags; 0 when unknown
    double pixelSizeYmm = 0.0;
    std::vector<TiffTag> geoTags; ///< GeoTIFF/GDAL tags of level 0, opaque
    /// Stretched images only (deeper than 8 bits, signed or float; not palette or CMYK): the
    /// sample values mapped to 0 and 255, the 0.5 and 99.5 percentiles of the finite colour
    /// samples (of the smallest level, or of up to 64 blocks of level 0 when it is large).
    double stretchLow = 0.0;
    double stretchHigh = 255.0;
    /// Images in the file: page 0 (the one Fisura reads, with its pyramid) plus every other
    /// top-level directory that is neither one of its levels nor marked as a reduced image or
    /// a mask; more than 1 for a multi-page TIFF (counted up to 64).
    int pages = 1;
    /// Images stretched by value (signed, 32/64-bit, float): the values the stretch sampled,
    /// and how many of them were NaN or infinite (float only). Those read as 0 (NaN, -inf)
    /// and 255 (+inf). A sample: up to 64 blocks of level 0, or the whole smallest level.
    uint64_t nonFiniteSamples = 0;
    uint64_t sampledValues = 0;
};

/// What a TIFF may claim, checked when it is opened, before any pixel is decoded: a small file
/// that claims a huge image (a "decompression bomb": an 8 MB file claiming 10^6 x 10^6 px, every
/// strip pointing at one tiny block) is refused with TooLarge, whose detail starts with
/// "too_many_pixels:" and names the option that lifts the limit.
struct ImageLimits {
    /// The largest pixel limit that can be set (the option schema's bound, exact as a double);
    /// a larger image opens only with no limit (0).
    static constexpr uint64_t kMostPixels = uint64_t(1) << 52;
    /// Most pixels of the full-resolution level (width x height); 0 = no limit. 10^10 px is a
    /// 100,000 px square: larger than any scan Fisura was made for. (Option schema:
    /// input_limits.max_pixels, CLI --max-pixels)
    uint64_t maxPixels = 10'000'000'000ull;
    /// Most full-resolution pixels per byte of a compressed file; 0 = no limit. Real scans stay
    /// far below it (the TIFF corpus Fisura is tested with: at most about 320, a CCITT fax page
    /// about 210), and so do Fisura's own maps, an all-zero one included (about 1,500 with
    /// 256 px tiles, 5,000 with 512 px tiles; tst_tiffbomb). (Option schema:
    /// input_limits.max_pixels_per_byte, CLI --max-pixels-per-byte)
    double maxPixelsPerByte = 50000;
};

struct TiledOpenOptions {
    /// Shared cache of decoded blocks (may be null: every read decodes).
    std::shared_ptr<TileCache> cache;
    /// Most libtiff handles kept open for concurrent reads (each thread borrows one).
    int maxHandles = 8;
    /// Largest decoded block accepted; bigger strips are read a band of rows at a time.
    uint64_t maxBlockBytes = 64ull * 1024 * 1024;
    /// Claimed size limits (see ImageLimits).
    ImageLimits limits;
};

/// Thread-safe: any number of threads may read regions of one TiledImage at once.
class TiledImage
{
public:
    /// Opens a TIFF, checks every level it will use and refuses what it cannot decode with
    /// Unsupported (12-bit, complex, 16-bit float, old-style JPEG, ...) or Corrupt (zero size,
    /// sizes the file cannot hold, broken directories) before any pixel buffer is allocated.
    static Result<std::shared_ptr<TiledImage>> open(const std::string& path,
                                                    const TiledOpenOptions& options = {});
    ~TiledImage();
    TiledImage(const TiledImage&) = delete;
    TiledImage& operator=(const TiledImage&) = delete;

    const TiledImageInfo& info() const;
    /// Unique per open image in this process: the `file` of its TileIds.
    uint64_t id() const;
    int levelCount() const;

    /// One decoded block (through the cache when there is one). Edge blocks are clipped to the
    /// image, so their size may be smaller than blockWidth x blockHeight.
    Result<std::shared_ptr<const Image>> readBlock(int level, int column, int row) const;
    /// Any rectangle of any level, inside the level's bounds.
    Result<Image> readRegion(int level, int x, int y, int width, int height) const;
    /// The same rectangle written into caller memory: `height` rows of width * channels bytes,
    /// `dstStride` bytes apart (no intermediate image; a tiled inference reads into its batch).
    Status readRegionInto(int level, int x, int y, int width, int height, uint8_t* dst,
                          size_t dstStride) const;
    /// The stored sample values of pixel (x, y) of `level`, for a pixel readout: every sample
    /// in file order (alpha and extra samples included) as the file holds it before any
    /// stretch: signed and float values as such, 1/2/4-bit codes and palette indices as
    /// integers, MinIsWhite not inverted; SGILog as the 8-bit values libtiff decodes. Decodes
    /// the block that holds the pixel (not cached); InvalidArgument outside the level.
    Result<std::vector<double>> readRawValue(int level, int x, int y) const;
    /// The whole level (refused when it exceeds maxPixels).
    Result<Image> readLevel(int level, uint64_t maxPixels = 64ull * 1024 * 1024) const;
    /// For a viewer at zoom 1/downsample: the coarsest level whose own downsample does not
    /// exceed `downsample` (so it is still at least as sharp as the screen).
    int bestLevelForDownsample(double downsample) const;

    struct Impl;

private:
    explicit TiledImage(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d_;
};

} // namespace fisura
