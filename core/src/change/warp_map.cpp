// The after map resampled onto the before scan's grid, one output tile at a time: for each tile
// the source window under it (through the inverse model, and the correction field where it is
// used) is read, warped and appended.
#include <algorithm>
#include <cmath>
#include <memory>

#include <opencv2/imgproc.hpp>

#include "change/change_internal.h"
#include "fisura/change.h"
#include "fisura/tiledwriter.h"

namespace fisura
{

namespace
{
using change_detail::apply;

/// The after-map pixels that the output tile at (tx, ty) of tw x th shows: the inverse model,
/// after the correction field where it is used.
void sourceMaps(const AlignResult& a, const cv::Mat& Hinv, int tx, int ty, int tw, int th,
                cv::Mat& mx, cv::Mat& my)
{
    change_detail::fieldTile(a.field, tx, ty, tw, th, mx, my);
    const double* h = Hinv.ptr<double>();
    for (int y = 0; y < th; ++y) {
        float* px = mx.ptr<float>(y);
        float* py = my.ptr<float>(y);
        for (int x = 0; x < tw; ++x) {
            const double bx = tx + x + px[x], by = ty + y + py[x];
            const double w = h[6] * bx + h[7] * by + h[8];
            px[x] = float((h[0] * bx + h[1] * by + h[2]) / w);
            py[x] = float((h[3] * bx + h[4] * by + h[5]) / w);
        }
    }
}

/// One output tile at (tx, ty) of size tw x th from the after map.
Result<Image> warpTile(const RasterSource& src, const AlignResult& a, const cv::Mat& Hinv, int tx,
                       int ty, int tw, int th, bool nearest)
{
    Image tile = Image::make(tw, th, 1, 0);
    double minX = 1e300, minY = 1e300, maxX = -1e300, maxY = -1e300;
    cv::Mat mx, my;
    if (a.field.used) {
        sourceMaps(a, Hinv, tx, ty, tw, th, mx, my);
        cv::minMaxLoc(mx, &minX, &maxX);
        cv::minMaxLoc(my, &minY, &maxY);
    } else {
        for (int cy : {0, 1})
            for (int cx : {0, 1}) {
                const cv::Point2d p = apply(Hinv, {tx + cx * (tw - 1.0), ty + cy * (th - 1.0)});
                minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
                minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
            }
    }
    // Bilinear reads one pixel beyond; a homography bends edges, so a few more.
    const int x0 = std::max(0, int(std::floor(minX)) - 3);
    const int y0 = std::max(0, int(std::floor(minY)) - 3);
    const int x1 = std::min(src.width() - 1, int(std::ceil(maxX)) + 3);
    const int y1 = std::min(src.height() - 1, int(std::ceil(maxY)) + 3);
    if (x1 < x0 || y1 < y0)
        return tile; // the tile lies outside the after map
    auto region = src.readRegion(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
    if (!region)
        return region.status();
    cv::Mat dst(th, tw, CV_8UC1, tile.pixels.data());
    const int interpolation = nearest ? cv::INTER_NEAREST : cv::INTER_LINEAR;
    if (a.field.used) {
        mx -= float(x0), my -= float(y0);
        cv::remap(change_detail::brightestOf(*region), dst, mx, my, interpolation,
                  cv::BORDER_CONSTANT, cv::Scalar(0));
        return tile;
    }
    const cv::Mat Tb = (cv::Mat_<double>(3, 3) << 1, 0, tx, 0, 1, ty, 0, 0, 1);
    const cv::Mat Ta = (cv::Mat_<double>(3, 3) << 1, 0, -x0, 0, 1, -y0, 0, 0, 1);
    cv::warpPerspective(change_detail::brightestOf(*region), dst, Ta * Hinv * Tb, dst.size(),
                        interpolation | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv::Scalar(0));
    return tile;
}
} // namespace

Status warpMapToBefore(const std::string& afterMapPath, const AlignResult& a,
                       const std::string& outPath, const WarpMapOptions& o,
                       const CancelToken& cancel, ProgressSink* progress)
{
    if (a.beforeWidth <= 0 || a.beforeHeight <= 0)
        return Status(ErrorCode::InvalidArgument, "the alignment has no before-scan size");
    auto src = change_detail::openForChange(afterMapPath, o.limits);
    if (!src)
        return src.status();
    if (src->width() != a.afterWidth || src->height() != a.afterHeight)
        return Status(ErrorCode::MapSizeMismatch,
                      afterMapPath + " is " + std::to_string(src->width()) + " x " +
                          std::to_string(src->height()) + " px, the after scan " +
                          std::to_string(a.afterWidth) + " x " + std::to_string(a.afterHeight));
    TiledWriteOptions wo;
    wo.tileSize = o.tileSize;
    wo.pixelSizeXmm = wo.pixelSizeYmm = o.pixelSizeMm;
    auto writer = TiledTiffWriter::create(outPath, a.beforeWidth, a.beforeHeight, 1, wo);
    if (!writer)
        return writer.status();
    const cv::Mat H = cv::Mat(3, 3, CV_64F, const_cast<double*>(a.matrix.data())).clone();
    const cv::Mat Hinv = H.inv();
    const int ts = o.tileSize;
    const int across = (a.beforeWidth + ts - 1) / ts, down = (a.beforeHeight + ts - 1) / ts;
    ProgressTracker tracker(progress, double(across) * down);
    for (int ty = 0; ty < down; ++ty)
        for (int tx = 0; tx < across; ++tx) {
            if (cancel.isCancelled())
                return Status(ErrorCode::Cancelled, "warping cancelled");
            const int x = tx * ts, y = ty * ts;
            auto tile = warpTile(*src, a, Hinv, x, y, std::min(ts, a.beforeWidth - x),
                                 std::min(ts, a.beforeHeight - y), o.nearest);
            if (!tile)
                return tile.status();
            if (auto s = (*writer)->appendTile(*tile); !s)
                return s;
            tracker.update(double(ty) * across + tx + 1, "tile");
        }
    return (*writer)->finish(cancel);
}

} // namespace fisura
