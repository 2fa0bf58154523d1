// Overviews of scans of any size for the coarse alignment, in bounded memory.
#include <algorithm>
#include <cmath>
#include <memory>

#include <opencv2/imgproc.hpp>

#include "change/change_internal.h"

namespace fisura::change_detail
{

namespace
{
cv::Mat wrap(const Image& image)
{
    return cv::Mat(image.height, image.width, CV_8UC(image.channels),
                   const_cast<uint8_t*>(image.pixels.data()), image.stride());
}

/// Level 0 of `region` read in bands of rows, each reduced by area averaging to its share of the
/// output: memory is one band (region width x factor x 16 rows), whatever the height.
Result<cv::Mat> reduceByBands(const RasterSource& raster, const cv::Rect& region, int outW,
                              int outH, const CancelToken& cancel)
{
    const int w = region.width, h = region.height;
    cv::Mat out(outH, outW, CV_8UC1);
    const double fy = double(h) / outH;
    const int bandRows = 16;
    for (int oy = 0; oy < outH; oy += bandRows) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "alignment cancelled");
        const int oy1 = std::min(outH, oy + bandRows);
        const int y0 = int(std::floor(oy * fy));
        const int y1 = std::min(h, int(std::ceil(oy1 * fy)));
        auto band = raster.readRegion(region.x, region.y + y0, w, y1 - y0);
        if (!band)
            return band.status();
        cv::Mat dst = out.rowRange(oy, oy1);
        cv::resize(grayOf(*band), dst, dst.size(), 0, 0, cv::INTER_AREA);
    }
    return out;
}

/// The smallest pyramid level (above 0) on which `region` is still at least outW x outH and
/// reads in at most 64 Mpx; -1 when none is.
int fittingLevel(const TiledImageInfo& info, const cv::Rect& region, int outW, int outH)
{
    int best = -1;
    for (int i = 1; i < int(info.levels.size()); ++i) {
        const double fx = double(info.width) / info.levels[i].width;
        const double fy = double(info.height) / info.levels[i].height;
        const double lw = region.width / fx, lh = region.height / fy;
        if (lw >= outW && lh >= outH && lw * lh <= 64.0 * 1024 * 1024)
            best = i;
    }
    return best;
}

/// `region` read from pyramid level `level` (the rectangle's level pixels, rounded outwards),
/// reduced to outW x outH; the overview's factors and position from the level pixels read.
Result<Overview> overviewFromLevel(const TiledImage& tiled, const TiledImageInfo& info, int level,
                                   const cv::Rect& region, int outW, int outH)
{
    const auto& lv = info.levels[size_t(level)];
    const double fx = double(info.width) / lv.width, fy = double(info.height) / lv.height;
    const int x0 = std::clamp(int(std::floor(region.x / fx)), 0, lv.width - 1);
    const int y0 = std::clamp(int(std::floor(region.y / fy)), 0, lv.height - 1);
    const int x1 = std::clamp(int(std::ceil(region.br().x / fx)), x0 + 1, lv.width);
    const int y1 = std::clamp(int(std::ceil(region.br().y / fy)), y0 + 1, lv.height);
    auto pixels = tiled.readRegion(level, x0, y0, x1 - x0, y1 - y0);
    if (!pixels)
        return pixels.status();
    Overview ov;
    cv::resize(grayOf(*pixels), ov.gray, cv::Size(outW, outH), 0, 0, cv::INTER_AREA);
    ov.ox = x0 * fx, ov.oy = y0 * fy;
    ov.sx = (x1 - x0) * fx / outW, ov.sy = (y1 - y0) * fy / outH;
    return ov;
}
} // namespace

Result<RasterSource> openForChange(const std::string& path, const ImageLimits& limits)
{
    RasterOpenOptions ro;
    ro.limits = limits;
    ro.cache = std::make_shared<TileCache>(64u << 20);
    return RasterSource::open(path, ro);
}

cv::Mat grayOf(const Image& image)
{
    cv::Mat m = wrap(image), g;
    if (image.channels == 1)
        return m.clone();
    cv::cvtColor(m, g, image.channels == 4 ? cv::COLOR_RGBA2GRAY : cv::COLOR_RGB2GRAY);
    return g;
}

cv::Mat brightestOf(const Image& image)
{
    cv::Mat m = wrap(image);
    if (image.channels == 1)
        return m.clone();
    std::vector<cv::Mat> planes;
    cv::split(m, planes);
    cv::Mat out = planes[0];
    for (int c = 1; c < std::min(3, image.channels); ++c)
        cv::max(out, planes[c], out);
    return out;
}

Result<Overview> readOverview(const RasterSource& raster, int maxSide, const CancelToken& cancel,
                              const cv::Rect& wanted)
{
    const cv::Rect region = wanted.empty()
                                ? cv::Rect(0, 0, raster.width(), raster.height())
                                : wanted & cv::Rect(0, 0, raster.width(), raster.height());
    if (region.empty())
        return Status(ErrorCode::InvalidArgument, "overview of an empty region");
    const int w = region.width, h = region.height;
    const double factor = std::max(1.0, double(std::max(w, h)) / maxSide);
    const int outW = std::max(1, int(std::lround(w / factor)));
    const int outH = std::max(1, int(std::lround(h / factor)));
    if (const auto& tiled = raster.tiled()) {
        // The smallest level still at least as large as the overview (a pyramid's overview
        // levels make this cheap; a plain TIFF streams level 0).
        if (const int level = fittingLevel(raster.info(), region, outW, outH); level > 0)
            return overviewFromLevel(*tiled, raster.info(), level, region, outW, outH);
    }
    Overview ov;
    ov.ox = region.x, ov.oy = region.y;
    ov.sx = double(w) / outW;
    ov.sy = double(h) / outH;
    if (raster.tiled()) {
        auto r = reduceByBands(raster, region, outW, outH, cancel);
        if (!r)
            return r.status();
        ov.gray = *r;
        return ov;
    }
    auto all = raster.readRegion(region.x, region.y, w, h);
    if (!all)
        return all.status();
    cv::resize(grayOf(*all), ov.gray, cv::Size(outW, outH), 0, 0, cv::INTER_AREA);
    return ov;
}

cv::Point2d apply(const cv::Mat& H, cv::Point2d p)
{
    const double* h = H.ptr<double>();
    const double w = h[6] * p.x + h[7] * p.y + h[8];
    return {(h[0] * p.x + h[1] * p.y + h[2]) / w, (h[3] * p.x + h[4] * p.y + h[5]) / w};
}

cv::Mat normalised(const cv::Mat& gray)
{
    auto clahe = cv::createCLAHE(2.0, cv::Size(8, 8));
    cv::Mat out;
    clahe->apply(gray, out);
    return out;
}

} // namespace fisura::change_detail
