// Writes TIFF variants with libtiff directly (not through Fisura), so the reader is checked
// against files it did not produce; plus the expected 8-bit pixels of each variant.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <tiffio.h>

#include "fisura/image.h"

namespace fixtures
{

struct Variant {
    int channels = 3;        // 1 gray, 2 gray+alpha, 3 rgb, 4 rgba (colour samples + alpha)
    bool palette = false;    // 8-bit indices (channels must be 1)
    bool ycbcr = false;      // JPEG only
    bool minIsWhite = false; // gray only
    int bits = 8;
    uint16_t compression = COMPRESSION_NONE;
    bool predictor = false;
    bool tiled = false;
    bool bigTiff = false;
    bool bigEndian = false;
    bool separate = false;
    int rowsPerStrip = 8;
    int width = 150;
    int height = 97;
};

// A continuous pattern (lossy codecs stay close to it): a triangle wave per sample.
inline int wave(int x, int y, int k)
{
    const int t = (x * 3 + y * 5 + k * 70) % 510;
    return t < 256 ? t : 509 - t;
}
inline uint16_t sample16(int x, int y, int k)
{
    return uint16_t(1000 + wave(x, y, k) * 150);
}
inline uint8_t alpha8(int x, int y)
{
    return uint8_t((x * 7 + y) & 0xFF);
}

inline uint8_t paletteR(int i)
{
    return uint8_t(i);
}
inline uint8_t paletteG(int i)
{
    return uint8_t(255 - i);
}
inline uint8_t paletteB(int i)
{
    return uint8_t((i * 7) & 0xFF);
}

inline bool write(const std::string& path, const Variant& v, std::string* why = nullptr)
{
    const std::string mode = std::string("w") + (v.bigTiff ? "8" : "") + (v.bigEndian ? "b" : "l");
    TIFF* tif = TIFFOpen(path.c_str(), mode.c_str());
    if (!tif)
        return false;
    const int spp = v.channels;
    const int colour = v.channels >= 3 ? 3 : 1;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(v.width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(v.height));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(v.bits));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(spp));
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG,
                 v.separate ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, v.compression);
    uint16_t photometric = colour == 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    if (v.minIsWhite)
        photometric = PHOTOMETRIC_MINISWHITE;
    if (v.palette)
        photometric = PHOTOMETRIC_PALETTE;
    if (v.ycbcr)
        photometric = PHOTOMETRIC_YCBCR;
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, photometric);
    if (v.compression == COMPRESSION_JPEG) {
        TIFFSetField(tif, TIFFTAG_JPEGQUALITY, 95);
        if (v.ycbcr)
            TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    }
    if (v.compression == COMPRESSION_WEBP)
        TIFFSetField(tif, TIFFTAG_WEBP_LOSSLESS, 1);
    if (v.predictor)
        TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    if (spp == 2 || spp == 4) {
        const uint16_t t = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, uint16_t(1), &t);
    }
    std::vector<uint16_t> r(256), g(256), b(256);
    if (v.palette) {
        for (int i = 0; i < 256; ++i) {
            r[i] = uint16_t(paletteR(i) * 257);
            g[i] = uint16_t(paletteG(i) * 257);
            b[i] = uint16_t(paletteB(i) * 257);
        }
        TIFFSetField(tif, TIFFTAG_COLORMAP, r.data(), g.data(), b.data());
    }
    const int tw = 48, th = 32;
    if (v.tiled) {
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, uint32_t(tw));
        TIFFSetField(tif, TIFFTAG_TILELENGTH, uint32_t(th));
    } else {
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, uint32_t(v.rowsPerStrip));
    }
    const int sb = v.bits / 8;
    auto put = [&](uint8_t* dst, int x, int y, int k) {
        const bool isAlpha = k >= colour;
        if (v.bits == 16) {
            const uint16_t s = isAlpha ? uint16_t(alpha8(x, y) * 257) : sample16(x, y, k);
            std::memcpy(dst, &s, 2);
        } else {
            *dst = isAlpha ? alpha8(x, y) : uint8_t(wave(x, y, k));
        }
    };
    const int planes = v.separate ? spp : 1;
    const int perPix = v.separate ? 1 : spp;
    bool ok = true;
    if (v.tiled) {
        std::vector<uint8_t> tile(size_t(tw) * th * perPix * sb);
        for (int s = 0; s < planes && ok; ++s)
            for (int ty = 0; ty < v.height && ok; ty += th)
                for (int tx = 0; tx < v.width && ok; tx += tw) {
                    std::fill(tile.begin(), tile.end(), 0);
                    for (int y = 0; y < th && ty + y < v.height; ++y)
                        for (int x = 0; x < tw && tx + x < v.width; ++x)
                            for (int k = 0; k < perPix; ++k)
                                put(&tile[(size_t(y) * tw + x) * perPix * sb + k * sb], tx + x,
                                    ty + y, v.separate ? s : k);
                    ok = TIFFWriteTile(tif, tile.data(), uint32_t(tx), uint32_t(ty), 0,
                                       uint16_t(s)) >= 0;
                }
    } else {
        std::vector<uint8_t> row(size_t(v.width) * perPix * sb);
        for (int s = 0; s < planes && ok; ++s)
            for (int y = 0; y < v.height && ok; ++y) {
                for (int x = 0; x < v.width; ++x)
                    for (int k = 0; k < perPix; ++k)
                        put(&row[(size_t(x) * perPix + k) * sb], x, y, v.separate ? s : k);
                ok = TIFFWriteScanline(tif, row.data(), uint32_t(y), uint16_t(s)) >= 0;
            }
    }
    TIFFClose(tif);
    if (!ok && why)
        *why = "libtiff refused to write the variant";
    return ok;
}

/// What Fisura should decode for variant v (16-bit: through the stretch lo..hi).
inline fisura::Image expected(const Variant& v, double lo = 0, double hi = 255)
{
    const int colour = v.channels >= 3 ? 3 : 1;
    const bool alpha = v.channels == 2 || v.channels == 4;
    const int C = v.palette ? 3 : (alpha ? 4 : colour);
    fisura::Image im = fisura::Image::make(v.width, v.height, C);
    auto map = [&](int x, int y, int k) -> uint8_t {
        int val = wave(x, y, k);
        if (v.bits == 16) {
            const double t =
                std::min(255.0, std::max(0.0, (sample16(x, y, k) - lo) * 255.0 / (hi - lo)));
            val = int(std::lround(t));
        }
        return uint8_t(v.minIsWhite ? 255 - val : val);
    };
    for (int y = 0; y < v.height; ++y)
        for (int x = 0; x < v.width; ++x) {
            uint8_t* p = im.row(y) + size_t(x) * C;
            if (v.palette) {
                const int i = wave(x, y, 0);
                p[0] = paletteR(i);
                p[1] = paletteG(i);
                p[2] = paletteB(i);
                continue;
            }
            for (int k = 0; k < colour; ++k)
                p[k] = map(x, y, k);
            if (colour == 1 && alpha)
                p[1] = p[2] = p[0];
            if (alpha)
                p[3] = alpha8(x, y);
        }
    return im;
}

inline void put16(QByteArray& b, uint16_t v)
{
    b.append(char(v & 0xFF)).append(char(v >> 8));
}
inline void put32(QByteArray& b, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        b.append(char((v >> (8 * i)) & 0xFF));
}

struct Entry {
    uint16_t tag, type;
    uint32_t count, value;
};

/// A classic little-endian TIFF with the given IFD entries at offset 8, followed by `payload`
/// (entries may point into it: its offset is returned by payloadOffset()).
inline uint32_t payloadOffset(size_t entries)
{
    return uint32_t(8 + 2 + entries * 12 + 4);
}
inline QByteArray craft(std::vector<Entry> entries, const QByteArray& payload)
{
    QByteArray b("II");
    put16(b, 42);
    put32(b, 8);
    put16(b, uint16_t(entries.size()));
    for (const auto& e : entries) {
        put16(b, e.tag);
        put16(b, e.type);
        put32(b, e.count);
        put32(b, e.value);
    }
    put32(b, 0);
    b.append(payload);
    return b;
}

inline bool save(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    return f.write(bytes) == bytes.size();
}

} // namespace fixtures
