// Exact stroke rasterisation; see label_raster.h.
#include "label_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fisura::labels
{

namespace
{

struct Interval {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    bool empty() const { return lo > hi; }
    void unite(double a, double b)
    {
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    }
};

/// x with lo <= a*x + b <= hi, intersected into [xlo, xhi].
void clampLinear(double a, double b, double lo, double hi, double& xlo, double& xhi)
{
    if (a == 0) {
        if (b < lo || b > hi) {
            xlo = 1;
            xhi = 0;
        }
        return;
    }
    double u = (lo - b) / a, v = (hi - b) / a;
    if (u > v)
        std::swap(u, v);
    xlo = std::max(xlo, u);
    xhi = std::min(xhi, v);
}

/// Centres x on the line y = cy within r of segment a-b: one interval (the capsule is convex,
/// and it is the union of the two end discs and the band between them).
Interval capsuleRow(LabelPoint a, LabelPoint b, double r, double cy)
{
    Interval out;
    for (const LabelPoint& p : {a, b}) {
        const double dy = cy - p.y;
        if (dy * dy <= r * r) {
            const double half = std::sqrt(r * r - dy * dy);
            out.unite(p.x - half, p.x + half);
        }
    }
    const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    if (l2 > 0) {
        // 0 <= (P - a).d <= |d|^2  and  |(P - a) x d| <= r |d|, both linear in x.
        double xlo = -std::numeric_limits<double>::infinity();
        double xhi = std::numeric_limits<double>::infinity();
        clampLinear(dx, -a.x * dx + (cy - a.y) * dy, 0, l2, xlo, xhi);
        const double rl = r * std::sqrt(l2);
        clampLinear(dy, -a.x * dy - (cy - a.y) * dx, -rl, rl, xlo, xhi);
        if (xlo <= xhi)
            out.unite(xlo, xhi);
    }
    return out;
}

} // namespace

double distanceSquaredToSegment(double px, double py, LabelPoint a, LabelPoint b)
{
    const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / l2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double qx = a.x + t * dx - px, qy = a.y + t * dy - py;
    return qx * qx + qy * qy;
}

void rasterStroke(const std::vector<LabelPoint>& points, double radius, int width, int height,
                  const std::function<void(int, int, int)>& span)
{
    if (points.empty() || radius <= 0 || width <= 0 || height <= 0)
        return;
    const double r = radius + kEdgeEpsilon;
    const size_t segments = points.size() == 1 ? 1 : points.size() - 1;
    for (size_t s = 0; s < segments; ++s) {
        const LabelPoint a = points[s];
        const LabelPoint b = points.size() == 1 ? a : points[s + 1];
        if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(b.x) ||
            !std::isfinite(b.y))
            continue;
        // Rows whose centre y + 0.5 lies within [min y - r, max y + r].
        const double ylo = std::min(a.y, b.y) - r, yhi = std::max(a.y, b.y) + r;
        const int y0 = std::max(0, int(std::ceil(std::max(-1.0, ylo - 0.5))));
        const int y1 = std::min(height - 1, int(std::floor(std::min(double(height), yhi - 0.5))));
        for (int y = y0; y <= y1; ++y) {
            const Interval iv = capsuleRow(a, b, r, y + 0.5);
            if (iv.empty())
                continue;
            const double xlo = std::ceil(std::max(-1.0, iv.lo - 0.5));
            const double xhi = std::floor(std::min(double(width), iv.hi - 0.5));
            const int x0 = std::max(0, int(xlo)), x1 = std::min(width - 1, int(xhi));
            if (x0 <= x1)
                span(y, x0, x1);
        }
    }
}

} // namespace fisura::labels
