// The tile grid of a tiled inference and the blending windows over it (plain C++, no torch).
//
// Tiles form a product grid: origins xs along the width times origins ys along the height. Each
// tile's prediction is weighted by a separable window wx(x) * wy(y), so the sum of the windows
// at (x, y) is Sx(x) * Sy(y) and finished rows are normalised with two per-axis vectors instead
// of a full-size weight map. (Window blending as in nnU-Net / MONAI's sliding-window inference.)
#pragma once

#include <vector>

#include "fisura/infer.h"

namespace fisura::detail
{

/// One tile: its column and row in the grid, its origin and the part of it inside the image.
struct TileRef {
    int col = 0, row = 0;
    int x = 0, y = 0, w = 0, h = 0;
};

/// Every tile of an image in raster order (the order readers fill and the device blends them).
/// A column band of it (a run split over several devices, multi_device.h) keeps the image's
/// origins and lists only the tiles of its tile columns; it emits map columns [x0, x1).
struct TileGrid {
    int width = 0, height = 0, tile = 0;
    std::vector<int> xs, ys; ///< tile origins along each axis (tileOrigins())
    std::vector<TileRef> tiles;
    int x0 = 0, x1 = 0; ///< map columns this grid's device stage emits: [0, width) when whole
    int lastCol = 0;    ///< the last tile column of `tiles`

    static TileGrid make(int width, int height, int tile, int overlap);
    bool lastInRow(const TileRef& t) const { return t.col == lastCol; }
    /// First image row that a tile row after `row` still adds to (the height after the last):
    /// every row above it is final once tile row `row` is complete.
    int nextRowStart(int row) const
    {
        return size_t(row) + 1 < ys.size() ? ys[size_t(row) + 1] : height;
    }
};

/// One tile's window along one axis: `valid` weights (the rest of the tile lies outside the
/// image); no ramp on a side that touches the image border.
std::vector<float> axisWindow(int tile, int valid, int overlap, bool first, bool last,
                              BlendWindow kind);

/// The windows of all tiles along one axis and the reciprocal of their sum per position.
struct AxisWeights {
    std::vector<float> windows; ///< [tiles x tile], row-major; zero beyond the image
    std::vector<float> invSum;  ///< [length]; 0 where no window reaches
};
AxisWeights axisWeights(int length, int tile, int overlap, BlendWindow kind,
                        const std::vector<int>& origins);

} // namespace fisura::detail
