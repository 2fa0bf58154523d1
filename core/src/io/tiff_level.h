// One TIFF directory as TiledImage reads it: its layout (size, tiles or strips, samples, colour),
// checked before any pixel buffer is allocated, and how pyramid levels are recognised.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tiffio.h>

#include "fisura/status.h"
#include "fisura/tiledimage.h"
#include "io/tiff_handle.h"

namespace fisura::io
{

// Sides above this are refused outright (Image uses int; 4 Mpx a side is 40x the largest scan).
constexpr uint32_t kMaxSide = 1u << 22;
// A compressed file cannot expand by more than this (deflate tops out near 1:1000, ZSTD on
// constant tiles near 1:20000); a 10^12-pixel claim in a 1 KB file is refused at open.
constexpr double kMaxExpansion = 200000.0;
constexpr int kMaxDirectories = 64;

/// What the decoded 8-bit image is made from. Cmyk becomes RGB (as libtiff's RGBA interface
/// converts it); SGILog (LogL / LogLuv) is decoded by libtiff to 8-bit gray / RGB.
enum class Colour { Gray, GrayAlpha, Rgb, Rgba, Palette, Cmyk };

struct LevelDesc {
    bool subIfd = false;
    tdir_t dir = 0;
    toff_t subOffset = 0;
    uint32_t width = 0, height = 0;
    bool tiled = false;
    uint32_t tileW = 0, tileH = 0;
    uint32_t rowsPerStrip = 0;
    bool scanline = false; // strips too large to decode whole: read rows
    uint32_t blockW = 0, blockH = 0, across = 0, down = 0;
    uint16_t compression = COMPRESSION_NONE, photometric = PHOTOMETRIC_MINISBLACK;
    uint16_t planar = PLANARCONFIG_CONTIG, spp = 1, bps = 8, subfileType = 0;
    uint16_t sampleFormat = SAMPLEFORMAT_UINT; // UINT, INT or IEEEFP
    uint16_t predictor = PREDICTOR_NONE;       // Deflate levels only (else not read)
    uint16_t fillOrder = FILLORDER_MSB2LSB;
    bool jpegRgb = false;
    bool logLuv = false; // SGILog: libtiff decodes to 8-bit (SGILOGDATAFMT_8BIT) on every handle
    Colour colour = Colour::Gray;
    int alphaSample = -1;
    bool alphaAssociated = false;
    bool minIsWhite = false;
    std::vector<uint8_t> palette; // 2^bps x RGB

    /// Bytes of one sample in raw blocks: 1, 2, 4 or 8 (1, 2 and 4 bits are unpacked to a byte).
    int sampleBytes() const { return bps < 8 ? 1 : bps / 8; }
    /// Tiles the reader inflates itself (io/tile_decode.h): Deflate, 8-bit samples, interleaved,
    /// no predictor or the horizontal one, bits in the usual order.
    bool directDeflate() const
    {
        return tiled &&
               (compression == COMPRESSION_ADOBE_DEFLATE || compression == COMPRESSION_DEFLATE) &&
               bps == 8 && planar == PLANARCONFIG_CONTIG && spp >= 1 &&
               (predictor == PREDICTOR_NONE || predictor == PREDICTOR_HORIZONTAL) &&
               fillOrder == FILLORDER_MSB2LSB && !jpegRgb && !logLuv;
    }
    /// Samples narrower than a byte, packed in the file (rows start on a byte boundary).
    bool packed() const { return bps < 8; }
    /// Mapped to 8 bits through the percentile stretch: deeper than 8 bits, signed or float
    /// (palette indices and CMYK inks are not stretched).
    bool stretched() const
    {
        return colour != Colour::Palette && colour != Colour::Cmyk &&
               (bps > 8 || sampleFormat != SAMPLEFORMAT_UINT);
    }
    /// The 16-bit unsigned case of stretched(), which maps through a 65536-entry table.
    bool stretched16() const
    {
        return stretched() && bps == 16 && sampleFormat == SAMPLEFORMAT_UINT;
    }
    /// Bytes of `w` pixels of one plane as the file stores them.
    uint64_t fileRowBytes(uint32_t w) const
    {
        const uint64_t perPixel = planar == PLANARCONFIG_SEPARATE ? 1 : spp;
        return (uint64_t(w) * perPixel * bps + 7) / 8;
    }
};

/// Turns on libtiff's 8-bit decoding of SGILog data for the current directory (every handle,
/// after every directory change).
void useLogLuv8(TIFF* tif);

std::string compressionLabel(uint16_t c);
/// Channels of the decoded 8-bit image for a colour kind.
int channelsOf(Colour c);
const char* colourName(Colour c);
/// Reads the current directory's layout and refuses what Fisura does not decode.
Status parseLevel(TiffHandle& h, LevelDesc& L, uint64_t fileBytes, uint64_t maxBlockBytes);
/// The full-resolution level `L` (the current directory) against `limits`: TooLarge
/// ("too_many_pixels: ...") above the pixel or pixels-per-byte limit; Corrupt when its blocks
/// together claim more bytes than the file has (blocks sharing data, as a bomb's do).
Status checkClaim(TiffHandle& h, const LevelDesc& L, uint64_t fileBytes, const ImageLimits& limits);
/// Levels of one pyramid decode alike (same colour, depth and palette).
bool sameKind(const LevelDesc& a, const LevelDesc& b);
/// A smaller image with level 0's aspect ratio (labels and macro photos of slides are not).
bool isReduction(const LevelDesc& base, const LevelDesc& prev, const LevelDesc& c);

} // namespace fisura::io
