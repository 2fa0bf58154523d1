// Exact rasterisation of the labelling tools (plain C++): which pixels a stroke covers.
//
// A pixel (i, j) is covered by a stroke of radius r when its centre (i + 0.5, j + 0.5) lies
// within r of one of the stroke's segments (round caps and joins). The capsule around a segment
// is convex, so each image row meets it in one interval, computed in closed form; a row of the
// stroke is the union of its segments' intervals. Cost follows the rows a stroke crosses, never
// its bounding box.
#pragma once

#include <functional>
#include <vector>

#include "fisura/labels.h"

namespace fisura::labels
{

/// Tolerance added to the radius, so centres exactly on the edge count as inside on every
/// platform (the brute-force reference in the tests uses the same).
constexpr double kEdgeEpsilon = 1e-9;

/// Calls `span(y, x0, x1)` (inclusive pixel columns, x0 <= x1, clipped to width x height) for
/// every interval of every row that the capsules of `points` with radius `radius` cover.
/// Intervals of one row may overlap (one per segment).
void rasterStroke(const std::vector<LabelPoint>& points, double radius, int width, int height,
                  const std::function<void(int y, int x0, int x1)>& span);

/// Squared distance from (px, py) to the segment a-b (a point when a == b).
double distanceSquaredToSegment(double px, double py, LabelPoint a, LabelPoint b);

} // namespace fisura::labels
