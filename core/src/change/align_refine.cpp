// Full-resolution refinement: a grid of windows, each of the after scan warped by the coarse
// model onto the before scan and its remaining shift found by phase correlation (Kuglin & Hines
// 1975) then ECC (Evangelidis & Psarakis 2008, "Parametric image alignment using enhanced
// correlation coefficient maximization", IEEE TPAMI 30(10); OpenCV's findTransformECC), which is
// invariant to brightness and contrast and accurate to a tenth of a pixel on textured windows.
#ifdef FISURA_HAVE_ALIGNMENT

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include "change/change_internal.h"

namespace fisura::change_detail
{

namespace
{
constexpr double kMinCorrelation = 0.6; // ECC's correlation coefficient below: no match
constexpr double kShadingSigma = 8.0;   // px: coarser structure is shading, not texture

struct Window {
    int x0 = 0, y0 = 0, size = 0; ///< before-scan pixels
};

/// The after scan under `w`, warped onto the before grid by H (after -> before); empty when the
/// window's footprint leaves the after scan.
cv::Mat warpedAfter(const RasterSource& after, const cv::Mat& H, const Window& w)
{
    const cv::Mat Hinv = H.inv();
    double minX = 1e300, minY = 1e300, maxX = -1e300, maxY = -1e300;
    for (int cy : {0, 1})
        for (int cx : {0, 1}) {
            const cv::Point2d p =
                apply(Hinv, {w.x0 + cx * (w.size - 1.0), w.y0 + cy * (w.size - 1.0)});
            minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
            minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
        }
    const int margin = 4;
    const int ax0 = int(std::floor(minX)) - margin, ay0 = int(std::floor(minY)) - margin;
    const int ax1 = int(std::ceil(maxX)) + margin, ay1 = int(std::ceil(maxY)) + margin;
    if (ax0 < 0 || ay0 < 0 || ax1 >= after.width() || ay1 >= after.height())
        return {};
    auto src = after.readRegion(ax0, ay0, ax1 - ax0 + 1, ay1 - ay0 + 1);
    if (!src)
        return {};
    // Local before pixel -> local after pixel.
    cv::Mat Tb = (cv::Mat_<double>(3, 3) << 1, 0, w.x0, 0, 1, w.y0, 0, 0, 1);
    cv::Mat Ta = (cv::Mat_<double>(3, 3) << 1, 0, -ax0, 0, 1, -ay0, 0, 0, 1);
    cv::Mat out;
    cv::warpPerspective(grayOf(*src), out, Ta * Hinv * Tb, cv::Size(w.size, w.size),
                        cv::INTER_LINEAR | cv::WARP_INVERSE_MAP);
    return out;
}

/// ECC translation from `start`; the correlation reached, or -1 when it did not converge.
double ecc(const cv::Mat& tmpl, const cv::Mat& input, cv::Point2d start, cv::Point2d& shift)
{
    cv::Mat warp = (cv::Mat_<float>(2, 3) << 1, 0, float(start.x), 0, 1, float(start.y));
    try {
        const double cc = cv::findTransformECC(
            tmpl, input, warp, cv::MOTION_TRANSLATION,
            cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 60, 1e-5),
            cv::noArray(), 5);
        shift = {warp.at<float>(0, 2), warp.at<float>(1, 2)};
        return cc;
    } catch (const cv::Exception&) {
        return -1; // no convergence (a flat or unrelated window)
    }
}

/// The shift t with before(x) ~ after_warped(x + t), or false when the window does not match.
bool windowShift(const cv::Mat& before, const cv::Mat& afterWarped, cv::Point2d& t)
{
    cv::Scalar mean, dev;
    cv::meanStdDev(before, mean, dev);
    if (dev[0] < 2.0) // no texture to register on
        return false;
    // Without their smooth shading: ECC is blind to brightness and contrast, so a shading ramp
    // correlates almost perfectly at any shift and would pull the shift towards the start.
    const auto highPass = [](const cv::Mat& m) {
        cv::Mat f, low;
        m.convertTo(f, CV_32F);
        cv::GaussianBlur(f, low, cv::Size(), kShadingSigma);
        return cv::Mat(f - low);
    };
    const cv::Mat b32 = highPass(before), a32 = highPass(afterWarped);
    cv::Mat hann;
    cv::createHanningWindow(hann, b32.size(), CV_32F);
    const cv::Point2d pc = cv::phaseCorrelate(b32, a32, hann);
    cv::Point2d t1, t2;
    const double c1 = ecc(b32, a32, pc, t1);
    // From no shift as well when phase correlation led nowhere.
    const double c2 = c1 >= kMinCorrelation ? -1 : ecc(b32, a32, {0, 0}, t2);
    const double cc = std::max(c1, c2);
    t = c1 >= c2 ? t1 : t2;
    return cc >= kMinCorrelation && std::abs(t.x) < before.cols / 4.0 &&
           std::abs(t.y) < before.rows / 4.0;
}
} // namespace

Pairs refineWindows(const RasterSource& before, const RasterSource& after, const cv::Mat& coarse,
                    const AlignOptions& o, const CancelToken& cancel, int& windows)
{
    Pairs pairs;
    windows = 0;
    const int n = std::max(1, o.regionGrid * o.windowsPerRegion);
    const int bw = before.width(), bh = before.height();
    const int size = std::min({o.windowPx, bw, bh});
    const cv::Mat Hinv = coarse.inv();
    // Each window centred in its cell, kept inside the scan (edge windows that coincide once).
    const double c = (size - 1) / 2.0;
    for (double cy : windowCentres(bh, n, size))
        for (double cx : windowCentres(bw, n, size)) {
            if (cancel.isCancelled())
                return pairs;
            Window w;
            w.size = size;
            w.x0 = int(cx - c), w.y0 = int(cy - c);
            const cv::Mat a = warpedAfter(after, coarse, w);
            if (a.empty())
                continue;
            ++windows;
            auto b = before.readRegion(w.x0, w.y0, size, size);
            if (!b)
                continue;
            cv::Point2d t;
            if (!windowShift(grayOf(*b), a, t))
                continue;
            const cv::Point2d pb(w.x0 + c, w.y0 + c);
            pairs.before.push_back(pb);
            pairs.after.push_back(apply(Hinv, pb + t));
        }
    return pairs;
}

} // namespace fisura::change_detail

#endif // FISURA_HAVE_ALIGNMENT
