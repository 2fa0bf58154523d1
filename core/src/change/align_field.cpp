// The correction field: where the surface was not planar, the refinement windows' shifts against
// the global model vary smoothly over the scan. They are placed on the window grid, outliers
// against a plane through their neighbours are rejected one at a time (worst first), gaps are
// filled from their neighbours, and a ring of nodes at the scan's border is extrapolated
// linearly, so that bilinear interpolation covers the whole before scan. The field is used when
// its cross-validated residual (each window predicted from its neighbours alone) is materially
// below the model's.
#include <algorithm>
#include <cmath>
#include <optional>

#include "change/change_internal.h"

namespace fisura::change_detail
{

namespace
{
constexpr double kMinOutlierPx = 1.5;    // deviations below are never outliers
constexpr double kMinGainPx = 0.3;       // the field must lower the residual by this much ...
constexpr double kMaxRatio = 0.7;        // ... and to this share of the model's
constexpr double kMinCorrectionPx = 0.5; // a smaller field is trivial
constexpr int kMinNodes = 4;

/// The shifts on the window grid: nx x ny nodes, some unmeasured.
struct Grid {
    int nx = 0, ny = 0;
    std::vector<double> xs, ys;
    std::vector<std::optional<cv::Point2d>> d;
    std::optional<cv::Point2d>& at(int i, int j) { return d[size_t(j * nx + i)]; }
    const std::optional<cv::Point2d>& at(int i, int j) const { return d[size_t(j * nx + i)]; }
};

int nearestIndex(const std::vector<double>& v, double x)
{
    const auto it = std::lower_bound(v.begin(), v.end(), x - 0.25);
    return it != v.end() && std::abs(*it - x) <= 0.25 ? int(it - v.begin()) : -1;
}

/// Node (i, j) predicted from its measured 8-neighbours: a least-squares plane through them
/// (their mean when they are too few or collinear); nullopt without neighbours.
std::optional<cv::Point2d> predicted(const Grid& g, int i, int j)
{
    std::vector<cv::Point2d> pts; // neighbour positions relative to the node
    std::vector<cv::Point2d> val;
    for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
            const int a = i + di, b = j + dj;
            if ((di == 0 && dj == 0) || a < 0 || b < 0 || a >= g.nx || b >= g.ny || !g.at(a, b))
                continue;
            pts.push_back({g.xs[size_t(a)] - g.xs[size_t(i)], g.ys[size_t(b)] - g.ys[size_t(j)]});
            val.push_back(*g.at(a, b));
        }
    if (pts.empty())
        return std::nullopt;
    cv::Point2d mean(0, 0);
    for (const auto& v : val)
        mean += v;
    mean /= double(val.size());
    if (pts.size() < 3)
        return mean;
    cv::Mat A(int(pts.size()), 3, CV_64F), B(int(pts.size()), 2, CV_64F);
    for (int k = 0; k < A.rows; ++k) {
        A.at<double>(k, 0) = 1;
        A.at<double>(k, 1) = pts[size_t(k)].x;
        A.at<double>(k, 2) = pts[size_t(k)].y;
        B.at<double>(k, 0) = val[size_t(k)].x;
        B.at<double>(k, 1) = val[size_t(k)].y;
    }
    cv::Mat X;
    const cv::Mat w = cv::SVD(A, cv::SVD::NO_UV).w;
    if (w.at<double>(2) < 1e-6 * w.at<double>(0) || !cv::solve(A, B, X, cv::DECOMP_SVD))
        return mean;                                            // collinear neighbours: no plane
    return cv::Point2d(X.at<double>(0, 0), X.at<double>(0, 1)); // the plane at the node
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    return v[v.size() / 2];
}

/// Each measured node's deviation from its prediction (-1: no neighbours).
std::vector<double> deviations(const Grid& g)
{
    std::vector<double> dev(g.d.size(), -1);
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            if (g.at(i, j))
                if (const auto p = predicted(g, i, j))
                    dev[size_t(j * g.nx + i)] = cv::norm(*g.at(i, j) - *p);
    return dev;
}

/// Removes outliers, worst first: each pass drops every node whose deviation exceeds
/// max(kMinOutlierPx, 3 robust sigmas) and is the largest among its 8-neighbours (an outlier
/// also spoils its neighbours' predictions), until none exceeds it. Returns how many went.
int rejectOutliers(Grid& g)
{
    int rejected = 0;
    for (;;) {
        const std::vector<double> dev = deviations(g);
        std::vector<double> known;
        for (double v : dev)
            if (v >= 0)
                known.push_back(v);
        if (known.size() < size_t(kMinNodes))
            return rejected;
        const double limit = std::max(kMinOutlierPx, 3 * 1.4826 * median(known));
        std::vector<size_t> drop;
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
                const double v = dev[size_t(j * g.nx + i)];
                bool worst = v > limit;
                for (int b = std::max(0, j - 1); worst && b <= std::min(g.ny - 1, j + 1); ++b)
                    for (int a = std::max(0, i - 1); a <= std::min(g.nx - 1, i + 1); ++a)
                        worst = worst && dev[size_t(b * g.nx + a)] <= v;
                if (worst)
                    drop.push_back(size_t(j * g.nx + i));
            }
        if (drop.empty())
            return rejected;
        for (size_t k : drop)
            g.d[k].reset();
        rejected += int(drop.size());
    }
}

cv::Point2d capped(cv::Point2d v, double cap)
{
    const double len = cv::norm(v);
    return len > cap ? v * (cap / len) : v;
}

/// Unmeasured nodes take the plane through their known 8-neighbours (at most `cap` long), ring
/// by ring inwards.
void fillGaps(Grid& g, double cap)
{
    for (bool missing = true; missing;) {
        missing = false;
        Grid next = g;
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
                if (g.at(i, j))
                    continue;
                if (const auto p = predicted(g, i, j))
                    next.at(i, j) = capped(*p, cap);
                else
                    missing = true;
            }
        g = std::move(next);
    }
}

/// Linear extrapolation from v1 (at x1) and v2 (at x2) to x, its length at most `cap`.
cv::Point2d extrapolate(cv::Point2d v1, double x1, cv::Point2d v2, double x2, double x, double cap)
{
    return capped(x2 != x1 ? v1 + (v1 - v2) * ((x - x1) / (x1 - x2)) : v1, cap);
}

/// The field's nodes with a ring at the scan's border (0 and extent - 1) where the windows'
/// centres stop short of it.
CorrectionField padded(const Grid& g, int bw, int bh, double cap)
{
    const bool left = g.xs.front() > 0, right = g.xs.back() < bw - 1;
    const bool top = g.ys.front() > 0, bottom = g.ys.back() < bh - 1;
    CorrectionField f;
    if (left)
        f.xs.push_back(0);
    f.xs.insert(f.xs.end(), g.xs.begin(), g.xs.end());
    if (right)
        f.xs.push_back(bw - 1);
    if (top)
        f.ys.push_back(0);
    f.ys.insert(f.ys.end(), g.ys.begin(), g.ys.end());
    if (bottom)
        f.ys.push_back(bh - 1);
    const int nx = int(f.xs.size()), ny = int(f.ys.size());
    std::vector<cv::Point2d> v(size_t(nx * ny));
    const auto V = [&](int i, int j) -> cv::Point2d& { return v[size_t(j * nx + i)]; };
    const int ox = left ? 1 : 0, oy = top ? 1 : 0;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            V(i + ox, j + oy) = *g.at(i, j);
    const auto X = [&](int i) { return f.xs[size_t(i)]; };
    const auto Y = [&](int j) { return f.ys[size_t(j)]; };
    for (int j = oy; j < oy + g.ny; ++j) { // the columns at the border, in the measured rows
        const int a = ox, b = std::min(ox + 1, ox + g.nx - 1), c = ox + g.nx - 1;
        const int d = std::max(ox, c - 1);
        if (left)
            V(0, j) = extrapolate(V(a, j), X(a), V(b, j), X(b), X(0), cap);
        if (right)
            V(nx - 1, j) = extrapolate(V(c, j), X(c), V(d, j), X(d), X(nx - 1), cap);
    }
    for (int i = 0; i < nx; ++i) { // then the rows at the border, every column
        const int a = oy, b = std::min(oy + 1, oy + g.ny - 1), c = oy + g.ny - 1;
        const int d = std::max(oy, c - 1);
        if (top)
            V(i, 0) = extrapolate(V(i, a), Y(a), V(i, b), Y(b), Y(0), cap);
        if (bottom)
            V(i, ny - 1) = extrapolate(V(i, c), Y(c), V(i, d), Y(d), Y(ny - 1), cap);
    }
    for (const auto& p : v) {
        f.dx.push_back(p.x);
        f.dy.push_back(p.y);
        f.maxPx = std::max(f.maxPx, cv::norm(p));
    }
    return f;
}

/// The measured shifts against H (after -> before) on the window grid.
Grid measuredGrid(const cv::Mat& H, const Pairs& refined, const AlignOptions& o, int bw, int bh)
{
    const int n = std::max(1, o.regionGrid * o.windowsPerRegion);
    const int size = std::min({o.windowPx, bw, bh});
    Grid g;
    g.xs = windowCentres(bw, n, size);
    g.ys = windowCentres(bh, n, size);
    g.nx = int(g.xs.size()), g.ny = int(g.ys.size());
    g.d.assign(size_t(g.nx * g.ny), std::nullopt);
    for (size_t k = 0; k < refined.before.size(); ++k) {
        const int i = nearestIndex(g.xs, refined.before[k].x);
        const int j = nearestIndex(g.ys, refined.before[k].y);
        if (i >= 0 && j >= 0)
            g.at(i, j) = apply(H, refined.after[k]) - refined.before[k];
    }
    return g;
}
} // namespace

std::vector<double> windowCentres(int extent, int n, int size)
{
    std::vector<double> c;
    for (int i = 0; i < n; ++i) {
        const double x =
            std::clamp(int((i + 0.5) * extent / n) - size / 2, 0, extent - size) + (size - 1) / 2.0;
        if (c.empty() || x > c.back())
            c.push_back(x);
    }
    return c;
}

CorrectionField fitField(const cv::Mat& H, const Pairs& refined, const AlignOptions& o, int bw,
                         int bh)
{
    Grid g = measuredGrid(H, refined, o, bw, bh);
    CorrectionField none;
    for (const auto& d : g.d)
        none.nodes += d.has_value();
    if (none.nodes < kMinNodes)
        return none;
    none.rejected = rejectOutliers(g);
    double before = 0, after = 0, cap = 0;
    int n = 0, predictedCount = 0;
    const std::vector<double> dev = deviations(g);
    for (size_t k = 0; k < g.d.size(); ++k) {
        if (!g.d[k])
            continue;
        before += g.d[k]->dot(*g.d[k]), ++n;
        cap = std::max(cap, cv::norm(*g.d[k]));
        if (dev[k] >= 0)
            after += dev[k] * dev[k], ++predictedCount;
    }
    if (n < kMinNodes || predictedCount < kMinNodes)
        return none;
    fillGaps(g, cap);
    CorrectionField f = padded(g, bw, bh, cap);
    f.nodes = none.nodes;
    f.rejected = none.rejected;
    f.rmsBeforePx = std::sqrt(before / n);
    f.rmsAfterPx = std::sqrt(after / predictedCount);
    f.used = f.rmsAfterPx <= kMaxRatio * f.rmsBeforePx &&
             f.rmsBeforePx - f.rmsAfterPx >= kMinGainPx && f.maxPx >= kMinCorrectionPx;
    return f;
}

namespace
{
/// Index k and weight t with v[k] <= x <= v[k + 1], x = (1 - t) v[k] + t v[k + 1]; clamped.
std::pair<int, double> bracket(const std::vector<double>& v, double x)
{
    if (v.size() < 2 || x <= v.front())
        return {0, 0.0};
    if (x >= v.back())
        return {int(v.size()) - 2, 1.0};
    const int k = int(std::upper_bound(v.begin(), v.end(), x) - v.begin()) - 1;
    return {k, (x - v[size_t(k)]) / (v[size_t(k) + 1] - v[size_t(k)])};
}

/// The field bilinear between the nodes at column bracket (i, tx) and row bracket (j, ty).
cv::Point2d sample(const CorrectionField& f, std::pair<int, double> c, std::pair<int, double> r)
{
    const int nx = int(f.xs.size()), ny = int(f.ys.size());
    const auto [i, tx] = c;
    const auto [j, ty] = r;
    const int i1 = std::min(i + 1, nx - 1), j1 = std::min(j + 1, ny - 1);
    const auto lerp = [&](const std::vector<double>& v) {
        const double top = (1 - tx) * v[size_t(j * nx + i)] + tx * v[size_t(j * nx + i1)];
        const double bottom = (1 - tx) * v[size_t(j1 * nx + i)] + tx * v[size_t(j1 * nx + i1)];
        return (1 - ty) * top + ty * bottom;
    };
    return {lerp(f.dx), lerp(f.dy)};
}
} // namespace

cv::Point2d fieldAt(const CorrectionField& f, double x, double y)
{
    if (f.xs.empty() || f.ys.empty())
        return {0, 0};
    return sample(f, bracket(f.xs, x), bracket(f.ys, y));
}

void fieldTile(const CorrectionField& f, int x0, int y0, int w, int h, cv::Mat& dx, cv::Mat& dy)
{
    dx.create(h, w, CV_32F);
    dy.create(h, w, CV_32F);
    std::vector<std::pair<int, double>> cols(static_cast<size_t>(w));
    for (int x = 0; x < w; ++x)
        cols[size_t(x)] = bracket(f.xs, x0 + x);
    for (int y = 0; y < h; ++y) {
        const auto row = bracket(f.ys, y0 + y);
        float* px = dx.ptr<float>(y);
        float* py = dy.ptr<float>(y);
        for (int x = 0; x < w; ++x) {
            const cv::Point2d d = sample(f, cols[size_t(x)], row);
            px[x] = float(d.x), py[x] = float(d.y);
        }
    }
}

} // namespace fisura::change_detail

namespace fisura
{

std::array<double, 2> afterPixelOf(const AlignResult& a, double x, double y)
{
    const cv::Mat H = cv::Mat(3, 3, CV_64F, const_cast<double*>(a.matrix.data())).clone();
    cv::Point2d p(x, y);
    if (a.field.used)
        p += change_detail::fieldAt(a.field, x, y);
    const cv::Point2d q = change_detail::apply(H.inv(), p);
    return {q.x, q.y};
}

} // namespace fisura
