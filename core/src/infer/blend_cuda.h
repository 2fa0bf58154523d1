// The device stage's blending as two kernels (blend_cuda.cu): plain CUDA runtime interface, no
// torch; device buffers and a stream. Return values are cudaError_t codes (0 = success).
//
// The band is the device stage's ring of `tile` rows x `width` int64 sums in units of
// 1 / kBlendScale (row y in slot y % tile): integer additions give the same sum in any order.
// Per tile g of the grid: origin (x[g], y[g]), valid extent (w[g], h[g]), column and row index
// (col[g], row[g]) into the per-axis windows wx [columns x tile] and wy [rows x tile].
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace fisura::detail::cuda
{

/// The band's fixed point (device_stage.h has the same).
constexpr double kBlendScale = 4294967296.0;

struct TileTable {
    const int *x, *y, *w, *h, *col, *row; ///< per tile of the grid, on the device
    const float *wx, *wy;                 ///< windows [columns x tile], [rows x tile]
};

/// band += round(map[i] * wy[row] (x) wx[col] * kBlendScale) for the tiles first .. first +
/// count - 1 whose (col % 3, row % 3) is `phase` (0..8). Tiles of one phase never overlap (tile
/// origins are at least half a tile apart), so one launch per phase adds every tile without
/// atomics; the sums are integers, so they do not depend on how tiles fall into launches.
/// `maps`: [count, tile, tile] floats, contiguous. The band holds map columns [x0, x0 + width)
/// (a column band of a run split over devices; x0 = 0 and the map's width otherwise): the parts
/// of tiles outside it are skipped.
int blendTiles(const float* maps, int64_t first, int count, int tile, int x0, int width,
               const TileTable& tiles, int phase, int64_t* band, cudaStream_t stream);

/// Rows y0 .. y0 + n - 1 of the band (n <= tile), back from fixed point to float, normalised by
/// invY[y] * invX[x], scaled by `scale`, rounded half to even and clamped to bytes into `out`
/// [n, width]; their slots are zeroed for the rows one ring further down. The same arithmetic,
/// in the same order, as the LibTorch operators it replaces.
int emitRows(int64_t* band, int tile, int width, int64_t y0, int n, const float* invY,
             const float* invX, float scale, uint8_t* out, cudaStream_t stream);

const char* blendErrorString(int err);

} // namespace fisura::detail::cuda
