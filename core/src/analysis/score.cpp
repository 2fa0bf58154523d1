// Scoring a map against a ground-truth mask with a pixel tolerance, band by band.
//
// Per band of rows (read with `tolerance` rows of margin above and below, so the morphology at
// the band's edges sees the same neighbours as in one whole-image pass):
//   near  = truth dilated by a Euclidean disk of radius `tolerance`  (pixels near a crack)
//   nmax  = map dilated (grey-level max) by the same disk             (best prediction nearby)
// and three histograms over map values: all pixels, near pixels, and nmax at truth pixels.
// Counts at any threshold are suffix / prefix sums of these histograms. The tolerance matching
// is the "relaxed" precision/recall of crack-detection benchmarks (e.g. CrackForest, Shi et
// al. 2016; DeepCrack, Liu et al. 2019), without one-to-one assignment.
#include "fisura/score.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "fisura/image.h"
#include "fisura/raster.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "util/json_bounded.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

using Clock = std::chrono::steady_clock;

constexpr int kMaxTolerance = 32;

/// One input image read a band of rows at a time: a TiledImage (tiled or striped TIFF of any
/// size), or a PNG/JPEG/BMP decoded whole (such files cannot be read by region).
struct Raster {
    std::string path;
    int width = 0, height = 0, channels = 0;
    double pixelSizeXmm = 0, pixelSizeYmm = 0;
    std::vector<TiffTag> geoTags;
    RasterSource source;
    /// Pixels already in memory (scoreImages), read instead of `source` when set.
    std::shared_ptr<const Image> whole;

    /// Rows [y, y + h) as one 8-bit channel: the first channel, or (`maxOfColours`) the largest
    /// of the colour channels, so a mask painted in any colour still counts.
    Status readGray(int y, int h, bool maxOfColours, cv::Mat& out) const
    {
        Image tmp;
        const Image* src = whole ? whole.get() : source.decoded().get();
        int y0 = y;
        if (!whole && source.tiled()) {
            auto r = source.tiled()->readRegion(0, 0, y, width, h);
            if (!r)
                return r.status();
            tmp = std::move(*r);
            src = &tmp;
            y0 = 0;
        }
        out.create(h, width, CV_8U);
        const int ch = src->channels;
        const int colours = ch == 4 ? 3 : (ch == 2 ? 1 : ch);
        for (int r = 0; r < h; ++r) {
            const uint8_t* in = src->row(y0 + r);
            uint8_t* o = out.ptr<uint8_t>(r);
            if (ch == 1) {
                std::copy_n(in, width, o);
                continue;
            }
            for (int x = 0; x < width; ++x, in += ch) {
                uint8_t v = in[0];
                if (maxOfColours)
                    for (int c = 1; c < colours; ++c)
                        v = std::max(v, in[c]);
                o[x] = v;
            }
        }
        return Status::ok();
    }
};

Result<Raster> openRaster(const std::string& path, int marginRows, int bandRows,
                          const ImageLimits& limits)
{
    RasterOpenOptions o;
    o.cache = std::make_shared<TileCache>(16u << 20);
    o.limits = limits;
    auto opened = RasterSource::open(path, o);
    if (!opened)
        return opened.status();
    Raster r;
    r.path = path;
    r.source = std::move(*opened);
    const TiledImageInfo& i = r.source.info();
    r.width = i.width;
    r.height = i.height;
    r.channels = i.channels;
    r.pixelSizeXmm = i.pixelSizeXmm;
    r.pixelSizeYmm = i.pixelSizeYmm;
    r.geoTags = i.geoTags;
    if (r.source.tiled()) {
        // A block row either side of the band stays cached so margins and seams decode once.
        const uint64_t rows = uint64_t(bandRows) + 2u * marginRows + 2u * i.levels[0].blockHeight;
        o.cache->setBudget(size_t(std::max<uint64_t>(
            16u << 20, rows * uint64_t(r.width) * uint64_t(std::max(1, r.channels)))));
    }
    return r;
}

/// Pixels within Euclidean distance `radius` (dx^2 + dy^2 <= radius^2). OpenCV's MORPH_ELLIPSE
/// is not this set (for radius 2 it also takes (2, 1)), so the kernel is built here.
cv::Mat diskKernel(int radius)
{
    cv::Mat k(2 * radius + 1, 2 * radius + 1, CV_8U, cv::Scalar(0));
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx)
            if (dx * dx + dy * dy <= radius * radius)
                k.at<uint8_t>(dy + radius, dx + radius) = 1;
    return k;
}

std::string sizeText(int w, int h)
{
    return std::to_string(w) + " x " + std::to_string(h) + " px";
}

/// The three comparison layers being written, or none.
class LayerWriters
{
public:
    Status create(const std::string& prefix, const Raster& map)
    {
        if (prefix.empty())
            return Status::ok();
        std::error_code ec;
        const fs::path parent = fs::path(prefix).parent_path();
        if (!parent.empty())
            fs::create_directories(parent, ec);
        TiledWriteOptions wo;
        wo.pixelSizeXmm = map.pixelSizeXmm;
        wo.pixelSizeYmm = map.pixelSizeYmm;
        wo.extraTags = map.geoTags;
        const std::vector<std::string> names = scoreLayerPaths(prefix);
        for (int i = 0; i < 3; ++i) {
            paths_[i] = names[size_t(i)];
            auto w = TiledTiffWriter::create(paths_[i], map.width, map.height, 1, wo);
            if (!w)
                return w.status();
            writers_[i] = std::move(*w);
        }
        bands_ = {Image::make(map.width, 0, 1), Image::make(map.width, 0, 1),
                  Image::make(map.width, 0, 1)};
        return Status::ok();
    }
    bool active() const { return bool(writers_[0]); }
    /// Band buffers of `rows` rows to fill (tp, fp, fn).
    std::array<Image, 3>& bands(int width, int rows)
    {
        for (Image& b : bands_)
            if (b.height != rows)
                b = Image::make(width, rows, 1);
        return bands_;
    }
    Status append()
    {
        for (int i = 0; i < 3; ++i)
            if (Status s = writers_[i]->appendRows(bands_[i]); !s)
                return s;
        return Status::ok();
    }
    /// All three appear, or none: a layer finished before a later one failed is removed.
    Status finish(const CancelToken& cancel, ScoreCurve& curve)
    {
        if (!active())
            return Status::ok();
        int done = 0;
        Status s;
        for (; done < 3; ++done)
            if (s = writers_[done]->finish(cancel); !s)
                break;
        if (s && cancel.isCancelled())
            s = Status(ErrorCode::Cancelled, "scoring cancelled");
        if (!s) {
            std::error_code ec;
            for (int i = 0; i < done; ++i)
                fs::remove(paths_[i], ec);
            return s;
        }
        curve.tpPath = paths_[0];
        curve.fpPath = paths_[1];
        curve.fnPath = paths_[2];
        return Status::ok();
    }

private:
    std::array<std::string, 3> paths_;
    std::array<std::unique_ptr<TiledTiffWriter>, 3> writers_;
    std::array<Image, 3> bands_;
};

/// One band: rows [y0, y1) of the image, whose inputs hold rows [r0, r0 + map.rows).
void accumulateBand(const cv::Mat& map, const cv::Mat& truth, const cv::Mat& kernel, int y0, int y1,
                    int r0, int truthThreshold, ScoreCurve& c, LayerWriters& layers)
{
    cv::Mat isTruth, near, nmax;
    cv::compare(truth, truthThreshold, isTruth, cv::CMP_GE);
    // Outside the image there is neither crack nor prediction: a constant 0 border.
    cv::dilate(isTruth, near, kernel, cv::Point(-1, -1), 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::dilate(map, nmax, kernel, cv::Point(-1, -1), 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    const int w = map.cols;
    std::array<Image, 3>* out = layers.active() ? &layers.bands(w, y1 - y0) : nullptr;
    for (int y = y0; y < y1; ++y) {
        const int k = y - r0;
        const uint8_t* m = map.ptr<uint8_t>(k);
        const uint8_t* t = isTruth.ptr<uint8_t>(k);
        const uint8_t* n = near.ptr<uint8_t>(k);
        const uint8_t* mx = nmax.ptr<uint8_t>(k);
        for (int x = 0; x < w; ++x) {
            ++c.mapHistogram[m[x]];
            if (n[x])
                ++c.nearTruthHistogram[m[x]];
            if (t[x]) {
                ++c.truthNeighbourMaxHistogram[mx[x]];
                ++c.truthPixels;
            }
        }
        if (!out)
            continue;
        uint8_t* tp = (*out)[0].row(y - y0);
        uint8_t* fp = (*out)[1].row(y - y0);
        uint8_t* fn = (*out)[2].row(y - y0);
        for (int x = 0; x < w; ++x) {
            tp[x] = n[x] ? m[x] : 0;
            fp[x] = n[x] ? 0 : m[x];
            fn[x] = t[x] ? uint8_t(255 - mx[x]) : 0;
        }
    }
}

Status checkOptions(const ScoreOptions& o)
{
    if (o.tolerance < 0 || o.tolerance > kMaxTolerance)
        return Status(ErrorCode::InvalidArgument, "tolerance must be 0.." +
                                                      std::to_string(kMaxTolerance) + " px, not " +
                                                      std::to_string(o.tolerance));
    if (o.truthThreshold < 1 || o.truthThreshold > 255)
        return Status(ErrorCode::InvalidArgument, "truth threshold must be 1..255");
    if (o.bandRows < 1)
        return Status(ErrorCode::InvalidArgument, "band rows must be at least 1");
    return Status::ok();
}

} // namespace

ScoreCounts ScoreCurve::at(int threshold) const
{
    ScoreCounts c;
    c.threshold = std::clamp(threshold, 0, 256);
    for (int v = c.threshold; v < 256; ++v) {
        c.predictedPixels += mapHistogram[size_t(v)];
        c.truePositives += nearTruthHistogram[size_t(v)];
    }
    for (int v = 0; v < c.threshold && v < 256; ++v)
        c.falseNegatives += truthNeighbourMaxHistogram[size_t(v)];
    c.falsePositives = c.predictedPixels - c.truePositives;
    c.truthPixels = truthPixels;
    c.precision = c.predictedPixels ? double(c.truePositives) / double(c.predictedPixels) : 1.0;
    c.recall = truthPixels ? double(truthPixels - c.falseNegatives) / double(truthPixels) : 1.0;
    c.f1 = c.precision + c.recall > 0 ? 2 * c.precision * c.recall / (c.precision + c.recall) : 0;
    const uint64_t all = c.truePositives + c.falsePositives + c.falseNegatives;
    c.iou = all ? double(c.truePositives) / double(all) : 1.0;
    return c;
}

int ScoreCurve::bestThreshold() const
{
    int best = 128;
    double bestF1 = -1;
    for (int t = 1; t < 256; ++t) {
        const double f = at(t).f1;
        if (f > bestF1) {
            bestF1 = f;
            best = t;
        }
    }
    return best;
}

std::vector<std::string> scoreLayerPaths(const std::string& layersPrefix)
{
    return {layersPrefix + ".tp.tif", layersPrefix + ".fp.tif", layersPrefix + ".fn.tif"};
}

Result<ScoreCurve> scoreMap(const std::string& mapPath, const std::string& truthPath,
                            const ScoreOptions& options, const CancelToken& cancel,
                            ProgressSink* progress)
{
    const auto start = Clock::now();
    if (Status s = checkOptions(options); !s)
        return s;
    const int tol = options.tolerance;
    auto map = openRaster(mapPath, tol, options.bandRows, options.limits);
    if (!map)
        return map.status();
    auto truth = openRaster(truthPath, tol, options.bandRows, options.limits);
    if (!truth)
        return truth.status();
    if (map->width != truth->width || map->height != truth->height)
        return Status(ErrorCode::InvalidArgument,
                      "sizes differ: map " + mapPath + " is " + sizeText(map->width, map->height) +
                          ", truth " + truthPath + " is " + sizeText(truth->width, truth->height));

    ScoreCurve curve;
    curve.mapPath = mapPath;
    curve.truthPath = truthPath;
    curve.width = map->width;
    curve.height = map->height;
    curve.tolerance = tol;
    LayerWriters layers;
    if (Status s = layers.create(options.layersPrefix, *map); !s)
        return s;

    const cv::Mat kernel = diskKernel(tol);
    const int H = curve.height;
    ProgressTracker tracker(progress, H);
    cv::Mat mapRows, truthRows;
    for (int y0 = 0; y0 < H; y0 += options.bandRows) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "scoring cancelled");
        const int y1 = std::min(H, y0 + options.bandRows);
        const int r0 = std::max(0, y0 - tol), r1 = std::min(H, y1 + tol);
        if (Status s = map->readGray(r0, r1 - r0, false, mapRows); !s)
            return s;
        if (Status s = truth->readGray(r0, r1 - r0, true, truthRows); !s)
            return s;
        accumulateBand(mapRows, truthRows, kernel, y0, y1, r0, options.truthThreshold, curve,
                       layers);
        if (layers.active())
            if (Status s = layers.append(); !s)
                return s;
        tracker.update(y1, "rows " + std::to_string(y1) + "/" + std::to_string(H));
    }
    if (Status s = layers.finish(cancel, curve); !s)
        return s;
    curve.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    tracker.finish("scored");
    return curve;
}

Result<ScoreCurve> scoreImages(const Image& map, const Image& truth, const ScoreOptions& options)
{
    if (Status s = checkOptions(options); !s)
        return s;
    if (map.empty() || map.channels != 1 || truth.empty() || map.width != truth.width ||
        map.height != truth.height)
        return Status(ErrorCode::InvalidArgument,
                      "scoring needs a one-channel map and a truth mask of the same size: map " +
                          sizeText(map.width, map.height) + ", truth " +
                          sizeText(truth.width, truth.height));
    Raster m, t; // whole images: one band, no margins needed
    // Borrowed for the length of this call: no copy of either image.
    m.whole = std::shared_ptr<const Image>(&map, [](const Image*) {});
    t.whole = std::shared_ptr<const Image>(&truth, [](const Image*) {});
    m.width = t.width = map.width;
    m.height = t.height = map.height;
    cv::Mat mapRows, truthRows;
    if (Status s = m.readGray(0, map.height, false, mapRows); !s)
        return s;
    if (Status s = t.readGray(0, truth.height, true, truthRows); !s)
        return s;
    ScoreCurve curve;
    curve.width = map.width;
    curve.height = map.height;
    curve.tolerance = options.tolerance;
    LayerWriters none;
    accumulateBand(mapRows, truthRows, diskKernel(options.tolerance), 0, map.height, 0,
                   options.truthThreshold, curve, none);
    return curve;
}

std::string toJson(const ScoreCurve& curve, int threshold, int indent)
{
    const ScoreCounts c = curve.at(threshold);
    const int best = curve.bestThreshold();
    nlohmann::json j{{"map", curve.mapPath},
                     {"truth", curve.truthPath},
                     {"width", curve.width},
                     {"height", curve.height},
                     {"tolerance", curve.tolerance},
                     {"threshold", c.threshold},
                     {"precision", c.precision},
                     {"recall", c.recall},
                     {"f1", c.f1},
                     {"iou", c.iou},
                     {"true_positives", c.truePositives},
                     {"false_positives", c.falsePositives},
                     {"false_negatives", c.falseNegatives},
                     {"truth_pixels", c.truthPixels},
                     {"predicted_pixels", c.predictedPixels},
                     {"best_threshold", best},
                     {"best_f1", curve.at(best).f1},
                     {"seconds", curve.seconds}};
    if (!curve.tpPath.empty())
        j["layers"] = {{"tp", curve.tpPath}, {"fp", curve.fpPath}, {"fn", curve.fnPath}};
    return util::dumpJson(j, indent);
}

} // namespace fisura
