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

/// Level 0 read in bands of rows, each reduced by area averaging to its share of the output:
/// memory is one band (width x factor x 16 rows), whatever the height.
Result<cv::Mat> reduceByBands(const RasterSource& raster, int outW, int outH,
                              const CancelToken& cancel)
{
    const int w = raster.width(), h = raster.height();
    cv::Mat out(outH, outW, CV_8UC1);
    const double fy = double(h) / outH;
    const int bandRows = 16;
    for (int oy = 0; oy < outH; oy += bandRows) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "alignment cancelled");
        const int oy1 = std::min(outH, oy + bandRows);
        const int y0 = int(std::floor(oy * fy));
        const int y1 = std::min(h, int(std::ceil(oy1 * fy)));
        auto band = raster.readRegion(0, y0, w, y1 - y0);
        if (!band)
            return band.status();
        cv::Mat dst = out.rowRange(oy, oy1);
        cv::resize(grayOf(*band), dst, dst.size(), 0, 0, cv::INTER_AREA);
    }
    return out;
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

Result<Overview> readOverview(const RasterSource& raster, int maxSide, const CancelToken& cancel)
{
    const int w = raster.width(), h = raster.height();
    const double factor = std::max(1.0, double(std::max(w, h)) / maxSide);
    const int outW = std::max(1, int(std::lround(w / factor)));
    const int outH = std::max(1, int(std::lround(h / factor)));
    Overview ov;
    ov.sx = double(w) / outW;
    ov.sy = double(h) / outH;
    cv::Mat gray;
    if (const auto& tiled = raster.tiled()) {
        // The smallest level still at least as large as the overview (a pyramid's overview
        // levels make this cheap; a plain TIFF streams level 0).
        const auto& levels = raster.info().levels;
        int best = -1;
        for (int i = 1; i < int(levels.size()); ++i)
            if (levels[i].width >= outW && levels[i].height >= outH &&
                uint64_t(levels[i].width) * levels[i].height <= 64ull * 1024 * 1024)
                best = i;
        if (best < 0) {
            auto r = reduceByBands(raster, outW, outH, cancel);
            if (!r)
                return r.status();
            gray = *r;
        } else {
            auto level = tiled->readLevel(best);
            if (!level)
                return level.status();
            cv::resize(grayOf(*level), gray, cv::Size(outW, outH), 0, 0, cv::INTER_AREA);
        }
    } else {
        auto all = raster.readAll();
        if (!all)
            return all.status();
        cv::resize(grayOf(*all), gray, cv::Size(outW, outH), 0, 0, cv::INTER_AREA);
    }
    ov.gray = gray;
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
