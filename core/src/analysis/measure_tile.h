// One tile of a map: clean-up, distance transform, skeleton, and the statistics of every crack,
// branch and junction cluster seen in the tile's core, with the labels on its four borders so
// that a merger can join objects that continue in the neighbouring tiles.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "analysis/measure_accum.h"

namespace fisura::analysis
{

enum SkeletonState : uint8_t { kNone = 0, kSkeleton = 1, kJunction = 2 };

/// Labels along one border of a tile core (n pixels). `state` has n + 2 entries: the pixel
/// before the first and after the last (from the overlap margin) are included, for the
/// m-adjacency test across the border. Labels are 1-based indices into TileResult's vectors.
struct BorderLine {
    std::vector<uint8_t> state;
    std::vector<int> crack, branch, junction;
    void resize(int n)
    {
        state.assign(size_t(n) + 2, kNone);
        crack.assign(size_t(n), 0);
        branch.assign(size_t(n), 0);
        junction.assign(size_t(n), 0);
    }
};

struct TileResult {
    int x0 = 0, y0 = 0, width = 0, height = 0; // the core, in map pixels
    std::vector<Accum> cracks, branches, junctions;
    BorderLine top, bottom, left, right;
    cv::Mat layer; // core-sized width-class layer (CV_8U) when painted; empty = all background

    // Moved, never copied (the accumulators own their branches); noexcept so that a vector of
    // tiles moves them when it grows (cv::Mat's move does not say noexcept).
    TileResult() = default;
    TileResult(TileResult&&) noexcept = default;
    TileResult& operator=(TileResult&&) noexcept = default;
};

struct TileParams {
    int threshold = 128;
    int closingRadius = 1;
    bool paintLayer = false;
    std::vector<double> classLimitsPx; // empty: every crack pixel is 1
    int minArea = 0;                   // specks inside the core below this are not painted
};

/// `region` is CV_8U, `core` the part of it this tile owns, `origin` the map position of the
/// region's top-left pixel. The region extends beyond the core by the margin wherever the map does.
TileResult analyzeTile(const cv::Mat& region, const cv::Rect& core, const cv::Point& origin,
                       const TileParams& params);

/// Width at a skeleton pixel from its distance-transform value (see measure.h).
inline double widthFromDistance(float dt)
{
    return std::max(1.0, 2.0 * double(dt) - 0.5);
}

} // namespace fisura::analysis
