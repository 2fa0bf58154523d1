// Small TIFFs of every sample kind Fisura decodes beyond 8/16-bit unsigned: bilevel and 2/4-bit
// gray (CCITT G4 too), signed and 32-bit integers, floats (with the floating-point predictor),
// CMYK contiguous and planar. Each is written from an 8-bit image so tests know what to expect.
#pragma once

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <tiffio.h>

#include "fisura/image.h"

namespace kinds
{

enum class Kind {
    Bit1,
    Bit1White,
    Fax4,
    Bit2,
    Bit4,
    Int8,
    Int16,
    Uint32,
    Float32,
    Float32Pred,
    Float64,
    FloatMask, ///< float32 0..1, no NaN: a mask saved as float
    Cmyk8,
    Cmyk8Planar,
};

inline bool isCmyk(Kind k)
{
    return k == Kind::Cmyk8 || k == Kind::Cmyk8Planar;
}

/// Stretched kinds map stored values through the percentile stretch.
inline bool isStretched(Kind k)
{
    return k == Kind::Int8 || k == Kind::Int16 || k == Kind::Uint32 || k == Kind::Float32 ||
           k == Kind::Float32Pred || k == Kind::Float64 || k == Kind::FloatMask;
}

/// The value stored for 8-bit gray `v` at pixel index `i` (floats: NaN at 0, +inf at 1).
inline double storedValue(Kind k, uint8_t v, size_t i)
{
    switch (k) {
    case Kind::Bit1:
        return v >= 128 ? 1 : 0;
    case Kind::Bit1White:
    case Kind::Fax4:
        return v >= 128 ? 0 : 1;
    case Kind::Bit2:
        return v >> 6;
    case Kind::Bit4:
        return v >> 4;
    case Kind::Int8:
        return int(v) - 128;
    case Kind::Int16:
        return int(v) * 10 - 1000;
    case Kind::Uint32:
        return double(v) * 100000.0;
    case Kind::FloatMask:
        return double(float(v / 255.0));
    default:
        if (i == 0)
            return std::numeric_limits<double>::quiet_NaN();
        if (i == 1)
            return std::numeric_limits<double>::infinity();
        return double(float(v / 255.0));
    }
}

/// What Fisura shows for a non-stretched gray kind.
inline uint8_t expectedGray(Kind k, uint8_t v)
{
    switch (k) {
    case Kind::Bit1:
    case Kind::Bit1White:
    case Kind::Fax4:
        return v >= 128 ? 255 : 0;
    case Kind::Bit2:
        return uint8_t((v >> 6) * 85);
    default:
        return uint8_t((v >> 4) * 17);
    }
}

/// CMYK inks for an RGB pixel (K varies so the formula is exercised).
inline void cmykOf(const uint8_t* rgb, size_t i, uint8_t* ink)
{
    for (int c = 0; c < 3; ++c)
        ink[c] = uint8_t(255 - rgb[c]);
    ink[3] = i % 3 == 0 ? 40 : 0;
}

/// RGB as libtiff's RGBA interface converts CMYK.
inline void rgbOfCmyk(const uint8_t* ink, uint8_t* rgb)
{
    for (int c = 0; c < 3; ++c)
        rgb[c] = uint8_t((255 - ink[3]) * (255 - ink[c]) / 255);
}

/// Writes `im` (1-channel for gray kinds, 3-channel for CMYK) as `k`: tiled when `tile` > 0
/// (not for Fax4), else strips of `rowsPerStrip` rows.
inline bool write(const QString& path, const fisura::Image& im, Kind k, int tile = 0,
                  int rowsPerStrip = 4)
{
    int bps = 8, fmt = SAMPLEFORMAT_UINT, spp = 1, photometric = PHOTOMETRIC_MINISBLACK;
    int compression = COMPRESSION_NONE, predictor = 0;
    bool planar = false;
    switch (k) {
    case Kind::Bit1:
        bps = 1;
        break;
    case Kind::Bit1White:
        bps = 1, photometric = PHOTOMETRIC_MINISWHITE;
        break;
    case Kind::Fax4:
        bps = 1, photometric = PHOTOMETRIC_MINISWHITE, compression = COMPRESSION_CCITTFAX4;
        break;
    case Kind::Bit2:
        bps = 2;
        break;
    case Kind::Bit4:
        bps = 4;
        break;
    case Kind::Int8:
        fmt = SAMPLEFORMAT_INT;
        break;
    case Kind::Int16:
        bps = 16, fmt = SAMPLEFORMAT_INT, compression = COMPRESSION_ADOBE_DEFLATE, predictor = 2;
        break;
    case Kind::Uint32:
        bps = 32;
        break;
    case Kind::Float32:
    case Kind::FloatMask:
        bps = 32, fmt = SAMPLEFORMAT_IEEEFP;
        break;
    case Kind::Float32Pred:
        bps = 32, fmt = SAMPLEFORMAT_IEEEFP, compression = COMPRESSION_ADOBE_DEFLATE;
        predictor = PREDICTOR_FLOATINGPOINT;
        break;
    case Kind::Float64:
        bps = 64, fmt = SAMPLEFORMAT_IEEEFP, compression = COMPRESSION_LZW;
        break;
    case Kind::Cmyk8:
    case Kind::Cmyk8Planar:
        spp = 4, photometric = PHOTOMETRIC_SEPARATED, planar = k == Kind::Cmyk8Planar;
        break;
    }
    TIFF* tif = TIFFOpen(path.toLocal8Bit().constData(), "w");
    if (!tif)
        return false;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(im.width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(im.height));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(bps));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(spp));
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, uint16_t(fmt));
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, uint16_t(photometric));
    TIFFSetField(tif, TIFFTAG_COMPRESSION, uint16_t(compression));
    if (predictor)
        TIFFSetField(tif, TIFFTAG_PREDICTOR, uint16_t(predictor));
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, planar ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
    const int planes = planar ? spp : 1, perPixel = planar ? 1 : spp;
    const int bw = tile > 0 ? tile : im.width, bh = tile > 0 ? tile : rowsPerStrip;
    if (tile > 0) {
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, uint32_t(tile));
        TIFFSetField(tif, TIFFTAG_TILELENGTH, uint32_t(tile));
    } else {
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, uint32_t(rowsPerStrip));
    }
    const size_t rowBytes = (size_t(bw) * perPixel * bps + 7) / 8;
    std::vector<uint8_t> buf;
    bool ok = true;
    for (int p = 0; p < planes && ok; ++p)
        for (int y0 = 0; y0 < im.height && ok; y0 += bh)
            for (int x0 = 0; x0 < im.width && ok; x0 += bw) {
                const int rows = tile > 0 ? bh : std::min(bh, im.height - y0);
                buf.assign(rowBytes * rows, 0);
                for (int y = 0; y < rows && y0 + y < im.height; ++y)
                    for (int x = 0; x < bw && x0 + x < im.width; ++x) {
                        const size_t i = size_t(y0 + y) * im.width + (x0 + x);
                        const uint8_t* src = im.row(y0 + y) + size_t(x0 + x) * im.channels;
                        uint8_t* row = buf.data() + size_t(y) * rowBytes;
                        if (isCmyk(k)) {
                            uint8_t ink[4];
                            cmykOf(src, i, ink);
                            for (int s = 0; s < perPixel; ++s)
                                row[size_t(x) * perPixel + s] = ink[planar ? p : s];
                            continue;
                        }
                        const double v = storedValue(k, src[0], i);
                        if (bps < 8) {
                            const int bit = x * bps;
                            row[bit / 8] |= uint8_t(int(v) << (8 - bps - bit % 8));
                        } else if (bps == 8) {
                            row[x] = uint8_t(int8_t(int(v)));
                        } else if (bps == 16) {
                            const auto s = int16_t(v);
                            std::memcpy(row + x * 2, &s, 2);
                        } else if (bps == 32 && fmt == SAMPLEFORMAT_UINT) {
                            const auto s = uint32_t(v);
                            std::memcpy(row + x * 4, &s, 4);
                        } else if (bps == 32) {
                            const auto f = float(v);
                            std::memcpy(row + x * 4, &f, 4);
                        } else {
                            std::memcpy(row + x * 8, &v, 8);
                        }
                    }
                if (tile > 0)
                    ok = TIFFWriteEncodedTile(
                             tif, TIFFComputeTile(tif, uint32_t(x0), uint32_t(y0), 0, uint16_t(p)),
                             buf.data(), tmsize_t(buf.size())) >= 0;
                else
                    ok =
                        TIFFWriteEncodedStrip(tif, TIFFComputeStrip(tif, uint32_t(y0), uint16_t(p)),
                                              buf.data(), tmsize_t(buf.size())) >= 0;
            }
    TIFFClose(tif);
    return ok;
}

} // namespace kinds
