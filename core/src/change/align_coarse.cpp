// Coarse registration on overviews: ORB features, ratio-test matching, robust model fits.
#ifdef FISURA_HAVE_ALIGNMENT

#include <algorithm>
#include <cmath>

#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include "change/change_internal.h"

namespace fisura::change_detail
{

namespace
{
cv::Mat to3x3(const cv::Mat& affine)
{
    cv::Mat H = cv::Mat::eye(3, 3, CV_64F);
    if (affine.empty())
        return {};
    affine.convertTo(H.rowRange(0, 2), CV_64F);
    return H;
}

std::vector<cv::Point2f> asFloat(const std::vector<cv::Point2d>& p)
{
    std::vector<cv::Point2f> out(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        out[i] = cv::Point2f(float(p[i].x), float(p[i].y));
    return out;
}
} // namespace

double rmsOf(const cv::Mat& H, const Pairs& pairs, const std::vector<unsigned char>& mask)
{
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < pairs.after.size(); ++i) {
        if (!mask.empty() && !mask[i])
            continue;
        const cv::Point2d d = apply(H, pairs.after[i]) - pairs.before[i];
        sum += d.dot(d);
        ++n;
    }
    return n ? std::sqrt(sum / n) : 0.0;
}

Fit fitModel(AlignModel model, const Pairs& pairs, double thresholdPx)
{
    Fit f;
    f.model = model;
    if (pairs.after.size() < 4)
        return f;
    // Single precision is plenty for the RANSAC hypotheses; the refinement of the inliers
    // (Levenberg-Marquardt in OpenCV) decides the final parameters.
    const auto a = asFloat(pairs.after), b = asFloat(pairs.before);
    cv::Mat mask;
    switch (model) {
    case AlignModel::Auto:
    case AlignModel::Similarity:
        f.H = to3x3(cv::estimateAffinePartial2D(a, b, mask, cv::RANSAC, thresholdPx, 4000, 0.999));
        break;
    case AlignModel::Affine:
        f.H = to3x3(cv::estimateAffine2D(a, b, mask, cv::RANSAC, thresholdPx, 4000, 0.999));
        break;
    case AlignModel::Homography:
        f.H = cv::findHomography(a, b, cv::RANSAC, thresholdPx, mask, 4000, 0.999);
        break;
    }
    if (f.H.empty() || mask.empty())
        return Fit{model, {}, {}, 0, 0};
    f.inliers.assign(mask.begin<unsigned char>(), mask.end<unsigned char>());
    f.inlierCount = int(
        std::count_if(f.inliers.begin(), f.inliers.end(), [](unsigned char m) { return m != 0; }));
    f.rmsPx = rmsOf(f.H, pairs, f.inliers);
    return f;
}

Fit fitChosen(AlignModel requested, const Pairs& pairs, double thresholdPx)
{
    if (requested != AlignModel::Auto)
        return fitModel(requested, pairs, thresholdPx);
    // Every model is judged on the same points, the inliers of the most general fit, so that a
    // model cannot look better by calling more points outliers. The simpler model is kept while
    // its residual is within 25 % (+ 0.1 px) of the more general one's: more parameters always
    // fit a little better, and only a clear gain pays for them (the same idea as an F-test).
    const AlignModel order[] = {AlignModel::Similarity, AlignModel::Affine, AlignModel::Homography};
    Fit fits[3];
    for (int i = 0; i < 3; ++i)
        fits[i] = fitModel(order[i], pairs, thresholdPx);
    const Fit& general = !fits[2].H.empty() ? fits[2] : fits[1];
    double rms[3];
    for (int i = 0; i < 3; ++i)
        rms[i] = fits[i].H.empty() ? 1e300 : rmsOf(fits[i].H, pairs, general.inliers);
    for (int i = 0; i < 2; ++i) {
        const double best = i == 0 ? std::min(rms[1], rms[2]) : rms[2];
        if (!fits[i].H.empty() && rms[i] <= 1.25 * best + 0.1)
            return fits[i];
    }
    return !fits[2].H.empty() ? fits[2] : fits[1];
}

Result<Pairs> matchOverviews(const Overview& before, const Overview& after, const AlignOptions& o)
{
    // ORB (Rublee et al. 2011): oriented FAST corners with rotated BRIEF descriptors over a scale
    // pyramid; rotation-invariant, tolerant of the scale changes between dates, and its keypoint
    // count is capped, so the time is bounded on any texture (AKAZE's is not).
    auto orb = cv::ORB::create(o.features, 1.2f, 8, 31, 0, 2, cv::ORB::HARRIS_SCORE, 31, 10);
    std::vector<cv::KeyPoint> kb, ka;
    cv::Mat db, da;
    orb->detectAndCompute(normalised(before.gray), cv::noArray(), kb, db);
    orb->detectAndCompute(normalised(after.gray), cv::noArray(), ka, da);
    Pairs pairs;
    if (db.empty() || da.empty())
        return pairs;
    // Lowe's ratio test (Lowe 2004): keep a match only when the second-best is clearly worse.
    cv::BFMatcher matcher(cv::NORM_HAMMING);
    std::vector<std::vector<cv::DMatch>> knn;
    matcher.knnMatch(da, db, knn, 2);
    for (const auto& m : knn) {
        if (m.size() < 2 || m[0].distance >= o.ratio * m[1].distance)
            continue;
        const cv::Point2f pa = ka[m[0].queryIdx].pt, pb = kb[m[0].trainIdx].pt;
        // Overview pixel centres to full-resolution pixel centres.
        pairs.after.emplace_back(after.ox + (pa.x + 0.5) * after.sx - 0.5,
                                 after.oy + (pa.y + 0.5) * after.sy - 0.5);
        pairs.before.emplace_back(before.ox + (pb.x + 0.5) * before.sx - 0.5,
                                  before.oy + (pb.y + 0.5) * before.sy - 0.5);
    }
    return pairs;
}

double overlapFraction(const cv::Mat& H, int bw, int bh, int aw, int ah)
{
    std::vector<cv::Point2f> quad,
        rect = {{0, 0}, {float(bw), 0}, {float(bw), float(bh)}, {0, float(bh)}};
    for (cv::Point2d p :
         {cv::Point2d(0, 0), cv::Point2d(aw, 0), cv::Point2d(aw, ah), cv::Point2d(0, ah)}) {
        const cv::Point2d q = apply(H, p);
        if (!std::isfinite(q.x) || !std::isfinite(q.y))
            return 0;
        quad.emplace_back(float(q.x), float(q.y));
    }
    if (!cv::isContourConvex(quad)) // a homography folding the scan: no usable overlap
        return 0;
    std::vector<cv::Point2f> inter;
    const float area = cv::intersectConvexConvex(rect, quad, inter, true);
    return std::max(0.0, double(area) / (double(bw) * bh));
}

} // namespace fisura::change_detail

#endif // FISURA_HAVE_ALIGNMENT
