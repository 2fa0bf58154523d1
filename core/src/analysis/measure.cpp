// measureCracks: reads the map tile by tile (tiles of one row analysed in parallel), merges
// them in raster order, then numbers the cracks and converts to millimetres and classes.
#include "fisura/measure.h"
#include "fisura/options.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>

#include <opencv2/core.hpp>

#include "analysis/measure_merge.h"
#include "analysis/thinning.h"
#include "fisura/raster.h"
#include "fisura/threshold.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "util/thread_start.h"

namespace fisura
{

namespace
{

using analysis::CrackMerger;
using analysis::TileResult;
using RegionReader = std::function<Result<Image>(int x, int y, int w, int h)>;

// The brightest colour channel (alpha ignored), as one 8-bit plane.
cv::Mat toGray(const Image& im)
{
    cv::Mat out(im.height, im.width, CV_8U);
    const int c = im.channels;
    const int colours = c >= 3 ? 3 : 1;
    for (int y = 0; y < im.height; ++y) {
        const uint8_t* src = im.row(y);
        uint8_t* dst = out.ptr<uint8_t>(y);
        for (int x = 0; x < im.width; ++x) {
            uint8_t v = src[size_t(x) * c];
            for (int k = 1; k < colours; ++k)
                v = std::max(v, src[size_t(x) * c + k]);
            dst[x] = v;
        }
    }
    return out;
}

} // namespace

int minimumMarginPx(int closingRadiusPx)
{
    // A closing (a dilation, then an erosion, by the disk) looks 2 x radius px beyond a tile's
    // core; the skeleton and the widths need 16 px more.
    return 2 * closingRadiusPx + 16;
}

namespace
{

// Analyses one row of tiles on `threads` threads; results in column order.
Status analyzeRow(const RegionReader& read, int width, int height, int row, const MeasureOptions& o,
                  const analysis::TileParams& params, int threads, const CancelToken& cancel,
                  std::vector<TileResult>& out)
{
    const int t = o.tileSize, m = o.marginPx;
    const int across = (width + t - 1) / t;
    out.clear();
    out.resize(size_t(across));
    std::atomic<int> next{0};
    std::mutex mutex;
    Status failure;
    auto work = [&] {
        for (int i = next++; i < across; i = next++) {
            if (cancel.isCancelled())
                return;
            const int x0 = i * t, y0 = row * t;
            const int w = std::min(t, width - x0), h = std::min(t, height - y0);
            const int rx = std::max(0, x0 - m), ry = std::max(0, y0 - m);
            const int rw = std::min(width, x0 + w + m) - rx, rh = std::min(height, y0 + h + m) - ry;
            auto region = read(rx, ry, rw, rh);
            if (!region) {
                std::lock_guard<std::mutex> lock(mutex);
                failure = region.status();
                next = across;
                return;
            }
            try {
                out[size_t(i)] = analysis::analyzeTile(
                    toGray(*region), cv::Rect(x0 - rx, y0 - ry, w, h), cv::Point(rx, ry), params);
            } catch (const std::bad_alloc&) {
                std::lock_guard<std::mutex> lock(mutex);
                failure = Status(ErrorCode::OutOfMemory,
                                 "tile at " + std::to_string(x0) + ", " + std::to_string(y0));
                next = across;
            } catch (const cv::Exception& e) {
                std::lock_guard<std::mutex> lock(mutex);
                failure = Status(ErrorCode::Internal, e.what());
                next = across;
            }
        }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < std::min(threads, across); ++k) {
        std::thread t;
        if (!util::startThread(t, "fisura-measure", "measuring", work))
            break; // short of memory or threads: fewer threads measure every tile
        pool.push_back(std::move(t));
    }
    work();
    for (auto& th : pool)
        th.join();
    if (!failure.isOk())
        return failure;
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, "crack measurement cancelled");
    return Status::ok();
}

// One row of tiles of the width-class layer, as full-width rows.
Status appendLayerRows(TiledTiffWriter& writer, const std::vector<TileResult>& row, int width)
{
    if (row.empty())
        return Status::ok();
    Image band = Image::make(width, row.front().height, 1);
    for (const auto& t : row)
        if (!t.layer.empty())
            for (int y = 0; y < t.height; ++y)
                std::copy_n(t.layer.ptr<uint8_t>(y), t.width, band.row(y) + t.x0);
    return writer.appendRows(band);
}

void toMm(WidthStats& w, double px)
{
    if (px <= 0)
        return;
    w.meanMm = w.meanPx * px;
    w.medianMm = w.medianPx * px;
    w.maxMm = w.maxPx * px;
}

double classWidth(const WidthStats& w, ClassBy by)
{
    return by == ClassBy::Mean ? w.meanMm : by == ClassBy::Max ? w.maxMm : w.medianMm;
}

// A standard's tolerable width: the class boundary, so flags and classes agree.
bool overLimit(const WidthClasses& classes, double widthMm)
{
    return classes.tolerableMm > 0 && widthMm >= classes.tolerableMm;
}

// The width segments of a branch: ids over the scan, mm, class and flag by the same rule as
// branches (a branch of one segment gets the branch's).
void numberSegments(CrackBranch& b, const MeasureResult& r, int& next)
{
    for (auto& s : b.segments) {
        s.id = next++;
        toMm(s.width, r.pixelSizeMm);
        s.widthClass = -1;
        if (r.pixelSizeMm > 0) {
            s.lengthMm = s.lengthPx * r.pixelSizeMm;
            s.widthClass = r.options.classes.classOf(classWidth(s.width, r.options.classBy));
            s.exceedsLimit = overLimit(r.options.classes, classWidth(s.width, r.options.classBy));
        }
    }
}

// Numbers cracks and branches, converts to mm, assigns classes, adds the totals. The branches'
// records are read from the merger's list crack by crack in box order and go to the result's.
Status finish(MeasureResult& r, std::vector<analysis::FinishedCrack>&& done,
              const BranchList& closed)
{
    std::sort(done.begin(), done.end(), [](const auto& a, const auto& b) {
        const auto& p = a.crack.box;
        const auto& q = b.crack.box;
        return std::tie(p.y, p.x, p.height, p.width) < std::tie(q.y, q.x, q.height, q.width);
    });
    const double px = r.pixelSizeMm;
    const auto& classes = r.options.classes;
    const int nClasses = int(classes.ids.size());
    if (px > 0)
        for (int k = 0; k < nClasses; ++k) {
            WidthClassTotals c;
            c.id = classes.ids[size_t(k)];
            c.fromMm = k == 0 ? 0.0 : classes.upperLimitsMm[size_t(k - 1)];
            c.toMm = k + 1 < nClasses ? classes.upperLimitsMm[size_t(k)] : -1.0;
            r.classes.push_back(c);
        }
    auto& t = r.totals;
    int nextSegment = 1;
    for (auto& f : done) {
        Crack c = f.crack;
        c.id = int(r.cracks.size()) + 1;
        std::sort(f.branches.begin(), f.branches.end(), [](const auto& a, const auto& b) {
            return std::tie(a.box.y, a.box.x, a.box.height, a.box.width, a.index) <
                   std::tie(b.box.y, b.box.x, b.box.height, b.box.width, b.index);
        });
        for (const analysis::BranchRef& ref : f.branches) {
            CrackBranch b = closed[ref.index];
            b.id = int(r.branches.size()) + 1;
            b.crackId = c.id;
            toMm(b.width, px);
            if (px > 0) {
                b.lengthMm = b.lengthPx * px;
                b.widthClass = classes.classOf(classWidth(b.width, r.options.classBy));
                b.exceedsLimit = overLimit(classes, classWidth(b.width, r.options.classBy));
                auto& k = r.classes[size_t(b.widthClass)];
                ++k.branches;
                k.lengthPx += b.lengthPx;
                k.lengthMm = std::max(0.0, k.lengthMm) + b.lengthMm;
            }
            numberSegments(b, r, nextSegment);
            if (Status s = r.branches.push_back(b); !s)
                return s;
        }
        std::vector<analysis::BranchRef>().swap(f.branches);
        toMm(c.width, px);
        if (px > 0) {
            c.lengthMm = c.lengthPx * px;
            c.areaMm2 = double(c.areaPx) * px * px;
            c.widthClass = classes.classOf(classWidth(c.width, r.options.classBy));
            ++r.classes[size_t(c.widthClass)].cracks;
            c.exceedsLimit = overLimit(classes, classWidth(c.width, r.options.classBy));
            r.flaggedCracks += c.exceedsLimit ? 1 : 0;
        }
        if (r.widthHistogram.size() < f.hist.size())
            r.widthHistogram.resize(f.hist.size(), 0);
        for (size_t i = 0; i < f.hist.size(); ++i)
            r.widthHistogram[i] += f.hist[i];
        t.lengthPx += c.lengthPx;
        t.areaPx += c.areaPx;
        r.cracks.push_back(std::move(c));
    }
    for (auto& k : r.classes)
        if (k.lengthMm < 0)
            k.lengthMm = 0;
    t.cracks = int(r.cracks.size());
    t.branches = int(r.branches.size());
    const double mapArea = double(r.width) * double(r.height);
    t.areaFraction = mapArea > 0 ? double(t.areaPx) / mapArea : 0.0;
    if (px > 0) {
        t.lengthMm = t.lengthPx * px;
        t.areaMm2 = double(t.areaPx) * px * px;
        t.densityMPerM2 = (t.lengthMm / 1000.0) / (mapArea * px * px / 1.0e6);
    }
    return {};
}

Result<MeasureResult> runTiles(const RegionReader& read, MeasureResult r, const CancelToken& cancel,
                               ProgressSink* progress)
{
    const auto start = std::chrono::steady_clock::now();
    const MeasureOptions& o = r.options;
    const int t = o.tileSize;
    const int across = (r.width + t - 1) / t, down = (r.height + t - 1) / t;
    int threads = o.threads > 0
                      ? o.threads
                      : int(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
    ProgressTracker tracker(progress, double(across) * down);
    std::vector<double> limitsPx; // where branches are cut into width segments
    if (r.pixelSizeMm > 0)
        for (double mm : o.classes.upperLimitsMm)
            limitsPx.push_back(mm / r.pixelSizeMm);
    // Half the branches' budget while the map is read, half for the result's list.
    const size_t branchBudget = size_t(std::max(0, o.branchMemoryMb)) << 19;
    r.branches = BranchList(branchBudget);
    CrackMerger merger(r.width, o.minAreaPx, limitsPx, branchBudget);
    analysis::TileParams params;
    params.threshold = mapByteThreshold(o.threshold);
    params.closingRadius = o.closingRadiusPx;
    params.minArea = o.minAreaPx;
    std::unique_ptr<TiledTiffWriter> layer;
    if (!o.widthLayerPath.empty()) {
        params.paintLayer = true;
        params.classLimitsPx = limitsPx;
        TiledWriteOptions wo;
        wo.pixelSizeXmm = wo.pixelSizeYmm = r.pixelSizeMm;
        auto w = TiledTiffWriter::create(o.widthLayerPath, r.width, r.height, 1, wo);
        if (!w)
            return w.status();
        layer = std::move(*w);
    }
    std::vector<TileResult> row;
    for (int y = 0; y < down; ++y) {
        if (Status s = analyzeRow(read, r.width, r.height, y, o, params, threads, cancel, row); !s)
            return s;
        if (layer)
            if (Status s = appendLayerRows(*layer, row, r.width); !s)
                return s;
        for (auto& tile : row)
            merger.addTile(std::move(tile));
        if (Status s = merger.endRow(y + 1 == down); !s)
            return s;
        tracker.update(double(y + 1) * across,
                       "tile row " + std::to_string(y + 1) + "/" + std::to_string(down));
    }
    if (layer) {
        if (Status s = layer->finish(cancel); !s)
            return s;
        r.widthLayerPath = o.widthLayerPath;
    }
    r.thinning = analysis::thinningName();
    if (Status s = finish(r, std::move(merger.finished()), merger.branches()); !s)
        return s;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tracker.finish(std::to_string(r.totals.cracks) + " cracks");
    return r;
}

double meanPixelSize(const TiledImageInfo& info)
{
    if (info.pixelSizeXmm > 0 && info.pixelSizeYmm > 0)
        return std::sqrt(info.pixelSizeXmm * info.pixelSizeYmm);
    return std::max(info.pixelSizeXmm, info.pixelSizeYmm);
}

// The merger and the results grow with the number of cracks: out of memory is an answer too.
Result<MeasureResult> run(const RegionReader& read, MeasureResult r, const CancelToken& cancel,
                          ProgressSink* progress)
{
    const std::string path = r.mapPath;
    try {
        return runTiles(read, std::move(r), cancel, progress);
    } catch (const std::bad_alloc&) {
        return Status(ErrorCode::OutOfMemory, "measuring " + path);
    }
}

RegionReader imageReader(std::shared_ptr<const Image> image)
{
    return [image](int x, int y, int w, int h) -> Result<Image> {
        Image out = Image::make(w, h, image->channels);
        const size_t bytes = size_t(w) * size_t(image->channels);
        for (int k = 0; k < h; ++k)
            std::copy_n(image->row(y + k) + size_t(x) * size_t(image->channels), bytes, out.row(k));
        return out;
    };
}

} // namespace

Result<MeasureResult> measureCracks(const std::string& mapPath, const MeasureOptions& options,
                                    const CancelToken& cancel, ProgressSink* progress)
{
    if (Status s = validate(options); !s)
        return s;
    std::error_code ec;
    if (!std::filesystem::exists(mapPath, ec))
        return Status(ErrorCode::NotFound, mapPath);
    MeasureResult r;
    r.mapPath = mapPath;
    r.options = options;
    RasterOpenOptions mapOpen;
    mapOpen.limits = options.limits;
    auto map = RasterSource::open(mapPath, mapOpen);
    if (!map)
        return map.status();
    r.width = map->width();
    r.height = map->height();
    const double mapPixel = meanPixelSize(map->info());
    double scanPixel = 0;
    if (!options.scanPath.empty()) {
        if (!std::filesystem::exists(options.scanPath, ec))
            return Status(ErrorCode::NotFound, options.scanPath);
        auto scan = probeRaster(options.scanPath, options.limits);
        if (!scan)
            return scan.status();
        if (scan->width != r.width || scan->height != r.height)
            return Status(ErrorCode::InvalidArgument,
                          "the map is " + std::to_string(r.width) + " x " +
                              std::to_string(r.height) + " px but its scan is " +
                              std::to_string(scan->width) + " x " + std::to_string(scan->height) +
                              " px: " + mapPath + ", " + options.scanPath);
        scanPixel = meanPixelSize(*scan);
    }
    if (options.pixelSizeMm > 0) {
        r.pixelSizeMm = options.pixelSizeMm;
        r.pixelSizeSource = "option";
    } else if (mapPixel > 0) {
        r.pixelSizeMm = mapPixel;
        r.pixelSizeSource = "map";
    } else if (scanPixel > 0) {
        r.pixelSizeMm = scanPixel;
        r.pixelSizeSource = "scan";
    } else {
        r.pixelSizeSource = "none";
    }
    RegionReader read = [src = std::make_shared<const RasterSource>(std::move(*map))](
                            int x, int y, int w, int h) { return src->readRegion(x, y, w, h); };
    return run(read, std::move(r), cancel, progress);
}

Result<MeasureResult> measureCracks(const Image& map, const MeasureOptions& options,
                                    const CancelToken& cancel, ProgressSink* progress)
{
    if (Status s = validate(options); !s)
        return s;
    if (map.empty() || map.channels < 1 || map.channels > 4 ||
        map.pixels.size() < map.stride() * size_t(map.height))
        return Status(ErrorCode::InvalidArgument, "empty or malformed map image");
    MeasureResult r;
    r.mapPath = "(memory)";
    r.options = options;
    r.width = map.width;
    r.height = map.height;
    r.pixelSizeMm = options.pixelSizeMm;
    r.pixelSizeSource = options.pixelSizeMm > 0 ? "option" : "none";
    // A shared pointer that does not own: the image outlives this call.
    return run(imageReader(std::shared_ptr<const Image>(&map, [](const Image*) {})), std::move(r),
               cancel, progress);
}

} // namespace fisura
