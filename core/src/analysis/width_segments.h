// Where the width class changes along a branch: runs of skeleton pixels (in walk order) whose
// smoothed width stays in one class (see BranchSegment in fisura/measure.h).
#pragma once

#include <cstddef>
#include <vector>

#include "fisura/measure.h"

namespace fisura::analysis
{

struct WidthRun {
    size_t begin = 0, end = 0; // pixels [begin, end) of the walk
    int widthClass = -1;
};

/// The class runs of `widths` (px, in walk order) under `limitsPx` (ascending upper limits of
/// the classes in px; empty: one run of class -1). Widths are smoothed by a running median over
/// kSegmentMedianPixels, and a run shorter than kMinSegmentPixels joins its longer neighbour.
std::vector<WidthRun> widthRuns(const std::vector<float>& widths,
                                const std::vector<double>& limitsPx);

/// Mean, median and max (px) of widths[begin, end).
WidthStats widthStatsOf(const std::vector<float>& widths, size_t begin, size_t end);

inline constexpr int kSegmentMedianPixels = 7;
inline constexpr size_t kMinSegmentPixels = 8;

} // namespace fisura::analysis
