// Centre lines of a change for drawing: the branches of its cracks, the part a grown crack
// gained, each change's lines thinned to a bounded number of points.
#include "change/change_lines.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace fisura::change_detail
{

namespace
{
/// Points kept of a line of `size` vertices with every n-th one and the last.
size_t keptOf(size_t size, size_t n)
{
    return size <= 2 ? size : (size - 2) / n + 2;
}

size_t keptWith(const Lines& lines, size_t n)
{
    size_t kept = 0;
    for (const auto& l : lines)
        kept += keptOf(l.size(), n);
    return kept;
}

/// Branch indices of each crack id (ids are 1..n).
std::vector<std::vector<size_t>> branchesByCrack(const MeasureResult& m)
{
    std::vector<std::vector<size_t>> out(m.cracks.size() + 1);
    size_t i = 0;
    for (const CrackBranch& b : m.branches) {
        if (b.crackId >= 1 && size_t(b.crackId) < out.size())
            out[size_t(b.crackId)].push_back(i);
        ++i;
    }
    return out;
}

Lines linesOf(const MeasureResult& m, const std::vector<std::vector<size_t>>& byCrack,
              const std::vector<int>& ids)
{
    Lines out;
    for (int id : ids)
        if (id >= 1 && size_t(id) < byCrack.size())
            for (size_t b : byCrack[size_t(id)])
                if (CrackBranch branch = m.branches[b]; !branch.centreLine.empty())
                    out.push_back(std::move(branch.centreLine));
    return out;
}
} // namespace

void boundLines(Lines& lines, size_t maxPoints)
{
    size_t total = 0;
    for (const auto& l : lines)
        total += l.size();
    if (total <= maxPoints)
        return;
    if (lines.size() * 2 > maxPoints) { // not even two points each: the longest lines stay
        std::stable_sort(lines.begin(), lines.end(),
                         [](const auto& a, const auto& b) { return a.size() > b.size(); });
        lines.resize(maxPoints / 2);
    }
    size_t n = std::max<size_t>(1, total / std::max<size_t>(1, maxPoints));
    while (keptWith(lines, n) > maxPoints)
        ++n;
    for (auto& l : lines) {
        if (l.size() <= 2)
            continue;
        std::vector<CentrePoint> kept;
        kept.reserve(keptOf(l.size(), n));
        for (size_t i = 0; i + 1 < l.size(); i += n)
            kept.push_back(l[i]);
        kept.push_back(l.back());
        l = std::move(kept);
    }
}

Lines farStretches(const Lines& lines, const std::function<bool(double, double)>& near)
{
    Lines out;
    std::vector<CentrePoint> run;
    const auto close = [&] {
        if (run.size() >= 2)
            out.push_back(run);
        run.clear();
    };
    const auto visit = [&](const CentrePoint& p) {
        if (near(p.x, p.y))
            close();
        else
            run.push_back(p);
    };
    for (const auto& l : lines) {
        if (!l.empty())
            visit(l.front());
        for (size_t i = 1; i < l.size(); ++i) {
            const CentrePoint &a = l[i - 1], &b = l[i];
            const int steps = std::max(1, int(std::ceil(std::hypot(b.x - a.x, b.y - a.y))));
            for (int k = 1; k <= steps; ++k) {
                const double t = double(k) / steps;
                visit({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y),
                       a.widthPx + t * (b.widthPx - a.widthPx)});
            }
        }
        close();
    }
    return out;
}

void attachChangeLines(ChangeResult& r, const std::function<bool(double, double)>& nearBefore)
{
    const auto before = branchesByCrack(r.before), after = branchesByCrack(r.after);
    for (CrackChange& c : r.changes) {
        const bool beforeSide = c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside;
        c.lines = beforeSide ? linesOf(r.before, before, c.beforeIds)
                             : linesOf(r.after, after, c.afterIds);
        if (c.kind == ChangeKind::Grown) {
            c.grownLines = farStretches(c.lines, nearBefore);
            boundLines(c.grownLines, kMaxChangeLinePoints);
        }
        boundLines(c.lines, kMaxChangeLinePoints);
    }
}

} // namespace fisura::change_detail
