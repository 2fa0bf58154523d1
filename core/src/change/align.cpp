// alignScans: coarse fit on overviews, refinement in windows at full resolution, checks.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "fisura/change.h"
#include "fisura/options.h"

#ifdef FISURA_HAVE_ALIGNMENT
#include <opencv2/core.hpp>

#include "change/change_internal.h"
#endif

namespace fisura
{

const char* alignModelName(AlignModel m)
{
    switch (m) {
    case AlignModel::Auto:
        return "auto";
    case AlignModel::Similarity:
        return "similarity";
    case AlignModel::Affine:
        return "affine";
    case AlignModel::Homography:
        return "homography";
    }
    return "auto";
}

Result<AlignModel> alignModelFromName(const std::string& name)
{
    for (AlignModel m :
         {AlignModel::Auto, AlignModel::Similarity, AlignModel::Affine, AlignModel::Homography})
        if (name == alignModelName(m))
            return m;
    return Status(ErrorCode::InvalidArgument,
                  "unknown alignment model '" + name + "' (auto, similarity, affine, homography)");
}

const char* alignFieldName(AlignField f)
{
    return f == AlignField::Off ? "off" : "auto";
}

namespace
{
/// The setting of an Auto/Off enum named `name`; InvalidArgument naming `what` otherwise.
template <class E>
Result<E> autoOrOffFromName(const std::string& name, const char* (*nameOf)(E), const char* what)
{
    for (E e : {E::Auto, E::Off})
        if (name == nameOf(e))
            return e;
    return Status(ErrorCode::InvalidArgument,
                  "unknown " + std::string(what) + " setting '" + name + "' (auto, off)");
}
} // namespace

Result<AlignField> alignFieldFromName(const std::string& name)
{
    return autoOrOffFromName(name, alignFieldName, "correction field");
}

const char* alignGeoreferenceName(AlignGeoreference g)
{
    return g == AlignGeoreference::Off ? "off" : "auto";
}

Result<AlignGeoreference> alignGeoreferenceFromName(const std::string& name)
{
    return autoOrOffFromName(name, alignGeoreferenceName, "georeference");
}

const char* alignStartName(AlignStart s)
{
    switch (s) {
    case AlignStart::Features:
        return "features";
    case AlignStart::Georeference:
        return "georeference";
    case AlignStart::GeoreferenceRefuted:
        return "georeference_refuted";
    case AlignStart::GeoreferenceOtherCrs:
        return "georeference_other_crs";
    }
    return "features";
}

#ifndef FISURA_HAVE_ALIGNMENT

Result<AlignResult> alignScans(const std::string&, const std::string&, const AlignOptions&,
                               const CancelToken&, ProgressSink*)
{
    return Status(ErrorCode::Unsupported,
                  "this build of Fisura has no scan alignment (OpenCV features2d, calib3d and "
                  "video were missing when it was built)");
}

#else

namespace
{
using namespace change_detail;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// AlignDegenerateModel unless the model's linear part is a plausible change of view: scale within
/// [1/max, max], singular values within maxAnisotropy of each other, no mirroring, and a
/// perspective term that tilts the scan by less than half its size.
Status checkModel(const cv::Mat& H, int aw, int ah, const AlignOptions& o, AlignResult& r)
{
    const cv::Mat A = H(cv::Rect(0, 0, 2, 2)) / H.at<double>(2, 2);
    cv::Mat w;
    cv::SVD::compute(A, w, cv::SVD::NO_UV);
    const double s1 = w.at<double>(0), s2 = w.at<double>(1);
    r.scale = std::sqrt(std::abs(cv::determinant(A)));
    r.rotationDeg = std::atan2(A.at<double>(1, 0) - A.at<double>(0, 1),
                               A.at<double>(0, 0) + A.at<double>(1, 1)) *
                    180.0 / CV_PI;
    const double persp = (std::abs(H.at<double>(2, 0)) * aw + std::abs(H.at<double>(2, 1)) * ah) /
                         std::abs(H.at<double>(2, 2));
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "singular values %.4g and %.4g, determinant %.4g, perspective %.3g", s1, s2,
                  cv::determinant(A), persp);
    if (!(s2 > 0) || cv::determinant(A) <= 0 || s1 > o.maxScaleChange ||
        s2 < 1.0 / o.maxScaleChange || s1 / s2 > o.maxAnisotropy || persp > 0.5)
        return Status(ErrorCode::AlignDegenerateModel, buf);
    return Status::ok();
}

void regionResiduals(const cv::Mat& H, const Pairs& p, const std::vector<unsigned char>& mask,
                     const AlignOptions& o, AlignResult& r)
{
    const int n = o.regionGrid;
    std::vector<double> sum(size_t(n * n), 0.0);
    std::vector<int> count(size_t(n * n), 0);
    for (size_t i = 0; i < p.before.size(); ++i) {
        if (!mask[i])
            continue;
        const int cx = std::clamp(int(p.before[i].x * n / r.beforeWidth), 0, n - 1);
        const int cy = std::clamp(int(p.before[i].y * n / r.beforeHeight), 0, n - 1);
        const cv::Point2d d = apply(H, p.after[i]) - p.before[i];
        sum[size_t(cy * n + cx)] += d.dot(d);
        ++count[size_t(cy * n + cx)];
    }
    for (int cy = 0; cy < n; ++cy)
        for (int cx = 0; cx < n; ++cx) {
            RegionResidual g;
            g.column = cx, g.row = cy;
            g.box = {cx * r.beforeWidth / n, cy * r.beforeHeight / n,
                     (cx + 1) * r.beforeWidth / n - cx * r.beforeWidth / n,
                     (cy + 1) * r.beforeHeight / n - cy * r.beforeHeight / n};
            g.count = count[size_t(cy * n + cx)];
            g.rmsPx = g.count ? std::sqrt(sum[size_t(cy * n + cx)] / g.count) : -1;
            r.regions.push_back(g);
        }
}

void storeMatrix(const cv::Mat& H, AlignResult& r)
{
    const cv::Mat h = H / H.at<double>(2, 2);
    for (int i = 0; i < 9; ++i)
        r.matrix[size_t(i)] = h.at<double>(i / 3, i % 3);
}

/// The coarse fit on the overviews of the regions (empty: the whole scans); fills matches,
/// inliers, coarseRmsPx and the model.
Result<Fit> coarseFit(const RasterSource& before, const RasterSource& after, const AlignOptions& o,
                      const CancelToken& cancel, AlignResult& r, const cv::Rect& beforeRegion,
                      const cv::Rect& afterRegion)
{
    auto ob = readOverview(before, o.overviewSide, cancel, beforeRegion);
    if (!ob)
        return ob.status();
    auto oa = readOverview(after, o.overviewSide, cancel, afterRegion);
    if (!oa)
        return oa.status();
    auto pairs = matchOverviews(*ob, *oa, o);
    if (!pairs)
        return pairs.status();
    r.matches = int(pairs->after.size());
    // Three overview pixels of tolerance, in full-resolution pixels.
    const double threshold = 3.0 * std::max(ob->sx, oa->sx);
    Fit f = fitChosen(o.model, *pairs, threshold);
    r.inliers = f.inlierCount;
    if (f.H.empty() || f.inlierCount < o.minInliers)
        return Status(ErrorCode::AlignNotSameSurface,
                      "too few matches: " + std::to_string(r.matches) + " matches, " +
                          std::to_string(f.inlierCount) + " consistent (at least " +
                          std::to_string(o.minInliers) + " needed)");
    r.coarseRmsPx = f.rmsPx;
    r.model = f.model;
    if (auto s = checkModel(f.H, r.afterWidth, r.afterHeight, o, r); !s)
        return s;
    r.overlap = overlapFraction(f.H, r.beforeWidth, r.beforeHeight, r.afterWidth, r.afterHeight);
    if (r.overlap < o.minOverlap)
        return Status(ErrorCode::AlignNoOverlap,
                      "the after scan covers " + std::to_string(int(std::lround(r.overlap * 100))) +
                          " % of the before scan");
    return f;
}

/// The coarse fit where the georeferences say the scans overlap when both have one (only there:
/// a finer overview of a small later scan), else, or when nothing matches there, on the whole
/// scans. `G` receives the georeferences' model (empty without one).
Result<Fit> startingFit(const std::string& beforePath, const std::string& afterPath,
                        const RasterSource& before, const RasterSource& after,
                        const AlignOptions& o, const CancelToken& cancel, AlignResult& r,
                        cv::Mat& G)
{
    const GeoStart g = georeferenceStart(beforePath, afterPath, before, after, o);
    r.start = g.start;
    r.georeferenceUnitsPerPx = g.unitsPerPx;
    G = g.G;
    if (g.start == AlignStart::Georeference) {
        auto f = coarseFit(before, after, o, cancel, r, g.beforeRegion, g.afterRegion);
        if (f || f.status().code() == ErrorCode::Cancelled)
            return f;
        r.start = AlignStart::GeoreferenceRefuted;
    }
    return coarseFit(before, after, o, cancel, r, {}, {});
}

/// The final model fitted to the refined window correspondences.
Status finalFit(const Pairs& refined, AlignModel model, const AlignOptions& o, AlignResult& r)
{
    const int needed = model == AlignModel::Similarity ? 3 : model == AlignModel::Affine ? 4 : 6;
    Fit f = refined.after.size() >= size_t(needed) ? fitModel(model, refined, 2.0) : Fit{};
    if (f.H.empty() || f.inlierCount < needed)
        return Status(ErrorCode::AlignTooFewWindows,
                      "too few windows: " + std::to_string(refined.after.size()) + " of " +
                          std::to_string(r.windows) + " full-resolution windows matched (" +
                          std::to_string(needed) + " needed)");
    r.refined = f.inlierCount;
    r.rmsPx = f.rmsPx;
    storeMatrix(f.H, r);
    regionResiduals(f.H, refined, f.inliers, o, r);
    return Status::ok();
}
} // namespace

Result<AlignResult> alignScans(const std::string& beforePath, const std::string& afterPath,
                               const AlignOptions& o, const CancelToken& cancel,
                               ProgressSink* progress)
{
    if (auto s = validate(o); !s)
        return s;
    auto before = openForChange(beforePath, o.limits);
    if (!before)
        return before.status();
    auto after = openForChange(afterPath, o.limits);
    if (!after)
        return after.status();
    for (const RasterSource* s : {&*before, &*after})
        if (std::min(s->width(), s->height()) < kMinAlignSidePx)
            return Status(ErrorCode::AlignScanTooSmall,
                          (s == &*before ? beforePath : afterPath) + " is " +
                              std::to_string(s->width()) + " x " + std::to_string(s->height()) +
                              " px (at least " + std::to_string(kMinAlignSidePx) +
                              " px a side needed)");
    ProgressTracker tracker(progress, 3);
    AlignResult r;
    r.beforeWidth = before->width(), r.beforeHeight = before->height();
    r.afterWidth = after->width(), r.afterHeight = after->height();
    const auto t0 = Clock::now();
    cv::Mat G;
    auto coarse = startingFit(beforePath, afterPath, *before, *after, o, cancel, r, G);
    if (!coarse)
        return coarse.status();
    r.coarseSeconds = since(t0);
    tracker.update(1, "coarse alignment");
    const auto t1 = Clock::now();
    const Pairs refined = refineWindows(*before, *after, coarse->H, o, cancel, r.windows);
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, "alignment cancelled");
    if (auto s = finalFit(refined, r.model, o, r); !s)
        return s;
    const cv::Mat H(3, 3, CV_64F, r.matrix.data());
    if (auto s = checkModel(H.clone(), r.afterWidth, r.afterHeight, o, r); !s)
        return s;
    r.overlap =
        overlapFraction(H.clone(), r.beforeWidth, r.beforeHeight, r.afterWidth, r.afterHeight);
    if (o.field != AlignField::Off)
        r.field = fitField(H.clone(), refined, o, r.beforeWidth, r.beforeHeight);
    if (!G.empty()) {
        const cv::Point2d centre((r.afterWidth - 1) / 2.0, (r.afterHeight - 1) / 2.0);
        r.georeferenceOffsetPx = cv::norm(apply(G, centre) - apply(H, centre));
    }
    r.refineSeconds = since(t1);
    tracker.finish("aligned");
    return r;
}

#endif // FISURA_HAVE_ALIGNMENT

} // namespace fisura
