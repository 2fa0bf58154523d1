// Where a tiled inference reads its pixels: a TiledImage through a shared block cache, or a
// PNG/JPEG decoded whole (plain C++, no torch).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/infer.h"
#include "fisura/raster.h"
#include "fisura/tiledimage.h"

namespace fisura::detail
{

struct ScanSource {
    int width = 0, height = 0, channels = 0;
    double pixelSizeXmm = 0, pixelSizeYmm = 0;
    std::vector<TiffTag> geoTags;
    std::shared_ptr<TiledImage> tiled;
    std::shared_ptr<TileCache> cache;
    std::shared_ptr<const Image> flat; ///< the decoded image (null for a TIFF)
    /// How the file stores its pixels: the TIFF's compression ("jpeg", "deflate", ...), or the
    /// format of a file decoded whole ("png", "jpeg", ...).
    std::string compression;

    /// Opens `path` as RasterSource does: a TIFF tiled with a block cache, anything else decoded
    /// whole (refused beyond options.maxFlatPixels).
    static Result<ScanSource> open(const std::string& path, const InferOptions& options);

    /// Sizes the block cache for reading `tile`-high tile rows in raster order: neighbouring
    /// tiles and the next tile row reuse decoded blocks, so keep a tile row of them plus a
    /// block row either side (or `cacheBytes`, when larger). No-op for a decoded image.
    void cacheTileRow(int tile, uint64_t cacheBytes) const;

    /// Pixels of a rectangle inside the image, in the source's channels. Thread-safe.
    Result<Image> region(int x, int y, int w, int h) const;
    /// The rectangle straight into a tile x tile buffer of `channels` channels, padded as
    /// placeTile() does (no intermediate image when the channels match). Thread-safe.
    Status readTile(int x, int y, int w, int h, int tile, int channels, uint8_t* dst) const;
};

/// Fill a tile x tile buffer beyond its first w x h pixels by replicating the last column and
/// row (what copyMakeBorder's BORDER_REPLICATE does on the right and bottom).
void padTile(uint8_t* dst, int w, int h, int tile, int channels);

/// Copy `src` (any of 1/3/4 channels) into a tile x tile buffer with `channels` channels,
/// padding beyond the image by replicating the edge.
void placeTile(const Image& src, int tile, int channels, uint8_t* dst);

} // namespace fisura::detail
