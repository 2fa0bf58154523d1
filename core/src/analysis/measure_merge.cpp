#include "analysis/measure_merge.h"

#include <cmath>
#include <utility>

namespace fisura::analysis
{

WidthStats widthStatsPx(const Accum& a)
{
    WidthStats w;
    if (a.skeletonPixels == 0)
        return w;
    w.meanPx = a.widthSum / double(a.skeletonPixels);
    w.maxPx = a.widthMax;
    const uint64_t half = (a.skeletonPixels + 1) / 2;
    uint64_t seen = 0;
    for (size_t i = 0; i < a.hist.size(); ++i) {
        seen += a.hist[i];
        if (seen >= half) {
            w.medianPx = std::min(a.widthMax, (double(i) + 0.5) * kWidthBinPx);
            break;
        }
    }
    return w;
}

double orientationDeg(const Accum& a)
{
    if (a.skeletonPixels < 2)
        return 0.0;
    const double n = double(a.skeletonPixels);
    const double mx = a.sx / n, my = a.sy / n;
    const double cxx = a.sxx / n - mx * mx, cyy = a.syy / n - my * my, cxy = a.sxy / n - mx * my;
    // Image rows grow downwards; on screen counter-clockwise is the negative image angle.
    double deg = -0.5 * std::atan2(2.0 * cxy, cxx - cyy) * 180.0 / M_PI;
    if (deg < 0)
        deg += 180.0;
    if (deg >= 180.0)
        deg -= 180.0;
    return deg;
}

int Layer::add(Accum&& a)
{
    const int id = int(parent_.size());
    parent_.push_back(id);
    acc_.push_back(std::move(a));
    return id;
}

int Layer::find(int id)
{
    while (parent_[size_t(id)] != id) {
        parent_[size_t(id)] = parent_[size_t(parent_[size_t(id)])];
        id = parent_[size_t(id)];
    }
    return id;
}

void Layer::unite(int a, int b)
{
    a = find(a);
    b = find(b);
    if (a == b)
        return;
    if (b < a)
        std::swap(a, b);
    parent_[size_t(b)] = a;
    acc_[size_t(a)].merge(std::move(acc_[size_t(b)]));
}

std::vector<int> Layer::compact(const std::vector<char>& keep)
{
    std::vector<int> map(parent_.size(), -1);
    std::vector<int> parent;
    std::vector<Accum> acc;
    for (size_t id = 0; id < parent_.size(); ++id)
        if (parent_[id] == int(id) && keep[id]) {
            map[id] = int(parent.size());
            parent.push_back(int(parent.size()));
            acc.push_back(std::move(acc_[id]));
        }
    parent_ = std::move(parent);
    acc_ = std::move(acc);
    return map;
}

void CrackMerger::Line::reset(size_t n)
{
    state.assign(n, kNone);
    crack.assign(n, -1);
    branch.assign(n, -1);
    junction.assign(n, -1);
}

CrackMerger::CrackMerger(int mapWidth, int minAreaPx, std::vector<double> classLimitsPx,
                         size_t branchMemoryBytes)
    : width_(mapWidth), minArea_(minAreaPx), classLimitsPx_(std::move(classLimitsPx)),
      closed_(branchMemoryBytes)
{
    above_.reset(size_t(width_));
    below_.reset(size_t(width_));
}

void CrackMerger::joinPair(uint8_t s, int c, int b, int j, uint8_t os, int oc, int ob, int oj,
                           bool diagonal, bool cornersFree)
{
    if (c >= 0 && oc >= 0)
        cracks_.unite(c, oc);
    if (s == kSkeleton && os == kSkeleton && b >= 0 && ob >= 0 && (!diagonal || cornersFree))
        branches_.unite(b, ob);
    if (s == kJunction && os == kJunction && j >= 0 && oj >= 0)
        junctions_.unite(j, oj);
}

namespace
{
int global(const std::vector<int>& ids, int local)
{
    return local > 0 ? ids[size_t(local - 1)] : -1;
}
} // namespace

void CrackMerger::joinTop(const TileResult& t, const std::vector<int>& lc,
                          const std::vector<int>& lb, const std::vector<int>& lj)
{
    if (t.y0 == 0)
        return;
    for (int k = 0; k < t.width; ++k) {
        const int x = t.x0 + k;
        const uint8_t s = t.top.state[size_t(k + 1)];
        const int c = global(lc, t.top.crack[size_t(k)]);
        if (s == kNone && c < 0)
            continue;
        const int b = global(lb, t.top.branch[size_t(k)]);
        const int j = global(lj, t.top.junction[size_t(k)]);
        for (int dx = -1; dx <= 1; ++dx) {
            const int ax = x + dx;
            if (ax < 0 || ax >= width_)
                continue;
            const bool free =
                t.top.state[size_t(k + 1 + dx)] == kNone && above_.state[size_t(x)] == kNone;
            joinPair(s, c, b, j, above_.state[size_t(ax)], above_.crack[size_t(ax)],
                     above_.branch[size_t(ax)], above_.junction[size_t(ax)], dx != 0, free);
        }
    }
}

void CrackMerger::joinLeft(const TileResult& t, const std::vector<int>& lc,
                           const std::vector<int>& lb, const std::vector<int>& lj)
{
    if (t.x0 == 0 || rightY0_ != t.y0)
        return;
    for (int k = 0; k < t.height; ++k) {
        const uint8_t s = t.left.state[size_t(k + 1)];
        const int c = global(lc, t.left.crack[size_t(k)]);
        if (s == kNone && c < 0)
            continue;
        const int b = global(lb, t.left.branch[size_t(k)]);
        const int j = global(lj, t.left.junction[size_t(k)]);
        for (int dy = -1; dy <= 1; ++dy) {
            const int k2 = k + dy;
            if (k2 < 0 || k2 >= t.height)
                continue;
            const bool free =
                right_.state[size_t(k)] == kNone && t.left.state[size_t(k2 + 1)] == kNone;
            joinPair(s, c, b, j, right_.state[size_t(k2)], right_.crack[size_t(k2)],
                     right_.branch[size_t(k2)], right_.junction[size_t(k2)], dy != 0, free);
        }
    }
}

void CrackMerger::addTile(TileResult&& t)
{
    std::vector<int> lc, lb, lj;
    lc.reserve(t.cracks.size());
    for (auto& a : t.cracks)
        lc.push_back(cracks_.add(std::move(a)));
    for (auto& a : t.branches) {
        a.crack = global(lc, a.crack);
        lb.push_back(branches_.add(std::move(a)));
    }
    for (auto& a : t.junctions) {
        a.crack = global(lc, a.crack);
        lj.push_back(junctions_.add(std::move(a)));
    }
    joinTop(t, lc, lb, lj);
    joinLeft(t, lc, lb, lj);
    for (int k = 0; k < t.width; ++k) {
        const size_t x = size_t(t.x0 + k);
        below_.state[x] = t.bottom.state[size_t(k + 1)];
        below_.crack[x] = global(lc, t.bottom.crack[size_t(k)]);
        below_.branch[x] = global(lb, t.bottom.branch[size_t(k)]);
        below_.junction[x] = global(lj, t.bottom.junction[size_t(k)]);
    }
    right_.reset(size_t(t.height));
    for (int k = 0; k < t.height; ++k) {
        right_.state[size_t(k)] = t.right.state[size_t(k + 1)];
        right_.crack[size_t(k)] = global(lc, t.right.crack[size_t(k)]);
        right_.branch[size_t(k)] = global(lb, t.right.branch[size_t(k)]);
        right_.junction[size_t(k)] = global(lj, t.right.junction[size_t(k)]);
    }
    rightY0_ = t.y0;
}

// The segments share the branch's length in proportion to their lines; a branch of one
// segment gives it its own statistics (they are the same pixels).
void CrackMerger::setCentreLine(CrackBranch& b, CentreLine&& c)
{
    b.centreLine = std::move(c.line);
    b.segments = std::move(c.segments);
    double lines = 0;
    for (const auto& s : b.segments)
        lines += s.lengthPx;
    for (auto& s : b.segments)
        s.lengthPx =
            lines > 0 ? b.lengthPx * s.lengthPx / lines : b.lengthPx / double(b.segments.size());
    if (b.segments.size() == 1)
        b.segments.front().width = b.width;
}

void CrackMerger::finishCrack(Accum& a)
{
    if (a.area < uint64_t(std::max(1, minArea_)))
        return;
    FinishedCrack f;
    Crack& c = f.crack;
    c.lengthPx = std::max(0.0, a.length);
    c.width = widthStatsPx(a);
    c.orientationDeg = orientationDeg(a);
    c.box = {a.minX, a.minY, a.maxX - a.minX + 1, a.maxY - a.minY + 1};
    c.centroidX = a.ax / double(a.area);
    c.centroidY = a.ay / double(a.area);
    c.areaPx = a.area;
    c.branches = a.branches;
    c.junctions = a.junctions;
    c.ends = a.ends;
    if (a.finished)
        f.branches = std::move(*a.finished);
    f.hist = std::move(a.hist);
    finished_.push_back(std::move(f));
}

Status CrackMerger::endRow(bool last)
{
    std::vector<char> keepC(size_t(cracks_.size()), 0), keepB(size_t(branches_.size()), 0),
        keepJ(size_t(junctions_.size()), 0);
    for (size_t x = 0; !last && x < size_t(width_); ++x) {
        if (below_.crack[x] >= 0)
            keepC[size_t(below_.crack[x] = cracks_.find(below_.crack[x]))] = 1;
        if (below_.branch[x] >= 0)
            keepB[size_t(below_.branch[x] = branches_.find(below_.branch[x]))] = 1;
        if (below_.junction[x] >= 0)
            keepJ[size_t(below_.junction[x] = junctions_.find(below_.junction[x]))] = 1;
    }
    for (int id = 0; id < junctions_.size(); ++id) {
        if (!junctions_.isRoot(id))
            continue;
        Accum& j = junctions_.accum(id);
        j.crack = cracks_.find(j.crack);
        if (!keepJ[size_t(id)])
            ++cracks_.accum(j.crack).junctions;
    }
    for (int id = 0; id < branches_.size(); ++id) {
        if (!branches_.isRoot(id))
            continue;
        Accum& a = branches_.accum(id);
        a.crack = cracks_.find(a.crack);
        if (keepB[size_t(id)])
            continue;
        CrackBranch b;
        b.lengthPx = std::max(0.0, a.length);
        b.width = widthStatsPx(a);
        b.orientationDeg = orientationDeg(a);
        b.box = {a.minX, a.minY, a.maxX - a.minX + 1, a.maxY - a.minY + 1};
        b.centroidX = a.sx / double(std::max<uint64_t>(1, a.skeletonPixels));
        b.centroidY = a.sy / double(std::max<uint64_t>(1, a.skeletonPixels));
        setCentreLine(b, orderCentreLine(std::move(a.path), classLimitsPx_));
        Accum& c = cracks_.accum(a.crack);
        if (!c.finished)
            c.finished = std::make_unique<std::vector<BranchRef>>();
        if (Status s = closed_.push_back(b); !s)
            return s;
        c.finished->push_back({b.box, uint32_t(closed_.size() - 1)});
        ++c.branches;
    }
    for (int id = 0; id < cracks_.size(); ++id)
        if (cracks_.isRoot(id) && !keepC[size_t(id)])
            finishCrack(cracks_.accum(id));

    // Renumber what stays open; the links from branches and junctions to cracks follow.
    const auto crackMap = cracks_.compact(keepC);
    const auto branchMap = branches_.compact(keepB);
    const auto junctionMap = junctions_.compact(keepJ);
    for (int id = 0; id < branches_.size(); ++id)
        branches_.accum(id).crack = crackMap[size_t(branches_.accum(id).crack)];
    for (int id = 0; id < junctions_.size(); ++id)
        junctions_.accum(id).crack = crackMap[size_t(junctions_.accum(id).crack)];
    for (size_t x = 0; x < size_t(width_); ++x) {
        if (below_.crack[x] >= 0)
            below_.crack[x] = crackMap[size_t(below_.crack[x])];
        if (below_.branch[x] >= 0)
            below_.branch[x] = branchMap[size_t(below_.branch[x])];
        if (below_.junction[x] >= 0)
            below_.junction[x] = junctionMap[size_t(below_.junction[x])];
    }
    std::swap(above_, below_);
    below_.reset(size_t(width_));
    rightY0_ = -1;
    return {};
}

} // namespace fisura::analysis
