// Tile codec steps of the tiled writer (plain C++): the TIFF horizontal predictor applied while a
// tile is cut out of a band, ZSTD / Deflate compression with per-thread codec state, and the 2x2
// box filter that makes the next pyramid level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fisura/tiledwriter.h"

namespace fisura::io
{

/// One tile of a band (rows of `bandStride` bytes, `bandRows` of them) from column x0, w pixels
/// wide, with the horizontal predictor applied (differences of neighbouring samples, zero padding
/// beyond the image): tileSize x tileSize x channels bytes at `tile`.
void extractPredicted(const uint8_t* band, size_t bandStride, int bandRows, int x0, int w,
                      int tileSize, int channels, uint8_t* tile);
/// The same, and on the way the 2x2 box filter of those columns (halveRow: the last odd row or
/// column pairs with itself) into `half`: (bandRows + 1) / 2 rows of (w + 1) / 2 pixels,
/// `halfStride` bytes apart (none when `half` is null). One pass over the band's columns.
void extractPredicted(const uint8_t* band, size_t bandStride, int bandRows, int x0, int w,
                      int tileSize, int channels, uint8_t* tile, uint8_t* half, size_t halfStride);

/// `n` bytes as one ZSTD frame or one zlib stream (TIFF's Adobe Deflate) in `out`. False when the
/// codec failed or is not in this build.
bool compressTile(TileCompression codec, int level, const uint8_t* in, size_t n,
                  std::vector<uint8_t>& out);

/// One output row of the 2x2 box filter of rows r0 and r1 (the last odd column pairs with
/// itself); channels 1, 3 or 4.
void halveRow(const uint8_t* r0, const uint8_t* r1, uint8_t* d, int outWidth, int inWidth,
              int channels);

} // namespace fisura::io
