// Scans for the benchmarks, written as tiled pyramidal BigTIFFs of any size: synthetic
// concrete-like grey-brown blocks with texture (cheap to make, not trivially compressible), or
// a photograph (e.g. a mosaic of real crack photographs) repeated across the scan.
//
// The synthetic texture is one 8192-pixel noise row shifted by 131 pixels a row, so a tile's
// rows repeat each other at that shift: a model's map of it compresses about 4.5:1 at ZSTD 3,
// where a map of real photographs compresses about 3:1 and costs more CPU to compress
// (tests/bench/RESULTS.md). A photograph repeated at its own size (several thousand pixels)
// repeats nothing inside a tile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fisura/tiledwriter.h"

namespace fisura::bench
{

inline std::vector<uint8_t> noiseTable()
{
    std::vector<uint8_t> n(8192);
    uint32_t s = 12345;
    for (auto& v : n) {
        s = s * 1664525u + 1013904223u;
        v = uint8_t((s >> 24) % 24);
    }
    return n;
}

// Concrete-like grey-brown blocks with texture; cheap to make, not trivially compressible.
inline void fillRows(Image& band, int y0, int channels, const std::vector<uint8_t>& noise)
{
    static const uint8_t palette[8][3] = {{120, 112, 104}, {135, 128, 118}, {110, 104, 98},
                                          {142, 136, 126}, {98, 94, 90},    {128, 120, 108},
                                          {150, 140, 130}, {116, 110, 100}};
    for (int y = 0; y < band.height; ++y) {
        const int gy = y0 + y;
        uint8_t* r = band.row(y);
        const size_t off = size_t(gy) * 131u;
        for (int x = 0; x < band.width; ++x) {
            const uint8_t* c = palette[((x >> 9) + (gy >> 9) * 3) & 7];
            const uint8_t n = noise[(off + size_t(x)) & 8191];
            for (int k = 0; k < channels; ++k)
                r[size_t(x) * channels + k] = uint8_t(c[k] + n);
        }
    }
}

/// `width` x `height` scan with `channels` channels, streamed in bands of 256 rows that
/// `fill(band, y0)` fills (band: the rows from y0 on).
template <class Fill>
bool writeScanBands(const std::string& path, int width, int height, int channels,
                    const TiledWriteOptions& options, Fill fill, std::string* why)
{
    auto w = TiledTiffWriter::create(path, width, height, channels, options);
    if (!w) {
        if (why)
            *why = "create: " + w.status().toString();
        return false;
    }
    Image band = Image::make(width, 256, channels);
    for (int y = 0; y < height; y += 256) {
        const int h = std::min(256, height - y);
        if (h != band.height)
            band = Image::make(width, h, channels);
        fill(band, y);
        if (Status s = (*w)->appendRows(band); !s) {
            if (why)
                *why = "append: " + s.toString();
            return false;
        }
    }
    if (Status s = (*w)->finish(); !s) {
        if (why)
            *why = "finish: " + s.toString();
        return false;
    }
    return true;
}

/// `width` x `height` synthetic scan with `channels` channels.
inline bool writeSyntheticScan(const std::string& path, int width, int height, int channels,
                               const TiledWriteOptions& options, std::string* why = nullptr)
{
    const auto noise = noiseTable();
    return writeScanBands(
        path, width, height, channels, options,
        [&](Image& band, int y0) { fillRows(band, y0, channels, noise); }, why);
}

/// `width` x `height` RGB scan of `photo` (an RGB image) repeated across and down from the top
/// left.
inline bool writePhotoScan(const std::string& path, int width, int height, const Image& photo,
                           const TiledWriteOptions& options, std::string* why = nullptr)
{
    if (photo.channels != 3 || photo.width < 1 || photo.height < 1) {
        if (why)
            *why = "the photograph must be an RGB image";
        return false;
    }
    const auto fill = [&](Image& band, int y0) {
        for (int r = 0; r < band.height; ++r) {
            const uint8_t* s = photo.row((y0 + r) % photo.height);
            uint8_t* d = band.row(r);
            for (int x = 0; x < width; x += photo.width)
                std::memcpy(d + size_t(x) * 3, s, size_t(std::min(photo.width, width - x)) * 3);
        }
    };
    return writeScanBands(path, width, height, 3, options, fill, why);
}

} // namespace fisura::bench
