// writeClassMap: the cleaned mask of each tile (threshold, closing, as in analyzeTile), its
// 8-connected components matched to the measured cracks, painted with their class codes.
//
// A component that does not reach a cut edge of the read region is a whole crack: its box (and
// area) identify it exactly. One that does is part of a larger crack: it is the crack with the
// smallest box that contains the component's box and reaches past the region on those sides.
#include "fisura/measuremap.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <opencv2/imgproc.hpp>

#include "fisura/image.h"
#include "fisura/raster.h"
#include "fisura/threshold.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"

namespace fisura
{

namespace
{

struct CrackIndex {
    const MeasureResult& r;
    int cell;
    int across;
    std::vector<std::vector<int>> cells; // crack indices whose box overlaps each cell
    std::map<std::tuple<int, int, int, int>, int> byBox;

    CrackIndex(const MeasureResult& result, int cellSize)
        : r(result), cell(cellSize), across((result.width + cellSize - 1) / cellSize)
    {
        const int down = (r.height + cell - 1) / cell;
        cells.resize(size_t(across) * size_t(down));
        for (size_t i = 0; i < r.cracks.size(); ++i) {
            const PixelBox& b = r.cracks[i].box;
            byBox[{b.x, b.y, b.width, b.height}] = int(i);
            for (int cy = b.y / cell; cy <= (b.y + b.height - 1) / cell && cy < down; ++cy)
                for (int cx = b.x / cell; cx <= (b.x + b.width - 1) / cell && cx < across; ++cx)
                    cells[size_t(cy) * size_t(across) + size_t(cx)].push_back(int(i));
        }
    }

    // The crack of a component with map box `b`; `cut` says which sides of it lie on a cut
    // edge of the region (left, top, right, bottom).
    int find(const cv::Rect& b, const bool cut[4]) const
    {
        if (!cut[0] && !cut[1] && !cut[2] && !cut[3]) {
            const auto it = byBox.find({b.x, b.y, b.width, b.height});
            return it == byBox.end() ? -1 : it->second;
        }
        const auto& list = cells[size_t(b.y / cell) * size_t(across) + size_t(b.x / cell)];
        int best = -1;
        int64_t bestArea = 0;
        for (int i : list) {
            const PixelBox& c = r.cracks[size_t(i)].box;
            if (c.x > b.x || c.y > b.y || c.x + c.width < b.x + b.width ||
                c.y + c.height < b.y + b.height)
                continue;
            if ((cut[0] && c.x >= b.x) || (cut[1] && c.y >= b.y) ||
                (cut[2] && c.x + c.width <= b.x + b.width) ||
                (cut[3] && c.y + c.height <= b.y + b.height))
                continue;
            const int64_t area = int64_t(c.width) * c.height;
            if (best < 0 || area < bestArea) {
                best = i;
                bestArea = area;
            }
        }
        return best;
    }
};

cv::Mat brightest(const Image& im)
{
    cv::Mat out(im.height, im.width, CV_8U);
    const int c = im.channels, colours = c >= 3 ? 3 : 1;
    for (int y = 0; y < im.height; ++y) {
        const uint8_t* s = im.row(y);
        uint8_t* d = out.ptr<uint8_t>(y);
        for (int x = 0; x < im.width; ++x) {
            uint8_t v = s[size_t(x) * c];
            for (int k = 1; k < colours; ++k)
                v = std::max(v, s[size_t(x) * c + k]);
            d[x] = v;
        }
    }
    return out;
}

// Paints the core of one tile into `band` (full-width rows starting at map row `bandY`).
void paintTile(const cv::Mat& region, const cv::Rect& regionRect, const cv::Rect& core,
               const MeasureResult& r, const CrackIndex& index, Image& band, int bandY)
{
    const MeasureOptions& o = r.options;
    cv::Mat mask;
    cv::compare(region, mapByteThreshold(o.threshold), mask, cv::CMP_GE);
    if (cv::countNonZero(mask) == 0)
        return;
    if (o.closingRadiusPx > 0) {
        const int k = 2 * o.closingRadiusPx + 1;
        cv::morphologyEx(mask, mask, cv::MORPH_CLOSE,
                         cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k, k)));
    }
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 8, CV_32S);
    const int classes = int(o.classes.ids.size());
    std::vector<uint8_t> code(size_t(n), 0);
    for (int l = 1; l < n; ++l) {
        const cv::Rect b(stats.at<int>(l, cv::CC_STAT_LEFT) + regionRect.x,
                         stats.at<int>(l, cv::CC_STAT_TOP) + regionRect.y,
                         stats.at<int>(l, cv::CC_STAT_WIDTH), stats.at<int>(l, cv::CC_STAT_HEIGHT));
        const bool cut[4] = {b.x == regionRect.x && regionRect.x > 0,
                             b.y == regionRect.y && regionRect.y > 0,
                             b.x + b.width == regionRect.br().x && regionRect.br().x < r.width,
                             b.y + b.height == regionRect.br().y && regionRect.br().y < r.height};
        const int i = index.find(b, cut);
        if (i >= 0 && r.cracks[size_t(i)].widthClass >= 0)
            code[size_t(l)] = uint8_t(classMapCode(r.cracks[size_t(i)].widthClass, classes));
    }
    for (int y = core.y; y < core.y + core.height; ++y) {
        const int* lab = labels.ptr<int>(y - regionRect.y);
        uint8_t* dst = band.row(y - bandY);
        for (int x = core.x; x < core.x + core.width; ++x)
            dst[x] = code[size_t(lab[x - regionRect.x])];
    }
}

} // namespace

Status writeClassMap(const MeasureResult& r, const std::string& path, const CancelToken& cancel,
                     ProgressSink* progress)
{
    if (r.classes.empty() || r.pixelSizeMm <= 0)
        return Status(ErrorCode::InvalidArgument, "width classes need a pixel size");
    const MeasureOptions& o = r.options;
    auto map = RasterSource::open(r.mapPath);
    if (!map)
        return map.status();
    const int w = map->width(), h = map->height();
    if (w != r.width || h != r.height)
        return Status(ErrorCode::InvalidArgument,
                      "the map changed since it was measured: " + r.mapPath);
    TiledWriteOptions wo;
    wo.pixelSizeXmm = wo.pixelSizeYmm = r.pixelSizeMm;
    auto writer = TiledTiffWriter::create(path, w, h, 1, wo);
    if (!writer)
        return writer.status();
    const int t = o.tileSize, m = o.marginPx;
    const CrackIndex index(r, t);
    const int down = (h + t - 1) / t, across = (w + t - 1) / t;
    for (int row = 0; row < down; ++row) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "class map cancelled");
        const int y0 = row * t, th = std::min(t, h - y0);
        Image band = Image::make(w, th, 1);
        for (int col = 0; col < across; ++col) {
            const int x0 = col * t, tw = std::min(t, w - x0);
            const int rx = std::max(0, x0 - m), ry = std::max(0, y0 - m);
            const cv::Rect rr(rx, ry, std::min(w, x0 + tw + m) - rx, std::min(h, y0 + th + m) - ry);
            auto im = map->readRegion(rr.x, rr.y, rr.width, rr.height);
            if (!im)
                return im.status();
            const cv::Mat region = brightest(*im);
            try {
                paintTile(region, rr, cv::Rect(x0, y0, tw, th), r, index, band, y0);
            } catch (const cv::Exception& e) {
                return Status(ErrorCode::Internal, e.what());
            }
        }
        if (Status s = (*writer)->appendRows(band); !s)
            return s;
        if (progress) {
            Progress pr;
            pr.fraction = double(row + 1) / down;
            progress->report(pr);
        }
    }
    return (*writer)->finish(cancel);
}

} // namespace fisura
