// Width runs along a branch: median-smoothed widths classified, short runs absorbed.
#include "analysis/width_segments.h"

#include <algorithm>

namespace fisura::analysis
{

namespace
{

int classOfPx(double w, const std::vector<double>& limitsPx)
{
    int k = 0;
    while (size_t(k) < limitsPx.size() && !(w < limitsPx[size_t(k)]))
        ++k;
    return k;
}

// A running median: a single pixel whose distance to the background jumps (a notch in the
// edge, a speck beside the crack) does not change the class.
std::vector<float> medianSmoothed(const std::vector<float>& w)
{
    const size_t n = w.size(), half = kSegmentMedianPixels / 2;
    std::vector<float> out(n), window;
    for (size_t i = 0; i < n; ++i) {
        const size_t a = i >= half ? i - half : 0, b = std::min(n, i + half + 1);
        window.assign(w.begin() + long(a), w.begin() + long(b));
        std::nth_element(window.begin(), window.begin() + long(window.size() / 2), window.end());
        out[i] = window[window.size() / 2];
    }
    return out;
}

// Joins the shortest run below the minimum into its longer neighbour until none is left, then
// joins neighbours that ended up in the same class.
void absorbShortRuns(std::vector<WidthRun>& runs)
{
    for (;;) {
        size_t shortest = runs.size();
        for (size_t i = 0; i < runs.size(); ++i)
            if (runs[i].end - runs[i].begin < kMinSegmentPixels &&
                (shortest == runs.size() ||
                 runs[i].end - runs[i].begin < runs[shortest].end - runs[shortest].begin))
                shortest = i;
        if (shortest == runs.size() || runs.size() < 2)
            return;
        const size_t i = shortest;
        const bool left =
            i + 1 == runs.size() ||
            (i > 0 && runs[i - 1].end - runs[i - 1].begin >= runs[i + 1].end - runs[i + 1].begin);
        const size_t into = left ? i - 1 : i + 1;
        runs[into].begin = std::min(runs[into].begin, runs[i].begin);
        runs[into].end = std::max(runs[into].end, runs[i].end);
        runs.erase(runs.begin() + long(i));
        // The neighbours of the removed run may now be of one class: one run.
        for (size_t k = 1; k < runs.size();)
            if (runs[k].widthClass == runs[k - 1].widthClass) {
                runs[k - 1].end = runs[k].end;
                runs.erase(runs.begin() + long(k));
            } else {
                ++k;
            }
    }
}

} // namespace

std::vector<WidthRun> widthRuns(const std::vector<float>& widths,
                                const std::vector<double>& limitsPx)
{
    if (widths.empty())
        return {};
    if (limitsPx.empty())
        return {{0, widths.size(), -1}};
    const std::vector<float> smooth = medianSmoothed(widths);
    std::vector<WidthRun> runs;
    for (size_t i = 0; i < smooth.size(); ++i) {
        const int k = classOfPx(smooth[i], limitsPx);
        if (runs.empty() || runs.back().widthClass != k)
            runs.push_back({i, i + 1, k});
        else
            runs.back().end = i + 1;
    }
    absorbShortRuns(runs);
    return runs;
}

WidthStats widthStatsOf(const std::vector<float>& widths, size_t begin, size_t end)
{
    WidthStats s;
    if (end <= begin)
        return s;
    std::vector<float> v(widths.begin() + long(begin), widths.begin() + long(end));
    double sum = 0;
    for (float w : v) {
        sum += w;
        s.maxPx = std::max(s.maxPx, double(w));
    }
    s.meanPx = sum / double(v.size());
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    s.medianPx = v[v.size() / 2];
    return s;
}

} // namespace fisura::analysis
