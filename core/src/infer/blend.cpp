// Tile grid and blending windows; see blend.h.
#include "blend.h"

#include <algorithm>
#include <cmath>

namespace fisura::detail
{

TileGrid TileGrid::make(int width, int height, int tile, int overlap)
{
    TileGrid g;
    g.width = width;
    g.height = height;
    g.tile = tile;
    g.xs = tileOrigins(width, tile, overlap);
    g.ys = tileOrigins(height, tile, overlap);
    g.x1 = width;
    g.lastCol = int(g.xs.size()) - 1;
    g.tiles.reserve(g.xs.size() * g.ys.size());
    for (size_t r = 0; r < g.ys.size(); ++r)
        for (size_t c = 0; c < g.xs.size(); ++c)
            g.tiles.push_back({int(c), int(r), g.xs[c], g.ys[r], std::min(tile, width - g.xs[c]),
                               std::min(tile, height - g.ys[r])});
    return g;
}

std::vector<float> axisWindow(int tile, int valid, int overlap, bool first, bool last,
                              BlendWindow kind)
{
    std::vector<float> w(size_t(tile), 0.f);
    constexpr double halfPi = 1.5707963267948966;
    const double sigma = tile / 8.0, centre = (tile - 1) / 2.0;
    for (int k = 0; k < valid; ++k) {
        double v = 1.0;
        if (kind == BlendWindow::Cosine) {
            if (overlap > 0 && !first && k < overlap)
                v *= std::pow(std::sin(halfPi * (k + 0.5) / overlap), 2);
            if (overlap > 0 && !last && k >= tile - overlap)
                v *= std::pow(std::sin(halfPi * (tile - k - 0.5) / overlap), 2);
        } else {
            const bool outer = (first && k < centre) || (last && k > centre);
            if (!outer)
                v = std::max(1e-4, std::exp(-(k - centre) * (k - centre) / (2 * sigma * sigma)));
        }
        w[size_t(k)] = float(v);
    }
    return w;
}

AxisWeights axisWeights(int length, int tile, int overlap, BlendWindow kind,
                        const std::vector<int>& origins)
{
    const int n = int(origins.size());
    AxisWeights a;
    a.windows.assign(size_t(n) * size_t(tile), 0.f);
    std::vector<double> sum(size_t(length), 0.0); // in double: many small terms near the seams
    for (int i = 0; i < n; ++i) {
        const int valid = std::min(tile, length - origins[size_t(i)]);
        const auto w = axisWindow(tile, valid, overlap, i == 0, i == n - 1, kind);
        for (int k = 0; k < valid; ++k) {
            a.windows[size_t(i) * size_t(tile) + size_t(k)] = w[size_t(k)];
            sum[size_t(origins[size_t(i)] + k)] += w[size_t(k)];
        }
    }
    a.invSum.resize(size_t(length));
    for (int x = 0; x < length; ++x)
        a.invSum[size_t(x)] = sum[size_t(x)] > 0 ? float(1.0 / sum[size_t(x)]) : 0.f;
    return a;
}

} // namespace fisura::detail
