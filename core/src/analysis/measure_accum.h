// Running statistics of one crack, branch or junction cluster while the map is read tile by
// tile; two accumulators of the same object (from two tiles) merge exactly.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "fisura/measure.h"

namespace fisura::analysis
{

inline constexpr double kWidthBinPx = 0.25;
inline constexpr int kWidthBins = 4096; // widths up to 1024 px; wider ones share the last bin

/// A skeleton pixel of a branch, for its centre line: map position, width, and how far the crack
/// goes on beyond it when it is a free end (0 elsewhere).
struct PathPixel {
    int x = 0, y = 0;
    float width = 0, endExtension = 0;
};

/// A closed branch of a crack: where its record is in the merger's BranchList, and its box (the
/// branches of a crack are put in order by the box's top-left corner).
struct BranchRef {
    PixelBox box;
    uint32_t index = 0;
};

struct Accum {
    double length = 0; // corner-corrected chain-code length (px)
    uint64_t skeletonPixels = 0;
    uint64_t area = 0;                                // mask pixels (cracks only)
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0; // skeleton pixel moments
    double ax = 0, ay = 0; // sums of mask pixel coordinates (cracks only)
    int minX = INT_MAX, minY = INT_MAX, maxX = INT_MIN, maxY = INT_MIN;
    double widthSum = 0;
    double widthMax = 0;
    std::vector<uint32_t> hist; // widths in kWidthBinPx bins, grown on demand
    int ends = 0, junctions = 0, branches = 0;
    int crack = 0; // branches and junctions: the crack they belong to
    // Cracks: their complete branches (20 bytes each; the records are in the merger's list).
    // Made on the first branch, as most accumulators are branches and junctions.
    std::unique_ptr<std::vector<BranchRef>> finished;
    std::vector<PathPixel> path; // branches: their skeleton pixels, in no order

    void addBox(int x0, int y0, int x1, int y1)
    {
        minX = std::min(minX, x0);
        minY = std::min(minY, y0);
        maxX = std::max(maxX, x1);
        maxY = std::max(maxY, y1);
    }
    void addSkeletonPixel(int x, int y, double width)
    {
        ++skeletonPixels;
        const double fx = x, fy = y;
        sx += fx;
        sy += fy;
        sxx += fx * fx;
        sxy += fx * fy;
        syy += fy * fy;
        widthSum += width;
        widthMax = std::max(widthMax, width);
        const int bin = std::min(kWidthBins - 1, std::max(0, int(width / kWidthBinPx)));
        if (int(hist.size()) <= bin)
            hist.resize(size_t(bin) + 1, 0);
        ++hist[size_t(bin)];
    }
    void merge(Accum&& o)
    {
        length += o.length;
        skeletonPixels += o.skeletonPixels;
        area += o.area;
        sx += o.sx;
        sy += o.sy;
        sxx += o.sxx;
        sxy += o.sxy;
        syy += o.syy;
        ax += o.ax;
        ay += o.ay;
        if (o.maxX >= o.minX)
            addBox(o.minX, o.minY, o.maxX, o.maxY);
        widthSum += o.widthSum;
        widthMax = std::max(widthMax, o.widthMax);
        if (hist.size() < o.hist.size())
            hist.resize(o.hist.size(), 0);
        for (size_t i = 0; i < o.hist.size(); ++i)
            hist[i] += o.hist[i];
        ends += o.ends;
        junctions += o.junctions;
        branches += o.branches;
        if (path.empty())
            path = std::move(o.path);
        else
            path.insert(path.end(), o.path.begin(), o.path.end());
        if (!finished || (o.finished && o.finished->size() > finished->size()))
            finished.swap(o.finished); // the smaller list joins the larger (order comes later)
        if (o.finished)
            finished->insert(finished->end(), o.finished->begin(), o.finished->end());
        o = Accum();
    }
};

struct CentreLine {
    std::vector<CentrePoint> line;
    /// Vertex ranges, class (of `classLimitsPx`) and px widths; lengthPx is the length of the
    /// segment's line (the caller scales it to the branch's length). Ids and mm are set later.
    std::vector<BranchSegment> segments;
};

/// The pixels of one branch (an m-connected chain) as a centre line from one end to the other,
/// free ends extended, simplified to within half a pixel (see CrackBranch::centreLine), cut into
/// segments where the width class changes (`classLimitsPx`: the class limits in px, empty
/// without a pixel size). The cuts are vertices of the simplified line.
CentreLine orderCentreLine(std::vector<PathPixel>&& pixels,
                           const std::vector<double>& classLimitsPx);

/// Width statistics in px from an accumulator (mm fields left for the caller).
WidthStats widthStatsPx(const Accum& a);
/// Principal-axis orientation of the skeleton pixels, 0..180 degrees counter-clockwise on screen.
double orientationDeg(const Accum& a);

} // namespace fisura::analysis
