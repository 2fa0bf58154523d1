// The crack protocol's counts (ODS, OIS, mIoU at a pixel tolerance); see fisura/evaluate.h.
// Each image is compared once per tolerance (scoreImages: three histograms over map bytes), so
// the counts at every threshold follow from prefix sums without looking at the pixels again.
#include <algorithm>
#include <cmath>

#include "fisura/evaluate.h"
#include "fisura/infer.h"
#include "fisura/labels.h"
#include "fisura/score.h"
#include "fisura/threshold.h"

namespace fisura
{

namespace
{

/// Counts at byte threshold t (predicted: map >= t) from the three tolerance histograms.
struct Counts {
    uint64_t predicted = 0, hits = 0, truth = 0, found = 0;
    double precision() const { return predicted ? double(hits) / double(predicted) : 1.0; }
    double recall() const { return truth ? double(found) / double(truth) : 1.0; }
    double f1() const
    {
        const double p = precision(), r = recall();
        return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
    }
};

/// Suffix sums: at[t] = sum of h[v] for v >= t (t = 0..256).
std::vector<uint64_t> atOrAbove(const std::vector<uint64_t>& h)
{
    std::vector<uint64_t> s(257, 0);
    for (int v = 255; v >= 0; --v)
        s[size_t(v)] = s[size_t(v) + 1] + h[size_t(v)];
    return s;
}

Counts countsAt(int t, const std::vector<uint64_t>& mapAbove,
                const std::vector<uint64_t>& nearAbove, const std::vector<uint64_t>& truthMaxAbove,
                uint64_t truth)
{
    Counts c;
    c.predicted = mapAbove[size_t(t)];
    c.hits = nearAbove[size_t(t)];
    c.truth = truth;
    c.found = truthMaxAbove[size_t(t)]; // truth pixels whose best neighbour reaches t
    return c;
}

template <size_t N> std::vector<uint64_t> toVector(const std::array<uint64_t, N>& a)
{
    return std::vector<uint64_t>(a.begin(), a.end());
}

} // namespace

CrackScoreAccumulator::CrackScoreAccumulator(int tolerancePx)
    : tolerance_(tolerancePx), map_(256, 0), near_(256, 0), truthMax_(256, 0), exact_(256, 0)
{
}

Status CrackScoreAccumulator::add(const Image& map, const Image& truth)
{
    ScoreOptions so;
    so.tolerance = tolerance_;
    auto tol = scoreImages(map, truth, so);
    if (!tol)
        return tol.status();
    so.tolerance = 0;
    auto exact = scoreImages(map, truth, so);
    if (!exact)
        return exact.status();
    for (size_t v = 0; v < 256; ++v) {
        map_[v] += tol->mapHistogram[v];
        near_[v] += tol->nearTruthHistogram[v];
        truthMax_[v] += tol->truthNeighbourMaxHistogram[v];
        exact_[v] += exact->nearTruthHistogram[v];
    }
    truth_ += tol->truthPixels;
    pixels_ += uint64_t(map.width) * uint64_t(map.height);
    // OIS: this image at its own best threshold (256 = nothing predicted).
    const auto ma = atOrAbove(toVector(tol->mapHistogram));
    const auto na = atOrAbove(toVector(tol->nearTruthHistogram));
    const auto ta = atOrAbove(toVector(tol->truthNeighbourMaxHistogram));
    Counts best;
    double bestF1 = -1;
    for (int t = 1; t <= 256; ++t) {
        const Counts c = countsAt(t, ma, na, ta, tol->truthPixels);
        // An image without cracks is scored by its false alarms alone: none is perfect.
        const double f = c.truth == 0 ? (c.predicted == 0 ? 1.0 : 0.0) : c.f1();
        if (f > bestF1) {
            bestF1 = f;
            best = c;
        }
    }
    oisPredicted_ += best.predicted;
    oisHits_ += best.hits;
    oisTruth_ += best.truth;
    oisFound_ += best.found;
    ++images_;
    return Status::ok();
}

CrackScores CrackScoreAccumulator::scores(double modelThreshold) const
{
    CrackScores s;
    s.images = images_;
    s.tolerancePx = tolerance_;
    s.threshold = modelThreshold;
    const auto ma = atOrAbove(map_), na = atOrAbove(near_), ta = atOrAbove(truthMax_);
    const int modelByte = std::clamp(
        modelMapByteThreshold(MapKind::Probability, modelThreshold, modelThreshold), 1, 256);
    const Counts atModel = countsAt(modelByte, ma, na, ta, truth_);
    s.precision = atModel.precision();
    s.recall = atModel.recall();
    s.f1 = atModel.f1();
    int odsByte = 128;
    double bestF1 = -1;
    for (int t = 1; t <= 255; ++t) {
        const double f = countsAt(t, ma, na, ta, truth_).f1();
        if (f > bestF1) {
            bestF1 = f;
            odsByte = t;
        }
    }
    const Counts ods = countsAt(odsByte, ma, na, ta, truth_);
    s.odsThreshold = odsByte / 255.0;
    s.odsPrecision = ods.precision();
    s.odsRecall = ods.recall();
    s.odsF1 = ods.f1();
    Counts ois;
    ois.predicted = oisPredicted_;
    ois.hits = oisHits_;
    ois.truth = oisTruth_;
    ois.found = oisFound_;
    s.oisPrecision = ois.precision();
    s.oisRecall = ois.recall();
    s.oisF1 = ois.f1();
    // Pixel-exact counts at the ODS threshold for the IoUs.
    const auto ea = atOrAbove(exact_);
    const double tp = double(ea[size_t(odsByte)]);
    const double fp = double(ma[size_t(odsByte)]) - tp;
    const double fn = double(truth_) - tp;
    const double tn = double(pixels_) - tp - fp - fn;
    s.crackIou = tp + fp + fn > 0 ? tp / (tp + fp + fn) : 1.0;
    const double bgIou = tn + fp + fn > 0 ? tn / (tn + fp + fn) : 1.0;
    s.miou = (s.crackIou + bgIou) / 2;
    return s;
}

} // namespace fisura
