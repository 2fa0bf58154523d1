#include "analysis/measure_tile.h"

#include <numeric>

#include <opencv2/imgproc.hpp>

#include "analysis/thinning.h"

namespace fisura::analysis
{

namespace
{

// Vossepoel and Smeulders (1982), "Vector code probability and metrication error in the
// representation of straight lines of finite length", CGIP 20: corner-count length estimator.
constexpr double kStraightStep = 0.980;
constexpr double kDiagonalStep = 1.406;
constexpr double kCorner = 0.091;

struct SkelPixel {
    int x, y;         // core coordinates
    float halfLength; // half of its edges, corner correction included
    float width;
    float endExtension; // a free end: how far the crack goes on beyond the pixel's centre
    uint8_t degree;
};

int findRoot(std::vector<int>& parent, int a)
{
    while (parent[size_t(a)] != a) {
        parent[size_t(a)] = parent[size_t(parent[size_t(a)])];
        a = parent[size_t(a)];
    }
    return a;
}

void unite(std::vector<int>& parent, int a, int b)
{
    a = findRoot(parent, a);
    b = findRoot(parent, b);
    if (a != b)
        parent[size_t(std::max(a, b))] = std::min(a, b);
}

// m-adjacent skeleton neighbours of (x, y) (a diagonal one only without a two-step path).
int neighbours(const cv::Mat& skel, int x, int y, cv::Point* out)
{
    auto on = [&](int yy, int xx) {
        return yy >= 0 && xx >= 0 && yy < skel.rows && xx < skel.cols &&
               skel.at<uint8_t>(yy, xx) != 0;
    };
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || !on(y + dy, x + dx))
                continue;
            if (dx != 0 && dy != 0 && (on(y + dy, x) || on(y, x + dx)))
                continue;
            out[n++] = cv::Point(x + dx, y + dy);
        }
    return n;
}

// Removes spurs: end branches that stay within the crack's width at the junction they leave
// (at most 2 x its distance to the background), the corners a thinning leaves at blunt ends.
// All spurs are found first and removed together, so the result does not depend on scan order.
void pruneSpurs(cv::Mat& skel, const cv::Mat& dt)
{
    std::vector<cv::Point> doomed;
    cv::Point nb[8];
    const int maxSteps = 2 * 1024;
    for (int y = 0; y < skel.rows; ++y)
        for (int x = 0; x < skel.cols; ++x) {
            if (!skel.at<uint8_t>(y, x) || neighbours(skel, x, y, nb) != 1)
                continue;
            std::vector<cv::Point> path{cv::Point(x, y)};
            cv::Point prev(-1, -1), cur(x, y), next = nb[0];
            for (int steps = 1; steps < maxSteps; ++steps) {
                const int n = neighbours(skel, next.x, next.y, nb);
                if (next.x == 0 || next.y == 0 || next.x == skel.cols - 1 ||
                    next.y == skel.rows - 1)
                    break; // leaves the region: not known to be a spur
                if (n >= 3) {
                    if (double(steps) <= 2.0 * dt.at<float>(next.y, next.x))
                        doomed.insert(doomed.end(), path.begin(), path.end());
                    break;
                }
                if (n != 2)
                    break; // the other end: an isolated piece, not a spur
                const cv::Point after = nb[0] == cur ? nb[1] : nb[0];
                if (double(steps) > 2.0 * dt.at<float>(next.y, next.x) + 2)
                    break; // already longer than any junction nearby could excuse
                path.push_back(next);
                prev = cur;
                cur = next;
                next = after;
            }
        }
    for (const auto& p : doomed)
        skel.at<uint8_t>(p.y, p.x) = 0;
}

// Skeleton pixels of the core with their m-adjacent degree and share of the length.
std::vector<SkelPixel> skeletonPixels(const cv::Mat& skel, const cv::Mat& dt, const cv::Rect& core,
                                      cv::Mat& state)
{
    std::vector<SkelPixel> out;
    state = cv::Mat::zeros(core.size(), CV_8U);
    auto on = [&](int y, int x) {
        return y >= 0 && x >= 0 && y < skel.rows && x < skel.cols && skel.at<uint8_t>(y, x) != 0;
    };
    for (int cy = 0; cy < core.height; ++cy) {
        const int y = cy + core.y;
        const uint8_t* row = skel.ptr<uint8_t>(y);
        for (int cx = 0; cx < core.width; ++cx) {
            const int x = cx + core.x;
            if (!row[x])
                continue;
            int straight = 0, diagonal = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    if ((dx == 0 && dy == 0) || !on(y + dy, x + dx))
                        continue;
                    if (dx == 0 || dy == 0)
                        ++straight;
                    else if (!on(y + dy, x) && !on(y, x + dx))
                        ++diagonal; // m-adjacency: no two-step path around the corner
                }
            const int degree = straight + diagonal;
            double half = 0.5 * (kStraightStep * straight + kDiagonalStep * diagonal);
            if (degree == 2 && straight == 1)
                half -= kCorner;
            double extension = 0;
            if (degree == 1) // the crack goes on to the mask's edge beyond a skeleton end
                extension = std::max(0.0, double(dt.at<float>(y, x)) - 0.5);
            half += extension;
            out.push_back({cx, cy, float(half), float(widthFromDistance(dt.at<float>(y, x))),
                           float(extension), uint8_t(degree)});
            state.at<uint8_t>(cy, cx) = degree >= 3 ? kJunction : kSkeleton;
        }
    }
    return out;
}

// Branch labels (m-connected non-junction pixels) and junction-cluster labels (8-connected
// junction pixels) of the core; returns the number of each.
std::pair<int, int> labelSkeleton(const cv::Mat& state, const std::vector<SkelPixel>& pixels,
                                  cv::Mat& branchLabels, cv::Mat& junctionLabels)
{
    cv::Mat provisional = cv::Mat::zeros(state.size(), CV_32S);
    std::vector<int> parent(pixels.size() + 1);
    std::iota(parent.begin(), parent.end(), 0);
    auto st = [&](int y, int x) -> uint8_t {
        return (y >= 0 && x >= 0 && x < state.cols) ? state.at<uint8_t>(y, x) : uint8_t(kNone);
    };
    int next = 1;
    for (const auto& p : pixels) {
        const uint8_t s = state.at<uint8_t>(p.y, p.x);
        const int me = next++;
        provisional.at<int>(p.y, p.x) = me;
        const int nb[4][2] = {{-1, 0}, {-1, -1}, {0, -1}, {1, -1}}; // W, NW, N, NE as (dx, dy)
        for (const auto& d : nb) {
            const int nx = p.x + d[0], ny = p.y + d[1];
            const uint8_t t = st(ny, nx);
            if (t != s || t == kNone)
                continue;
            if (s == kSkeleton && d[0] != 0 && d[1] != 0 &&
                (st(ny, p.x) != kNone || st(p.y, nx) != kNone))
                continue; // diagonal with a two-step path: not m-adjacent
            unite(parent, me, provisional.at<int>(ny, nx));
        }
    }
    branchLabels = cv::Mat::zeros(state.size(), CV_32S);
    junctionLabels = cv::Mat::zeros(state.size(), CV_32S);
    std::vector<int> compact(parent.size(), 0);
    int branches = 0, junctions = 0;
    for (const auto& p : pixels) {
        const int root = findRoot(parent, provisional.at<int>(p.y, p.x));
        const bool junction = state.at<uint8_t>(p.y, p.x) == kJunction;
        if (!compact[size_t(root)])
            compact[size_t(root)] = junction ? ++junctions : ++branches;
        (junction ? junctionLabels : branchLabels).at<int>(p.y, p.x) = compact[size_t(root)];
    }
    return {branches, junctions};
}

void fillBorder(BorderLine& line, const cv::Mat& skel, const cv::Rect& core, bool horizontal,
                int index, const cv::Mat& cracks, const cv::Mat& state, const cv::Mat& branches,
                const cv::Mat& junctions)
{
    const int n = horizontal ? core.width : core.height;
    line.resize(n);
    for (int k = -1; k <= n; ++k) {
        const int cx = horizontal ? k : index, cy = horizontal ? index : k;
        const int x = cx + core.x, y = cy + core.y;
        if (k < 0 || k >= n) {
            // Beyond the core: the overlap margin's skeleton (degree not needed there).
            if (x >= 0 && y >= 0 && x < skel.cols && y < skel.rows && skel.at<uint8_t>(y, x))
                line.state[size_t(k + 1)] = kSkeleton;
            continue;
        }
        line.state[size_t(k + 1)] = state.at<uint8_t>(cy, cx);
        line.crack[size_t(k)] = cracks.at<int>(cy, cx);
        line.branch[size_t(k)] = branches.at<int>(cy, cx);
        line.junction[size_t(k)] = junctions.at<int>(cy, cx);
    }
}

// Each crack pixel gets 1 + the width class of its nearest skeleton pixel (OpenCV labels the
// zero pixels of a distance transform's input in raster order, so label k is the k-th skeleton
// pixel of `area`). Specks that the minimum area will drop are left out when they lie wholly
// inside the core; a speck crossing a tile border may still show.
cv::Mat paintLayer(const cv::Mat& mask, const cv::Mat& skel, const cv::Mat& dt,
                   const cv::Rect& area, const cv::Rect& core, const cv::Mat& crackLabels,
                   const cv::Mat& stats, const TileParams& params)
{
    cv::Mat layer = cv::Mat::zeros(core.size(), CV_8U);
    const cv::Mat notSkeleton = skel(area) == 0;
    cv::Mat dist, nearest;
    cv::distanceTransform(notSkeleton, dist, nearest, cv::DIST_L2, 3, cv::DIST_LABEL_PIXEL);
    std::vector<uint8_t> cls{0};
    for (int y = 0; y < area.height; ++y)
        for (int x = 0; x < area.width; ++x)
            if (skel.at<uint8_t>(y + area.y, x + area.x)) {
                const double w = widthFromDistance(dt.at<float>(y + area.y, x + area.x));
                int k = 0;
                while (k < int(params.classLimitsPx.size()) && w >= params.classLimitsPx[size_t(k)])
                    ++k;
                cls.push_back(uint8_t(1 + k));
            }
    std::vector<char> drop(size_t(stats.rows), 0);
    for (int i = 1; i < stats.rows; ++i) {
        const int* s = stats.ptr<int>(i);
        const bool inside = s[cv::CC_STAT_LEFT] > 0 && s[cv::CC_STAT_TOP] > 0 &&
                            s[cv::CC_STAT_LEFT] + s[cv::CC_STAT_WIDTH] < core.width &&
                            s[cv::CC_STAT_TOP] + s[cv::CC_STAT_HEIGHT] < core.height;
        drop[size_t(i)] = inside && s[cv::CC_STAT_AREA] < params.minArea;
    }
    const cv::Rect inCore = area & core;
    for (int y = inCore.y; y < inCore.y + inCore.height; ++y)
        for (int x = inCore.x; x < inCore.x + inCore.width; ++x) {
            if (!mask.at<uint8_t>(y, x))
                continue;
            const int label = crackLabels.at<int>(y - core.y, x - core.x);
            const int n = nearest.at<int>(y - area.y, x - area.x);
            if (label > 0 && !drop[size_t(label)] && n > 0 && n < int(cls.size()))
                layer.at<uint8_t>(y - core.y, x - core.x) = cls[size_t(n)];
        }
    return layer;
}

} // namespace

TileResult analyzeTile(const cv::Mat& region, const cv::Rect& core, const cv::Point& origin,
                       const TileParams& params)
{
    TileResult r;
    r.x0 = origin.x + core.x;
    r.y0 = origin.y + core.y;
    r.width = core.width;
    r.height = core.height;
    cv::Mat mask;
    cv::compare(region, params.threshold, mask, cv::CMP_GE);
    if (cv::countNonZero(mask) == 0) {
        r.top.resize(core.width);
        r.bottom.resize(core.width);
        r.left.resize(core.height);
        r.right.resize(core.height);
        return r;
    }
    if (params.closingRadius > 0) {
        const int k = 2 * params.closingRadius + 1;
        cv::morphologyEx(mask, mask, cv::MORPH_CLOSE,
                         cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k, k)));
    }
    // Distances and thinning only where there is crack (plus a background frame): sparse maps
    // skip most of each tile, with the same result.
    const cv::Rect area = (cv::boundingRect(mask) + cv::Size(2, 2) - cv::Point(1, 1)) &
                          cv::Rect(0, 0, mask.cols, mask.rows);
    cv::Mat dt = cv::Mat::zeros(mask.size(), CV_32F);
    cv::Mat skel = cv::Mat::zeros(mask.size(), CV_8U);
    cv::distanceTransform(mask(area), dt(area), cv::DIST_L2, cv::DIST_MASK_PRECISE, CV_32F);
    thin(mask(area)).copyTo(skel(area));
    pruneSpurs(skel, dt);

    // Cracks: 8-connected components of the cleaned mask in the core.
    cv::Mat crackLabels, stats, centroids;
    const int nCracks =
        cv::connectedComponentsWithStats(mask(core), crackLabels, stats, centroids, 8, CV_32S) - 1;
    r.cracks.resize(size_t(nCracks));
    for (int i = 0; i < nCracks; ++i) {
        Accum& a = r.cracks[size_t(i)];
        const int* s = stats.ptr<int>(i + 1);
        a.area = uint64_t(s[cv::CC_STAT_AREA]);
        a.addBox(r.x0 + s[cv::CC_STAT_LEFT], r.y0 + s[cv::CC_STAT_TOP],
                 r.x0 + s[cv::CC_STAT_LEFT] + s[cv::CC_STAT_WIDTH] - 1,
                 r.y0 + s[cv::CC_STAT_TOP] + s[cv::CC_STAT_HEIGHT] - 1);
        a.ax = (centroids.at<double>(i + 1, 0) + r.x0) * double(a.area);
        a.ay = (centroids.at<double>(i + 1, 1) + r.y0) * double(a.area);
    }

    if (params.paintLayer)
        r.layer = paintLayer(mask, skel, dt, area, core, crackLabels, stats, params);

    cv::Mat state, branchLabels, junctionLabels;
    const auto pixels = skeletonPixels(skel, dt, core, state);
    const auto [nBranches, nJunctions] = labelSkeleton(state, pixels, branchLabels, junctionLabels);
    r.branches.resize(size_t(nBranches));
    r.junctions.resize(size_t(nJunctions));
    for (const auto& p : pixels) {
        const int gx = r.x0 + p.x, gy = r.y0 + p.y;
        const int crack = crackLabels.at<int>(p.y, p.x);
        if (crack <= 0)
            continue; // cannot happen: the skeleton lies inside the mask
        Accum& c = r.cracks[size_t(crack - 1)];
        c.length += p.halfLength;
        c.addSkeletonPixel(gx, gy, p.width);
        if (p.degree == 1)
            ++c.ends;
        if (const int b = branchLabels.at<int>(p.y, p.x); b > 0) {
            Accum& a = r.branches[size_t(b - 1)];
            a.length += p.halfLength;
            a.addSkeletonPixel(gx, gy, p.width);
            a.addBox(gx, gy, gx, gy);
            a.crack = crack;
            a.path.push_back({gx, gy, p.width, p.endExtension});
        } else if (const int j = junctionLabels.at<int>(p.y, p.x); j > 0) {
            r.junctions[size_t(j - 1)].crack = crack;
        }
    }
    fillBorder(r.top, skel, core, true, 0, crackLabels, state, branchLabels, junctionLabels);
    fillBorder(r.bottom, skel, core, true, core.height - 1, crackLabels, state, branchLabels,
               junctionLabels);
    fillBorder(r.left, skel, core, false, 0, crackLabels, state, branchLabels, junctionLabels);
    fillBorder(r.right, skel, core, false, core.width - 1, crackLabels, state, branchLabels,
               junctionLabels);
    return r;
}

} // namespace fisura::analysis
