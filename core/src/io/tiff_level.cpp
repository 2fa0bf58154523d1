// Directory parsing and pyramid-level recognition for TiledImage.
#include "io/tiff_level.h"

#include <algorithm>
#include <cmath>

namespace fisura::io
{

namespace
{

const char* compressionName(uint16_t c)
{
    switch (c) {
    case COMPRESSION_NONE:
        return "none";
    case COMPRESSION_LZW:
        return "lzw";
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE:
        return "deflate";
    case COMPRESSION_ZSTD:
        return "zstd";
    case COMPRESSION_JPEG:
        return "jpeg";
    case COMPRESSION_OJPEG:
        return "old-style jpeg";
    case COMPRESSION_PACKBITS:
        return "packbits";
    case COMPRESSION_WEBP:
        return "webp";
    case COMPRESSION_LZMA:
        return "lzma";
    case COMPRESSION_LERC:
        return "lerc";
    case COMPRESSION_JBIG:
        return "jbig";
    case COMPRESSION_CCITTRLE:
    case COMPRESSION_CCITTFAX3:
    case COMPRESSION_CCITTFAX4:
        return "ccitt fax";
    default:
        return nullptr;
    }
}

} // namespace

std::string compressionLabel(uint16_t c)
{
    const char* n = compressionName(c);
    return n ? n : "scheme " + std::to_string(c);
}

int channelsOf(Colour c)
{
    switch (c) {
    case Colour::Gray:
        return 1;
    case Colour::Rgb:
    case Colour::Palette:
    case Colour::Cmyk:
        return 3;
    default:
        return 4;
    }
}

const char* colourName(Colour c)
{
    switch (c) {
    case Colour::Gray:
        return "gray";
    case Colour::GrayAlpha:
        return "gray+alpha";
    case Colour::Rgb:
        return "rgb";
    case Colour::Rgba:
        return "rgba";
    case Colour::Cmyk:
        return "cmyk";
    default:
        return "palette";
    }
}

void useLogLuv8(TIFF* tif)
{
    TIFFSetField(tif, TIFFTAG_SGILOGDATAFMT, SGILOGDATAFMT_8BIT);
}

namespace
{

// Which sample formats and depths are decoded (libvips decodes the same set; 64-bit floats too).
Status checkDepth(TiffHandle& h, const LevelDesc& L)
{
    const std::string bits = std::to_string(L.bps) + "-bit ";
    switch (L.sampleFormat) {
    case SAMPLEFORMAT_UINT:
        if (L.bps == 1 || L.bps == 2 || L.bps == 4 || L.bps == 8 || L.bps == 16 || L.bps == 32)
            return Status::ok();
        return h.error(ErrorCode::Unsupported,
                       bits + "samples are not supported (1, 2, 4, 8, 16 or 32 only)");
    case SAMPLEFORMAT_INT:
        if (L.bps == 8 || L.bps == 16 || L.bps == 32)
            return Status::ok();
        return h.error(ErrorCode::Unsupported, bits + "signed integer samples are not supported");
    case SAMPLEFORMAT_IEEEFP:
        if (L.bps == 32 || L.bps == 64)
            return Status::ok();
        return h.error(ErrorCode::Unsupported, bits + "floating-point samples are not supported");
    case SAMPLEFORMAT_COMPLEXINT:
    case SAMPLEFORMAT_COMPLEXIEEEFP:
        return h.error(ErrorCode::Unsupported, "complex samples are not supported");
    default:
        return h.error(ErrorCode::Unsupported, "unknown sample format");
    }
}

// Sample format, depth, codec and photometric interpretation; sets the colour samples.
Status parseSamples(TiffHandle& h, LevelDesc& L, int& colourSamples)
{
    TIFF* tif = h.get();
    L.logLuv = (L.compression == COMPRESSION_SGILOG || L.compression == COMPRESSION_SGILOG24) &&
               (L.photometric == PHOTOMETRIC_LOGLUV || L.photometric == PHOTOMETRIC_LOGL);
    if (L.logLuv && TIFFIsCODECConfigured(L.compression)) {
        useLogLuv8(tif); // the codec then reports 8-bit unsigned samples
        TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &L.bps);
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &L.sampleFormat);
    if (L.sampleFormat == SAMPLEFORMAT_VOID)
        L.sampleFormat = SAMPLEFORMAT_UINT;
    if (Status s = checkDepth(h, L); !s)
        return s;
    if (L.compression == COMPRESSION_OJPEG)
        return h.error(ErrorCode::Unsupported, "old-style JPEG compression is not supported");
    if (!TIFFIsCODECConfigured(L.compression))
        return h.error(ErrorCode::Unsupported,
                       "compression " + compressionLabel(L.compression) + " is not available");
    if (L.compression == COMPRESSION_JPEG && L.bps != 8)
        return h.error(ErrorCode::Unsupported, "JPEG with more than 8 bits per sample");
    if (L.planar != PLANARCONFIG_CONTIG && L.planar != PLANARCONFIG_SEPARATE)
        return h.error(ErrorCode::Corrupt, "invalid planar configuration");

    colourSamples = 1;
    switch (L.photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_LOGL:
        break;
    case PHOTOMETRIC_MINISWHITE:
        L.minIsWhite = true;
        break;
    case PHOTOMETRIC_RGB:
    case PHOTOMETRIC_LOGLUV:
        colourSamples = 3;
        break;
    case PHOTOMETRIC_PALETTE:
        if (L.sampleFormat != SAMPLEFORMAT_UINT || L.bps > 16)
            return h.error(ErrorCode::Unsupported,
                           "palette images must have 1- to 16-bit unsigned indices");
        break;
    case PHOTOMETRIC_YCBCR:
        if (L.compression != COMPRESSION_JPEG)
            return h.error(ErrorCode::Unsupported, "YCbCr is supported only with JPEG");
        if (L.planar != PLANARCONFIG_CONTIG)
            return h.error(ErrorCode::Unsupported, "planar YCbCr is not supported");
        colourSamples = 3;
        L.jpegRgb = true; // libjpeg converts to RGB (and upsamples chroma) for us
        break;
    case PHOTOMETRIC_SEPARATED: {
        uint16_t inkSet = INKSET_CMYK;
        TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &inkSet);
        if (inkSet != INKSET_CMYK)
            return h.error(ErrorCode::Unsupported, "separated images other than CMYK");
        if (L.sampleFormat != SAMPLEFORMAT_UINT || (L.bps != 8 && L.bps != 16))
            return h.error(ErrorCode::Unsupported, "CMYK must have 8- or 16-bit unsigned inks");
        colourSamples = 4;
        break;
    }
    default:
        return h.error(ErrorCode::Unsupported, "photometric interpretation " +
                                                   std::to_string(L.photometric) +
                                                   " is not supported");
    }
    if ((L.photometric == PHOTOMETRIC_LOGL || L.photometric == PHOTOMETRIC_LOGLUV) && !L.logLuv)
        return h.error(ErrorCode::Unsupported, "LogL/LogLuv without SGILog compression");
    if (L.packed() && colourSamples != 1)
        return h.error(ErrorCode::Unsupported,
                       std::to_string(L.bps) + "-bit colour samples are not supported");
    if (L.spp < colourSamples || L.spp > 16)
        return h.error(ErrorCode::Corrupt, std::to_string(L.spp) + " samples per pixel");
    return Status::ok();
}

// Alpha, palette and the decoded colour kind.
Status parseColour(TiffHandle& h, LevelDesc& L, int colourSamples)
{
    TIFF* tif = h.get();
    uint16_t extra = 0;
    uint16_t* extraTypes = nullptr;
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra, &extraTypes);
    for (int i = 0; i < extra && extraTypes; ++i)
        if (extraTypes[i] == EXTRASAMPLE_ASSOCALPHA || extraTypes[i] == EXTRASAMPLE_UNASSALPHA) {
            if (colourSamples + i < L.spp) {
                L.alphaSample = colourSamples + i;
                L.alphaAssociated = extraTypes[i] == EXTRASAMPLE_ASSOCALPHA;
            }
            break;
        }
    // As libtiff's RGBA interface does: a 4th RGB sample without ExtraSamples is alpha.
    if (extra == 0 && L.spp == 4 && L.photometric == PHOTOMETRIC_RGB) {
        L.alphaSample = 3;
        L.alphaAssociated = true;
    }
    if (L.photometric == PHOTOMETRIC_SEPARATED) {
        L.colour = Colour::Cmyk; // RGB out; an extra alpha sample is not carried over
        L.alphaSample = -1;
    } else if (L.photometric == PHOTOMETRIC_PALETTE) {
        L.colour = Colour::Palette;
        uint16_t *r = nullptr, *g = nullptr, *b = nullptr;
        if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b)
            return h.error(ErrorCode::Corrupt, "palette image without a colour map");
        const size_t entries = size_t(1) << L.bps;
        bool wide = false;
        for (size_t i = 0; i < entries; ++i)
            wide = wide || r[i] > 255 || g[i] > 255 || b[i] > 255;
        L.palette.resize(entries * 3);
        for (size_t i = 0; i < entries; ++i) {
            L.palette[i * 3] = static_cast<uint8_t>(wide ? r[i] >> 8 : r[i]);
            L.palette[i * 3 + 1] = static_cast<uint8_t>(wide ? g[i] >> 8 : g[i]);
            L.palette[i * 3 + 2] = static_cast<uint8_t>(wide ? b[i] >> 8 : b[i]);
        }
    } else if (colourSamples == 3) {
        L.colour = L.alphaSample >= 0 ? Colour::Rgba : Colour::Rgb;
    } else {
        L.colour = L.alphaSample >= 0 ? Colour::GrayAlpha : Colour::Gray;
    }
    return Status::ok();
}

// Tiles, or strips grouped into blocks (or read a band of rows at a time when huge).
Status parseLayout(TiffHandle& h, LevelDesc& L, uint64_t maxBlockBytes)
{
    TIFF* tif = h.get();
    const uint64_t pixelBytes = uint64_t(L.spp) * L.sampleBytes(); // in decoded blocks
    L.tiled = TIFFIsTiled(tif) != 0;
    if (L.tiled) {
        if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &L.tileW) ||
            !TIFFGetField(tif, TIFFTAG_TILELENGTH, &L.tileH) || L.tileW == 0 || L.tileH == 0)
            return h.error(ErrorCode::Corrupt, "tiled image without a tile size");
        const uint64_t tileBytes = uint64_t(L.tileW) * L.tileH * pixelBytes;
        if (tileBytes > maxBlockBytes * 4)
            return h.error(ErrorCode::Unsupported, "tiles of " + std::to_string(L.tileW) + " x " +
                                                       std::to_string(L.tileH) +
                                                       " px are too large");
        if (uint64_t(TIFFTileSize64(tif)) != L.fileRowBytes(L.tileW) * L.tileH)
            return h.error(ErrorCode::Unsupported, "unexpected tile layout (subsampling?)");
        L.blockW = L.tileW;
        L.blockH = L.tileH;
    } else {
        uint32_t rps = L.height;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rps);
        L.rowsPerStrip = std::min(std::max<uint32_t>(rps, 1), L.height);
        const uint64_t rowBytes = uint64_t(L.width) * pixelBytes;
        if (uint64_t(TIFFScanlineSize64(tif)) != L.fileRowBytes(L.width))
            return h.error(ErrorCode::Unsupported, "unexpected strip layout (subsampling?)");
        L.blockW = L.width;
        if (rowBytes * L.rowsPerStrip > maxBlockBytes) {
            // One strip holds too much to decode at once: read it a band of rows at a time.
            L.scanline = true;
            L.blockH = static_cast<uint32_t>(std::clamp<uint64_t>(
                maxBlockBytes / rowBytes, 1, std::min<uint32_t>(256, L.rowsPerStrip)));
        } else {
            // Group small strips into blocks of about 256 rows: fewer, larger cache entries.
            uint64_t per = std::max<uint64_t>(1, 256 / L.rowsPerStrip);
            per = std::max<uint64_t>(1, std::min(per, maxBlockBytes / (rowBytes * L.rowsPerStrip)));
            L.blockH = static_cast<uint32_t>(std::min<uint64_t>(per * L.rowsPerStrip, L.height));
        }
    }
    L.across = (L.width + L.blockW - 1) / L.blockW;
    L.down = (L.height + L.blockH - 1) / L.blockH;
    return Status::ok();
}

} // namespace

Status parseLevel(TiffHandle& h, LevelDesc& L, uint64_t fileBytes, uint64_t maxBlockBytes)
{
    TIFF* tif = h.get();
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &L.width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &L.height))
        return h.error(ErrorCode::Corrupt, "no image size");
    if (L.width == 0 || L.height == 0)
        return h.error(ErrorCode::Corrupt, "zero-size image (" + std::to_string(L.width) + " x " +
                                               std::to_string(L.height) + ")");
    const std::string dims = std::to_string(L.width) + " x " + std::to_string(L.height) + " px";
    if (L.width > kMaxSide || L.height > kMaxSide)
        return h.error(ErrorCode::Unsupported, dims + " exceeds the largest side Fisura handles (" +
                                                   std::to_string(kMaxSide) + ")");
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &L.bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &L.spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &L.planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &L.compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &L.subfileType);
    TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &L.fillOrder);
    if (L.compression == COMPRESSION_ADOBE_DEFLATE || L.compression == COMPRESSION_DEFLATE)
        TIFFGetFieldDefaulted(tif, TIFFTAG_PREDICTOR, &L.predictor);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &L.photometric))
        L.photometric = L.spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;

    int colourSamples = 1;
    if (Status s = parseSamples(h, L, colourSamples); !s)
        return s;
    if (Status s = parseColour(h, L, colourSamples); !s)
        return s;

    // Every byte the pixels claim must be plausibly in the file before anything is allocated.
    const uint64_t decoded =
        L.fileRowBytes(L.width) * L.height * (L.planar == PLANARCONFIG_SEPARATE ? L.spp : 1);
    if (fileBytes == 0 || (L.compression == COMPRESSION_NONE && decoded > fileBytes) ||
        double(decoded) > double(fileBytes) * kMaxExpansion)
        return h.error(ErrorCode::Corrupt, dims + " (" + std::to_string(decoded) +
                                               " bytes) cannot be held in a file of " +
                                               std::to_string(fileBytes) + " bytes");
    if (L.jpegRgb)
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    if (Status s = parseLayout(h, L, maxBlockBytes); !s)
        return s;
    // A whole tile is decoded (and allocated) even where the image is smaller than the tile:
    // the same plausibility rule, so a 200-byte file cannot claim 4096 x 4096 RGBA tiles.
    const uint64_t tileDecoded = L.tiled ? L.fileRowBytes(L.tileW) * L.tileH : 0;
    if (double(tileDecoded) > double(fileBytes) * kMaxExpansion)
        return h.error(ErrorCode::Corrupt, "tiles of " + std::to_string(L.tileW) + " x " +
                                               std::to_string(L.tileH) + " px (" +
                                               std::to_string(tileDecoded) +
                                               " bytes) cannot be held in a file of " +
                                               std::to_string(fileBytes) + " bytes");
    return Status::ok();
}

Status checkClaim(TiffHandle& h, const LevelDesc& L, uint64_t fileBytes, const ImageLimits& limits)
{
    const uint64_t pixels = uint64_t(L.width) * L.height;
    const std::string claim = std::to_string(L.width) + " x " + std::to_string(L.height) + " px (" +
                              std::to_string(pixels) + " px)";
    const auto tooLarge = [&](const std::string& why) {
        // The id first (as io_error.h's "disk_full:"), for the GUI's advice.
        Status s = h.error(ErrorCode::TooLarge, why);
        return Status(s.code(), "too_many_pixels: " + s.detail());
    };
    if (limits.maxPixels > 0 && pixels > limits.maxPixels)
        return tooLarge("the image claims " + claim + ", more than the " +
                        std::to_string(limits.maxPixels) +
                        " px Fisura opens (a decompression bomb?); if the scan is real, raise "
                        "the limit (command line: --max-pixels " +
                        std::to_string(pixels <= ImageLimits::kMostPixels ? pixels : 0) + ")");
    const double perByte = double(pixels) / double(std::max<uint64_t>(fileBytes, 1));
    if (L.compression != COMPRESSION_NONE && limits.maxPixelsPerByte > 0 &&
        perByte > limits.maxPixelsPerByte)
        return tooLarge("the image claims " + claim + " in a file of " + std::to_string(fileBytes) +
                        " bytes: " + std::to_string(uint64_t(perByte)) +
                        " px per byte, more than the " +
                        std::to_string(uint64_t(limits.maxPixelsPerByte)) +
                        " a compressed scan has (a decompression bomb?); if the scan is real, "
                        "lift the check (command line: --max-pixels-per-byte 0)");
    // Blocks never share bytes in a real file: together they fit in it.
    TIFF* tif = h.get();
    const uint32_t blocks = L.tiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);
    // A block that runs past the end is a file cut short, not shared data: it opens, and reading
    // that block fails naming it (what is before the cut stays readable).
    uint64_t total = 0;
    bool cutShort = false;
    for (uint32_t i = 0; i < blocks && total <= fileBytes && !cutShort; ++i) {
        const uint64_t n = TIFFGetStrileByteCount(tif, i);
        cutShort = TIFFGetStrileOffset(tif, i) + n > fileBytes;
        total += n;
    }
    if (!cutShort && total > fileBytes)
        return h.error(ErrorCode::Corrupt,
                       "its " + std::to_string(blocks) + " blocks claim more than the file's " +
                           std::to_string(fileBytes) +
                           " bytes together: its blocks share data as a decompression bomb's "
                           "do");
    return Status::ok();
}

bool sameKind(const LevelDesc& a, const LevelDesc& b)
{
    return a.colour == b.colour && a.bps == b.bps && a.sampleFormat == b.sampleFormat &&
           a.logLuv == b.logLuv && a.minIsWhite == b.minIsWhite &&
           (a.colour != Colour::Palette || a.palette == b.palette);
}

bool isReduction(const LevelDesc& base, const LevelDesc& prev, const LevelDesc& c)
{
    if (c.width >= prev.width || c.height >= prev.height || c.width < 1)
        return false;
    const double expectH = double(base.height) * c.width / base.width;
    return std::fabs(expectH - c.height) <= 1.0 + 0.02 * c.height;
}

} // namespace fisura::io
