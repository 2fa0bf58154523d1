// The centre lines a change is drawn by (CrackChange::lines, grownLines), bounded in points.
#pragma once

#include <functional>
#include <vector>

#include "fisura/change.h"

namespace fisura::change_detail
{

using Lines = std::vector<std::vector<CentrePoint>>;

/// Keeps at most `maxPoints` points over `lines`: every n-th vertex of each line and its last
/// one; when even their ends do not fit, the lines with the fewest vertices are dropped.
void boundLines(Lines& lines, size_t maxPoints);

/// The stretches of `lines`, followed in steps of at most 1 px, where `near(x, y)` is false
/// (runs of at least 2 points).
Lines farStretches(const Lines& lines, const std::function<bool(double, double)>& near);

/// Fills `lines` (and, for grown changes, `grownLines`) of every change in `r` from the branches
/// of its cracks. `nearBefore(x, y)`: a before crack's centre line is within the tolerance.
void attachChangeLines(ChangeResult& r, const std::function<bool(double, double)>& nearBefore);

} // namespace fisura::change_detail
