// The georeferenced start of an alignment: where two GeoTIFFs' geotransforms say they overlap.
#ifdef FISURA_HAVE_ALIGNMENT

#include <algorithm>
#include <cmath>

#include "change/change_internal.h"
#include "fisura/vectorexport.h"

namespace fisura::change_detail
{

namespace
{
/// GDAL's geotransform as a 3x3: (col, row) from the top-left corner of the top-left pixel to
/// map coordinates.
cv::Mat toMatrix(const std::array<double, 6>& g)
{
    return (cv::Mat_<double>(3, 3) << g[1], g[2], g[0], g[4], g[5], g[3], 0, 0, 1);
}

cv::Mat shift(double d)
{
    return (cv::Mat_<double>(3, 3) << 1, 0, d, 0, 1, d, 0, 0, 1);
}

bool sameCrs(const Georeference& a, const Georeference& b)
{
    if (!a.crsCode.empty() && !b.crsCode.empty())
        return a.crsCode == b.crsCode;
    return a.crsWkt == b.crsWkt; // both without a CRS: one local grid
}

/// The bounding box of the `w` x `h` rectangle at (x, y) mapped through H, as whole pixels.
cv::Rect mappedBox(const cv::Mat& H, double x, double y, double w, double h)
{
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (cv::Point2d p : {cv::Point2d(x, y), cv::Point2d(x + w, y), cv::Point2d(x + w, y + h),
                          cv::Point2d(x, y + h)}) {
        const cv::Point2d q = apply(H, p);
        if (!std::isfinite(q.x) || !std::isfinite(q.y))
            return {};
        x0 = std::min(x0, q.x), y0 = std::min(y0, q.y);
        x1 = std::max(x1, q.x), y1 = std::max(y1, q.y);
    }
    const auto clampInt = [](double v) { return int(std::clamp(v, -1e9, 1e9)); };
    return {cv::Point(clampInt(std::floor(x0)), clampInt(std::floor(y0))),
            cv::Point(clampInt(std::ceil(x1)), clampInt(std::ceil(y1)))};
}

cv::Rect grown(const cv::Rect& r, int margin)
{
    return {r.x - margin, r.y - margin, r.width + 2 * margin, r.height + 2 * margin};
}

double areaShare(const cv::Rect& part, int w, int h)
{
    return double(part.area()) / (double(w) * h);
}
} // namespace

GeoStart georeferenceStart(const std::string& beforePath, const std::string& afterPath,
                           const RasterSource& before, const RasterSource& after,
                           const AlignOptions& o)
{
    GeoStart s;
    if (o.georeference == AlignGeoreference::Off)
        return s;
    const auto gb = readGeoreference(beforePath);
    const auto ga = readGeoreference(afterPath);
    if (!gb || !ga || !gb->georeferenced || !ga->georeferenced)
        return s;
    if (!sameCrs(*gb, *ga)) {
        s.start = AlignStart::GeoreferenceOtherCrs;
        return s;
    }
    // Fisura's pixel centres are integers; GDAL's (col, row) counts from the pixel's corner.
    const cv::Mat toMapB = toMatrix(gb->geoTransform), toMapA = toMatrix(ga->geoTransform);
    if (std::abs(cv::determinant(toMapB)) < 1e-300)
        return s;
    s.G = shift(-0.5) * toMapB.inv() * toMapA * shift(0.5);
    s.unitsPerPx = gb->unitsPerPixel();
    const int bw = before.width(), bh = before.height(), aw = after.width(), ah = after.height();
    const cv::Rect beforeBounds(0, 0, bw, bh), afterBounds(0, 0, aw, ah);
    // Where the georeferences place the after scan on the before one, with a margin for their
    // error (a quarter of that footprint, at least two refinement windows), and the part of the
    // after scan that margin covers.
    const cv::Rect footprint = mappedBox(s.G, -0.5, -0.5, aw, ah) & beforeBounds;
    if (footprint.empty()) { // the georeferences place the scans apart: the features decide
        s.start = AlignStart::GeoreferenceRefuted;
        return s;
    }
    const int margin = std::max(2 * o.windowPx, std::max(footprint.width, footprint.height) / 4);
    s.beforeRegion = grown(footprint, margin) & beforeBounds;
    s.afterRegion = mappedBox(s.G.inv(), s.beforeRegion.x - 0.5, s.beforeRegion.y - 0.5,
                              s.beforeRegion.width, s.beforeRegion.height) &
                    afterBounds;
    if (s.afterRegion.empty()) {
        s.start = AlignStart::GeoreferenceRefuted;
        return s;
    }
    // Regions of nearly the whole scans gain nothing over matching the whole scans.
    if (areaShare(s.beforeRegion, bw, bh) > 0.8 && areaShare(s.afterRegion, aw, ah) > 0.8) {
        s.beforeRegion = s.afterRegion = {};
        return s; // Features; the offset is still reported
    }
    s.start = AlignStart::Georeference;
    return s;
}

} // namespace fisura::change_detail

#endif // FISURA_HAVE_ALIGNMENT
