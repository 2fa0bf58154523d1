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
    default:
        return "palette";
    }
}

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
    uint16_t sampleFormat = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &L.bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &L.spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sampleFormat);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &L.planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &L.compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &L.subfileType);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &L.photometric))
        L.photometric = L.spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;

    if (sampleFormat == SAMPLEFORMAT_IEEEFP || sampleFormat == SAMPLEFORMAT_COMPLEXIEEEFP)
        return h.error(ErrorCode::Unsupported, "floating-point samples are not supported");
    if (sampleFormat == SAMPLEFORMAT_INT || sampleFormat == SAMPLEFORMAT_COMPLEXINT)
        return h.error(ErrorCode::Unsupported, "signed integer samples are not supported");
    if (sampleFormat != SAMPLEFORMAT_UINT && sampleFormat != SAMPLEFORMAT_VOID)
        return h.error(ErrorCode::Unsupported, "unknown sample format");
    if (L.bps != 8 && L.bps != 16)
        return h.error(ErrorCode::Unsupported,
                       std::to_string(L.bps) + "-bit samples are not supported (8 or 16 only)");
    if (L.compression == COMPRESSION_OJPEG)
        return h.error(ErrorCode::Unsupported, "old-style JPEG compression is not supported");
    if (!TIFFIsCODECConfigured(L.compression))
        return h.error(ErrorCode::Unsupported,
                       "compression " + compressionLabel(L.compression) + " is not available");
    if (L.compression == COMPRESSION_JPEG && L.bps != 8)
        return h.error(ErrorCode::Unsupported, "JPEG with more than 8 bits per sample");
    if (L.planar != PLANARCONFIG_CONTIG && L.planar != PLANARCONFIG_SEPARATE)
        return h.error(ErrorCode::Corrupt, "invalid planar configuration");

    int colourSamples = 1;
    switch (L.photometric) {
    case PHOTOMETRIC_MINISBLACK:
        break;
    case PHOTOMETRIC_MINISWHITE:
        L.minIsWhite = true;
        break;
    case PHOTOMETRIC_RGB:
        colourSamples = 3;
        break;
    case PHOTOMETRIC_PALETTE:
        if (L.bps != 8)
            return h.error(ErrorCode::Unsupported, "palette images must have 8-bit indices");
        break;
    case PHOTOMETRIC_YCBCR:
        if (L.compression != COMPRESSION_JPEG)
            return h.error(ErrorCode::Unsupported, "YCbCr is supported only with JPEG");
        if (L.planar != PLANARCONFIG_CONTIG)
            return h.error(ErrorCode::Unsupported, "planar YCbCr is not supported");
        colourSamples = 3;
        L.jpegRgb = true; // libjpeg converts to RGB (and upsamples chroma) for us
        break;
    case PHOTOMETRIC_SEPARATED:
        return h.error(ErrorCode::Unsupported, "CMYK (separated) images are not supported");
    default:
        return h.error(ErrorCode::Unsupported, "photometric interpretation " +
                                                   std::to_string(L.photometric) +
                                                   " is not supported");
    }
    if (L.spp < colourSamples || L.spp > 16)
        return h.error(ErrorCode::Corrupt, std::to_string(L.spp) + " samples per pixel");

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
    if (L.photometric == PHOTOMETRIC_PALETTE) {
        L.colour = Colour::Palette;
        uint16_t *r = nullptr, *g = nullptr, *b = nullptr;
        if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b)
            return h.error(ErrorCode::Corrupt, "palette image without a colour map");
        bool wide = false;
        for (int i = 0; i < 256; ++i)
            wide = wide || r[i] > 255 || g[i] > 255 || b[i] > 255;
        L.palette.resize(768);
        for (int i = 0; i < 256; ++i) {
            L.palette[i * 3] = static_cast<uint8_t>(wide ? r[i] >> 8 : r[i]);
            L.palette[i * 3 + 1] = static_cast<uint8_t>(wide ? g[i] >> 8 : g[i]);
            L.palette[i * 3 + 2] = static_cast<uint8_t>(wide ? b[i] >> 8 : b[i]);
        }
    } else if (colourSamples == 3) {
        L.colour = L.alphaSample >= 0 ? Colour::Rgba : Colour::Rgb;
    } else {
        L.colour = L.alphaSample >= 0 ? Colour::GrayAlpha : Colour::Gray;
    }

    // Every byte the pixels claim must be plausibly in the file before anything is allocated.
    const uint64_t decoded = uint64_t(L.width) * L.height * L.spp * (L.bps / 8);
    if (fileBytes == 0 || (L.compression == COMPRESSION_NONE && decoded > fileBytes) ||
        double(decoded) > double(fileBytes) * kMaxExpansion)
        return h.error(ErrorCode::Corrupt, dims + " (" + std::to_string(decoded) +
                                               " bytes) cannot be held in a file of " +
                                               std::to_string(fileBytes) + " bytes");

    if (L.jpegRgb)
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    const uint64_t pixelBytes = uint64_t(L.spp) * (L.bps / 8);
    const uint64_t planeDiv = L.planar == PLANARCONFIG_SEPARATE ? L.spp : 1;
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
        if (uint64_t(TIFFTileSize64(tif)) != tileBytes / planeDiv)
            return h.error(ErrorCode::Unsupported, "unexpected tile layout (subsampling?)");
        L.blockW = L.tileW;
        L.blockH = L.tileH;
    } else {
        uint32_t rps = L.height;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rps);
        L.rowsPerStrip = std::min(std::max<uint32_t>(rps, 1), L.height);
        const uint64_t rowBytes = uint64_t(L.width) * pixelBytes;
        if (uint64_t(TIFFScanlineSize64(tif)) != rowBytes / planeDiv)
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

bool sameKind(const LevelDesc& a, const LevelDesc& b)
{
    return a.colour == b.colour && a.bps == b.bps && a.minIsWhite == b.minIsWhite &&
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
