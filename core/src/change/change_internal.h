// Shared pieces of change/: overviews, the coarse and refined fits, matrix helpers.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "fisura/change.h"
#include "fisura/raster.h"

namespace fisura::change_detail
{

/// A gray overview of a raster and the factor from its pixels to full resolution.
struct Overview {
    cv::Mat gray;    ///< CV_8UC1
    double sx = 1.0; ///< full-resolution px per overview px, horizontally
    double sy = 1.0;
    double ox = 0, oy = 0; ///< full-resolution position of the overview's top-left corner
};

/// Opens a scan or map for alignment and warping: within `limits`, with a 64 MiB tile cache of
/// its own.
Result<RasterSource> openForChange(const std::string& path, const ImageLimits& limits);

/// Gray (brightest channel for masks is not wanted here: luminance) of any Fisura image.
cv::Mat grayOf(const Image& image);
/// The brightest channel (maps and masks).
cv::Mat brightestOf(const Image& image);

/// An overview with a long side of at most `maxSide`: the largest pyramid level that fits,
/// reduced further by area averaging; without a fitting level, level 0 is read in bands of
/// rows and each band reduced (memory: one band, not the image). With a non-empty `region` (full
/// resolution, inside the raster) the overview is of that rectangle only.
Result<Overview> readOverview(const RasterSource& raster, int maxSide, const CancelToken& cancel,
                              const cv::Rect& region = {});

/// Contrast-limited adaptive histogram equalisation (Zuiderveld 1994, OpenCV's CLAHE): the
/// same texture looks alike under other lighting and exposure.
cv::Mat normalised(const cv::Mat& gray);

/// Point pairs: after-scan pixel -> before-scan pixel (full resolution).
struct Pairs {
    std::vector<cv::Point2d> after, before;
};

/// The fitted 3x3 (CV_64F, after -> before) and its inlier mask over the pairs.
struct Fit {
    AlignModel model = AlignModel::Similarity;
    cv::Mat H;
    std::vector<unsigned char> inliers;
    int inlierCount = 0;
    double rmsPx = 0; ///< over the inliers
};

/// Robust fit of one model (RANSAC with `thresholdPx`); empty H when it could not be fitted.
Fit fitModel(AlignModel model, const Pairs& pairs, double thresholdPx);
/// Fits of `requested` (Auto: all three, the simplest whose residual is not clearly beaten).
Fit fitChosen(AlignModel requested, const Pairs& pairs, double thresholdPx);

/// ORB matches between the overviews, in full-resolution pixels.
Result<Pairs> matchOverviews(const Overview& before, const Overview& after, const AlignOptions& o);

/// Applies H to a point.
cv::Point2d apply(const cv::Mat& H, cv::Point2d p);
double rmsOf(const cv::Mat& H, const Pairs& pairs, const std::vector<unsigned char>& mask);

/// The georeferenced start (align_georef.cpp): where both scans' georeferences say they overlap.
struct GeoStart {
    AlignStart start = AlignStart::Features; ///< Features: no usable georeference pair
    cv::Mat G;                               ///< after -> before px from the georeferences
    cv::Rect beforeRegion, afterRegion;      ///< empty unless start is Georeference
    double unitsPerPx = 0;                   ///< the before scan's map units per pixel
};
/// The start for a pair (o.georeference Off: Features without reading anything).
GeoStart georeferenceStart(const std::string& beforePath, const std::string& afterPath,
                           const RasterSource& before, const RasterSource& after,
                           const AlignOptions& o);

/// Fraction of the before scan (bw x bh) covered by the after scan (aw x ah) mapped through H.
double overlapFraction(const cv::Mat& H, int bw, int bh, int aw, int ah);

/// Full-resolution refinement: window correspondences (ECC) over the overlap; `windows` tried.
Pairs refineWindows(const RasterSource& before, const RasterSource& after, const cv::Mat& coarse,
                    const AlignOptions& o, const CancelToken& cancel, int& windows);

/// Window centres along one side of `extent` px: n windows of `size` centred in their cells and
/// kept inside (increasing, windows that coincide at the edge counted once).
std::vector<double> windowCentres(int extent, int n, int size);

/// The correction field of the refined correspondences against H (after -> before) on the
/// window grid of a bw x bh before scan, `used` when it lowers the residual materially (whatever
/// AlignOptions::field says: the caller decides).
CorrectionField fitField(const cv::Mat& H, const Pairs& refined, const AlignOptions& o, int bw,
                         int bh);

/// The field at before pixel (x, y); (0, 0) for an empty field.
cv::Point2d fieldAt(const CorrectionField& f, double x, double y);
/// The field over the before pixels [x0, x0 + w) x [y0, y0 + h): two CV_32F maps.
void fieldTile(const CorrectionField& f, int x0, int y0, int w, int h, cv::Mat& dx, cv::Mat& dy);

} // namespace fisura::change_detail
