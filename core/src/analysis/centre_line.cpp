// The centre line of a branch: its skeleton pixels (gathered tile by tile, in no order) walked
// from one end to the other, extended at free ends, and simplified.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "analysis/measure_accum.h"
#include "analysis/width_segments.h"

namespace fisura::analysis
{

namespace
{

// Half a pixel keeps the line on the skeleton pixels it came from (pixel-centre staircases of a
// straight crack become one segment).
constexpr double kSimplifyTolerancePx = 0.5;
// Direction of an extended free end: from this many vertices back, so one staircase step does
// not tilt it.
constexpr int kEndDirectionSpan = 6;

uint64_t key(int x, int y)
{
    return (uint64_t(uint32_t(y)) << 32) | uint32_t(x);
}

class PixelSet
{
public:
    explicit PixelSet(const std::vector<PathPixel>& px) : px_(px)
    {
        index_.reserve(px.size() * 2);
        for (size_t i = 0; i < px.size(); ++i)
            index_.emplace(key(px[i].x, px[i].y), int(i));
    }
    int at(int x, int y) const
    {
        const auto it = index_.find(key(x, y));
        return it == index_.end() ? -1 : it->second;
    }
    // m-adjacent neighbours within the branch (a diagonal one only without a two-step path).
    int neighbours(int i, int* out) const
    {
        const int x = px_[size_t(i)].x, y = px_[size_t(i)].y;
        int n = 0;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0)
                    continue;
                const int j = at(x + dx, y + dy);
                if (j < 0 || (dx != 0 && dy != 0 && (at(x + dx, y) >= 0 || at(x, y + dy) >= 0)))
                    continue;
                out[n++] = j;
            }
        return n;
    }

private:
    const std::vector<PathPixel>& px_;
    std::unordered_map<uint64_t, int> index_;
};

// An end (one neighbour) if there is one, else any pixel (a loop); the top-left such pixel, so
// that the direction does not depend on the order the tiles delivered the pixels in.
int startPixel(const std::vector<PathPixel>& px, const PixelSet& set)
{
    int best = -1, bestDegree = 9;
    int nb[8];
    for (int i = 0; i < int(px.size()); ++i) {
        const int d = std::min(2, set.neighbours(i, nb));
        const auto& p = px[size_t(i)];
        const auto& b = px[size_t(std::max(0, best))];
        if (best < 0 || d < bestDegree ||
            (d == bestDegree && std::tie(p.y, p.x) < std::tie(b.y, b.x))) {
            best = i;
            bestDegree = d;
        }
    }
    return best;
}

std::vector<int> walk(const std::vector<PathPixel>& px, const PixelSet& set, int start)
{
    std::vector<char> seen(px.size(), 0);
    std::vector<int> order{start};
    seen[size_t(start)] = 1;
    int nb[8];
    for (int cur = start;;) {
        const int n = set.neighbours(cur, nb);
        int next = -1;
        for (int k = 0; k < n && next < 0; ++k)
            if (!seen[size_t(nb[k])])
                next = nb[k];
        if (next < 0) {
            // A loop closes on its first pixel.
            for (int k = 0; k < n; ++k)
                if (nb[k] == start && order.size() > 2)
                    order.push_back(start);
            return order;
        }
        seen[size_t(next)] = 1;
        order.push_back(next);
        cur = next;
    }
}

// Moves an end vertex outwards along the line by `by` px.
void extend(std::vector<CentrePoint>& line, bool front, double by)
{
    if (line.size() < 2 || !(by > 0))
        return;
    const size_t n = line.size();
    const size_t span = std::min<size_t>(kEndDirectionSpan, n - 1);
    const CentrePoint& end = front ? line.front() : line.back();
    const CentrePoint& back = front ? line[span] : line[n - 1 - span];
    const double dx = end.x - back.x, dy = end.y - back.y, len = std::hypot(dx, dy);
    if (len <= 0)
        return;
    CentrePoint e = end;
    e.x += dx / len * by;
    e.y += dy / len * by;
    if (front)
        line.insert(line.begin(), e);
    else
        line.push_back(e);
}

// Douglas and Peucker (1973), with an explicit stack: a long winding branch must not recurse
// once per vertex.
void douglasPeucker(const std::vector<CentrePoint>& in, size_t first, size_t last,
                    std::vector<char>& keep)
{
    std::vector<std::pair<size_t, size_t>> todo{{first, last}};
    while (!todo.empty()) {
        const auto [a, b] = todo.back();
        todo.pop_back();
        if (b <= a + 1)
            continue;
        const double dx = in[b].x - in[a].x, dy = in[b].y - in[a].y;
        const double len = std::hypot(dx, dy);
        double worst = -1;
        size_t at = a;
        for (size_t i = a + 1; i < b; ++i) {
            const double ex = in[i].x - in[a].x, ey = in[i].y - in[a].y;
            const double d = len > 0 ? std::abs(ex * dy - ey * dx) / len : std::hypot(ex, ey);
            if (d > worst) {
                worst = d;
                at = i;
            }
        }
        if (worst <= kSimplifyTolerancePx)
            continue;
        keep[at] = 1;
        todo.push_back({a, at});
        todo.push_back({at, b});
    }
}

// The vertices kept by simplification: the ends, the cuts between segments and, on a loop, its
// farthest vertex (a loop's ends coincide), with Douglas-Peucker between consecutive ones.
std::vector<char> simplify(const std::vector<CentrePoint>& line, bool loop,
                           const std::vector<size_t>& cuts)
{
    std::vector<char> keep(line.size(), 0);
    keep.front() = keep.back() = 1;
    for (size_t c : cuts)
        keep[c] = 1;
    if (loop && line.size() > 3) {
        double far = -1;
        size_t mid = 0;
        for (size_t i = 1; i + 1 < line.size(); ++i)
            if (const double d = std::hypot(line[i].x - line[0].x, line[i].y - line[0].y);
                d > far) {
                far = d;
                mid = i;
            }
        keep[mid] = 1;
    }
    std::vector<size_t> fixed;
    for (size_t i = 0; i < line.size(); ++i)
        if (keep[i])
            fixed.push_back(i);
    for (size_t k = 1; k < fixed.size(); ++k)
        douglasPeucker(line, fixed[k - 1], fixed[k], keep);
    return keep;
}

double polylineLength(const std::vector<CentrePoint>& v, int first, int last)
{
    double len = 0;
    for (int i = first + 1; i <= last; ++i)
        len += std::hypot(v[size_t(i)].x - v[size_t(i - 1)].x, v[size_t(i)].y - v[size_t(i - 1)].y);
    return len;
}

} // namespace

CentreLine orderCentreLine(std::vector<PathPixel>&& pixels,
                           const std::vector<double>& classLimitsPx)
{
    if (pixels.empty())
        return {};
    const PixelSet set(pixels);
    const std::vector<int> order = walk(pixels, set, startPixel(pixels, set));
    std::vector<CentrePoint> line;
    std::vector<float> widths;
    line.reserve(order.size() + 2);
    widths.reserve(order.size());
    for (int i : order) {
        const auto& p = pixels[size_t(i)];
        line.push_back({p.x + 0.5, p.y + 0.5, double(p.width)});
        widths.push_back(p.width);
    }
    const bool loop = order.size() > 2 && order.front() == order.back();
    size_t front = 0; // vertices put before the first pixel
    if (!loop) {
        const size_t before = line.size();
        extend(line, true, pixels[size_t(order.front())].endExtension);
        front = line.size() - before;
        extend(line, false, pixels[size_t(order.back())].endExtension);
    }
    const std::vector<WidthRun> runs = widthRuns(widths, classLimitsPx);
    std::vector<size_t> cuts; // line indices where a segment begins (after the first)
    for (size_t k = 1; k < runs.size(); ++k)
        cuts.push_back(runs[k].begin + front);
    const std::vector<char> keep = simplify(line, loop, cuts);
    CentreLine out;
    std::vector<int> index(line.size(), -1); // line index -> vertex of the simplified line
    for (size_t i = 0; i < line.size(); ++i)
        if (keep[i]) {
            index[i] = int(out.line.size());
            out.line.push_back(line[i]);
        }
    for (size_t k = 0; k < runs.size(); ++k) {
        BranchSegment s;
        s.firstVertex = k == 0 ? 0 : index[cuts[k - 1]];
        s.lastVertex = k + 1 < runs.size() ? index[cuts[k]] : int(out.line.size()) - 1;
        s.width = widthStatsOf(widths, runs[k].begin, runs[k].end);
        s.widthClass = runs[k].widthClass;
        s.lengthPx = polylineLength(out.line, s.firstVertex, s.lastVertex);
        out.segments.push_back(s);
    }
    return out;
}

} // namespace fisura::analysis
