// Crack change between two maps on the same grid: both measured (fisura/measure.h), their
// centre lines sampled every pixel, and each crack matched to the cracks whose centre lines run
// within the tolerance of it (a grid index of the samples, cells of the tolerance's size).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "change/change_lines.h"
#include "fisura/change.h"
#include "fisura/options.h"

namespace fisura
{

const char* changeKindName(ChangeKind k)
{
    switch (k) {
    case ChangeKind::New:
        return "new";
    case ChangeKind::Grown:
        return "grown";
    case ChangeKind::Unchanged:
        return "unchanged";
    case ChangeKind::Gone:
        return "gone";
    case ChangeKind::Outside:
        return "outside";
    }
    return "unchanged";
}

std::array<uint8_t, 3> changeKindColour(ChangeKind k)
{
    switch (k) {
    case ChangeKind::New:
        return {0xD5, 0x5E, 0x00};
    case ChangeKind::Grown:
        return {0xE6, 0x9F, 0x00};
    case ChangeKind::Unchanged:
        return {0x00, 0x72, 0xB2};
    case ChangeKind::Gone:
        return {0xCC, 0x79, 0xA7};
    case ChangeKind::Outside:
        break;
    }
    return {0x99, 0x99, 0x99};
}

namespace
{
struct Sample {
    double x, y, weight; ///< weight: the centre-line length this sample stands for
    int crack;
};

/// Centre lines of every branch, resampled at steps of at most 1 px.
std::vector<Sample> samplesOf(const MeasureResult& m)
{
    std::vector<Sample> out;
    for (const auto& b : m.branches) {
        const auto& c = b.centreLine;
        if (c.size() == 1)
            out.push_back({c[0].x, c[0].y, 1.0, b.crackId});
        for (size_t i = 1; i < c.size(); ++i) {
            const double dx = c[i].x - c[i - 1].x, dy = c[i].y - c[i - 1].y;
            const double len = std::hypot(dx, dy);
            const int n = std::max(1, int(std::ceil(len)));
            for (int k = 0; k < n; ++k) {
                const double t = (k + 0.5) / n;
                out.push_back({c[i - 1].x + t * dx, c[i - 1].y + t * dy, len / n, b.crackId});
            }
        }
    }
    return out;
}

/// Samples bucketed in square cells of the tolerance's size.
class SampleIndex
{
public:
    SampleIndex(const std::vector<Sample>& s, double cell) : samples_(s), cell_(cell)
    {
        for (size_t i = 0; i < s.size(); ++i)
            cells_[key(cellOf(s[i].x), cellOf(s[i].y))].push_back(int(i));
    }
    /// The crack of the nearest sample within `tol` of (x, y), or 0.
    int nearestCrack(double x, double y, double tol) const
    {
        const int cx = cellOf(x), cy = cellOf(y);
        double best = tol * tol;
        int crack = 0;
        for (int j = cy - 1; j <= cy + 1; ++j)
            for (int i = cx - 1; i <= cx + 1; ++i) {
                const auto it = cells_.find(key(i, j));
                if (it == cells_.end())
                    continue;
                for (int k : it->second) {
                    const double d = std::pow(samples_[size_t(k)].x - x, 2) +
                                     std::pow(samples_[size_t(k)].y - y, 2);
                    if (d <= best)
                        best = d, crack = samples_[size_t(k)].crack;
                }
            }
        return crack;
    }

private:
    int cellOf(double v) const { return int(std::floor(v / cell_)); }
    static int64_t key(int i, int j) { return (int64_t(i) << 32) ^ uint32_t(j); }
    const std::vector<Sample>& samples_;
    double cell_;
    std::unordered_map<int64_t, std::vector<int>> cells_;
};

struct Coverage {
    std::map<int, double> sampled;                ///< crack -> sampled centre-line length
    std::map<int, double> covered;                ///< crack -> length near the other map
    std::map<std::pair<int, int>, double> shared; ///< (this crack, other crack) -> length
};

Coverage coverageOf(const std::vector<Sample>& mine, const SampleIndex& other, double tol)
{
    Coverage c;
    for (const auto& s : mine) {
        c.sampled[s.crack] += s.weight;
        if (const int o = other.nearestCrack(s.x, s.y, tol)) {
            c.covered[s.crack] += s.weight;
            c.shared[{s.crack, o}] += s.weight;
        }
    }
    return c;
}

double mm(double px, double pixelSize)
{
    return pixelSize > 0 ? px * pixelSize : -1;
}
} // namespace

namespace
{
/// Mean width as area over length: every pixel of the crack counts, with sub-pixel resolution,
/// where the widths on the skeleton (fisura/measure.h) come in steps of the distance transform
/// and thin out towards the ends.
double areaWidth(double areaPx, double lengthPx)
{
    return lengthPx > 0 ? areaPx / lengthPx : 0.0;
}

/// The before cracks an after crack runs along: those that share a good part of it. Empty when
/// too little of it is near any before crack (a new crack).
std::vector<int> linksOf(const Crack& a, const Coverage& ca, const CompareOptions& o)
{
    const auto sampled = ca.sampled.count(a.id) ? ca.sampled.at(a.id) : 0.0;
    const auto covered = ca.covered.count(a.id) ? ca.covered.at(a.id) : 0.0;
    std::vector<int> links;
    if (sampled <= 0 || covered < o.minCoveredFraction * sampled)
        return links;
    for (auto it = ca.shared.lower_bound({a.id, 0});
         it != ca.shared.end() && it->first.first == a.id; ++it)
        if (it->second >= 0.2 * covered)
            links.push_back(it->first.second);
    return links;
}

PixelBox unite(const PixelBox& a, const PixelBox& b)
{
    if (a.width <= 0)
        return b;
    const int x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
    const int x1 = std::max(a.x + a.width, b.x + b.width);
    const int y1 = std::max(a.y + a.height, b.y + b.height);
    return {x0, y0, x1 - x0, y1 - y0};
}

/// The change of a group of linked cracks: after cracks (a crack the later map shows in pieces,
/// or pieces that grew together) against the before cracks they run along, compared as wholes
/// (lengths summed, widths as total area over total length).
CrackChange groupChange(const std::vector<const Crack*>& after,
                        const std::vector<const Crack*>& before, const CompareOptions& o, double px)
{
    CrackChange c;
    double areaA = 0, areaB = 0;
    const Crack* longest = nullptr;
    for (const Crack* a : after) {
        c.afterIds.push_back(a->id);
        c.afterLengthPx += a->lengthPx;
        areaA += double(a->areaPx);
        c.afterMaxWidthPx = std::max(c.afterMaxWidthPx, a->width.maxPx);
        c.box = unite(c.box, a->box);
        if (!longest || a->lengthPx > longest->lengthPx)
            longest = a;
    }
    for (const Crack* b : before) {
        c.beforeIds.push_back(b->id);
        c.beforeLengthPx += b->lengthPx;
        areaB += double(b->areaPx);
        c.box = unite(c.box, b->box);
    }
    c.afterId = longest ? longest->id : 0;
    c.widthClass = longest ? longest->widthClass : -1;
    c.afterWidthPx = areaWidth(areaA, c.afterLengthPx);
    c.beforeWidthPx = areaWidth(areaB, c.beforeLengthPx);
    c.afterMaxWidthMm = mm(c.afterMaxWidthPx, px);
    c.lengthGainPx = c.afterLengthPx - c.beforeLengthPx;
    c.widthChangePx = before.empty() ? 0 : c.afterWidthPx - c.beforeWidthPx;
    c.lengthGainMm = mm(c.lengthGainPx, px);
    c.widthChangeMm = mm(c.widthChangePx, px);
    if (before.empty())
        c.kind = ChangeKind::New;
    else
        c.kind = c.lengthGainPx >= o.minLengthGainPx || c.widthChangePx >= o.minWidthGainPx
                     ? ChangeKind::Grown
                     : ChangeKind::Unchanged;
    return c;
}

/// Union-find over after cracks (0..na-1) and before cracks (na..na+nb-1).
int root(std::vector<int>& parent, int i)
{
    while (parent[size_t(i)] != i)
        i = parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
    return i;
}

/// New cracks one by one, linked cracks group by group; marks the before cracks used.
void afterChanges(ChangeResult& r, const Coverage& ca, const CompareOptions& o, double px,
                  std::vector<bool>& matched)
{
    const int na = int(r.after.cracks.size()), nb = int(r.before.cracks.size());
    std::vector<int> parent(static_cast<size_t>(na + nb));
    for (int i = 0; i < na + nb; ++i)
        parent[size_t(i)] = i;
    std::vector<std::vector<int>> links(static_cast<size_t>(na));
    for (int i = 0; i < na; ++i) {
        links[size_t(i)] = linksOf(r.after.cracks[size_t(i)], ca, o);
        for (int id : links[size_t(i)])
            if (id >= 1 && id <= nb)
                parent[size_t(root(parent, i))] = root(parent, na + id - 1);
    }
    std::map<int, std::pair<std::vector<const Crack*>, std::vector<const Crack*>>> groups;
    for (int i = 0; i < na; ++i) {
        if (links[size_t(i)].empty()) {
            r.changes.push_back(groupChange({&r.after.cracks[size_t(i)]}, {}, o, px));
            continue;
        }
        groups[root(parent, i)].first.push_back(&r.after.cracks[size_t(i)]);
    }
    for (int j = 0; j < nb; ++j) {
        const auto it = groups.find(root(parent, na + j));
        if (it == groups.end())
            continue;
        it->second.second.push_back(&r.before.cracks[size_t(j)]);
        matched[size_t(j + 1)] = true;
    }
    for (const auto& g : groups)
        r.changes.push_back(groupChange(g.second.first, g.second.second, o, px));
}

/// A before crack no after crack runs along: gone, or outside the after scan.
CrackChange beforeOnly(const Crack& b, const AlignResult& al, double px)
{
    CrackChange c;
    c.beforeIds = {b.id};
    c.beforeLengthPx = b.lengthPx;
    c.beforeWidthPx = areaWidth(double(b.areaPx), b.lengthPx);
    c.lengthGainPx = -b.lengthPx;
    c.lengthGainMm = mm(c.lengthGainPx, px);
    c.widthClass = b.widthClass;
    c.box = b.box;
    // Its centre in after-scan pixels: the inverse of the after -> before model (adjugate).
    const auto& h = al.matrix;
    const double x = b.centroidX, y = b.centroidY;
    const double i0 = h[4] * h[8] - h[5] * h[7], i1 = h[2] * h[7] - h[1] * h[8],
                 i2 = h[1] * h[5] - h[2] * h[4], i3 = h[5] * h[6] - h[3] * h[8],
                 i4 = h[0] * h[8] - h[2] * h[6], i5 = h[2] * h[3] - h[0] * h[5],
                 i6 = h[3] * h[7] - h[4] * h[6], i7 = h[1] * h[6] - h[0] * h[7],
                 i8 = h[0] * h[4] - h[1] * h[3];
    const double w = i6 * x + i7 * y + i8;
    const double ax = (i0 * x + i1 * y + i2) / w, ay = (i3 * x + i4 * y + i5) / w;
    const bool inside = ax >= 0 && ay >= 0 && ax < al.afterWidth && ay < al.afterHeight;
    c.kind = inside ? ChangeKind::Gone : ChangeKind::Outside;
    return c;
}

void summarise(ChangeResult& r, double px)
{
    const size_t classes = r.before.classes.size();
    if (classes)
        r.byWidthClass.assign(classes, {0, 0, 0, 0, 0});
    double widest = -1;
    for (size_t i = 0; i < r.changes.size(); ++i) {
        const auto& c = r.changes[i];
        auto& t = r.totals[size_t(c.kind)];
        ++t.count;
        const bool afterSide = c.kind != ChangeKind::Gone && c.kind != ChangeKind::Outside;
        t.lengthPx += afterSide ? c.afterLengthPx : c.beforeLengthPx;
        if (c.widthClass >= 0 && size_t(c.widthClass) < classes)
            ++r.byWidthClass[size_t(c.widthClass)][size_t(c.kind)];
        if (afterSide && c.afterMaxWidthPx > widest)
            widest = c.afterMaxWidthPx, r.widestIndex = int(i);
    }
    for (auto& t : r.totals)
        t.lengthMm = mm(t.lengthPx, px);
}
} // namespace

Result<ChangeResult> compareCrackMaps(const std::string& beforeMap, const std::string& afterMap,
                                      const AlignResult& alignment, const CompareOptions& o,
                                      const CancelToken& cancel, ProgressSink* progress)
{
    if (Status s = validate(o); !s)
        return s;
    const auto t0 = std::chrono::steady_clock::now();
    ProgressTracker tracker(progress, 3);
    ChangeResult r;
    r.alignment = alignment;
    r.alignedMapPath = afterMap;
    auto before = measureCracks(beforeMap, o.measure, cancel);
    if (!before)
        return before.status();
    tracker.update(1, "before map measured");
    auto after = measureCracks(afterMap, o.measure, cancel);
    if (!after)
        return after.status();
    tracker.update(2, "after map measured");
    if (after->width != before->width || after->height != before->height)
        return Status(ErrorCode::MapSizeMismatch,
                      "the aligned map " + afterMap + " is " + std::to_string(after->width) +
                          " x " + std::to_string(after->height) + " px, the before map " +
                          std::to_string(before->width) + " x " + std::to_string(before->height));
    r.before = std::move(*before);
    r.after = std::move(*after);
    const double px = r.before.pixelSizeMm > 0 ? r.before.pixelSizeMm : r.after.pixelSizeMm;
    const auto sb = samplesOf(r.before), sa = samplesOf(r.after);
    const SampleIndex ib(sb, o.tolerancePx), ia(sa, o.tolerancePx);
    const Coverage ca = coverageOf(sa, ib, o.tolerancePx);
    const Coverage cb = coverageOf(sb, ia, o.tolerancePx);
    std::vector<bool> matched(r.before.cracks.size() + 1, false);
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, "comparison cancelled");
    afterChanges(r, ca, o, px, matched);
    for (const auto& b : r.before.cracks) {
        const double s = cb.sampled.count(b.id) ? cb.sampled.at(b.id) : 0.0;
        const double cov = cb.covered.count(b.id) ? cb.covered.at(b.id) : 0.0;
        if (!matched[size_t(b.id)] && (s <= 0 || cov < o.minCoveredFraction * s))
            r.changes.push_back(beforeOnly(b, alignment, px));
    }
    summarise(r, px);
    change_detail::attachChangeLines(
        r, [&](double x, double y) { return ib.nearestCrack(x, y, o.tolerancePx) != 0; });
    r.compareSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tracker.finish("compared");
    return r;
}

} // namespace fisura
