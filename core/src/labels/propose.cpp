// Proposals and uncertainty ranking from the tiled inference (in memory, through
// TiledInference::runImage); see fisura/labels.h.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

#include "fisura/labels.h"
#include "fisura/paths.h"
#include "fisura/raster.h"
#include "fisura/threshold.h"
#include "fisura/tiledimage.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

struct Loaded {
    Image pixels;
    double pixelSizeMm = 0;
};

/// The pixels of `region` (whole image when empty), refused beyond maxPixels.
Result<Loaded> loadRegion(const std::string& path, const LabelRect& region, uint64_t maxPixels,
                          const ImageLimits& limits)
{
    RasterOpenOptions ro;
    ro.maxDecodedPixels = maxPixels;
    ro.limits = limits;
    auto src = RasterSource::open(path, ro);
    if (!src)
        return src.status();
    Loaded out;
    out.pixelSizeMm = src->info().pixelSizeXmm;
    if (region.empty()) {
        auto all = src->readAll(maxPixels);
        if (!all)
            return all.status();
        out.pixels = std::move(*all);
        return out;
    }
    if (region.x < 0 || region.y < 0 || region.x + region.width > src->width() ||
        region.y + region.height > src->height())
        return Status(ErrorCode::InvalidArgument, "the region is not inside the image");
    if (uint64_t(region.width) * uint64_t(region.height) > maxPixels)
        return Status(ErrorCode::InvalidArgument, "the region is too large to propose at once");
    auto r = src->readRegion(region.x, region.y, region.width, region.height);
    if (!r)
        return r.status();
    out.pixels = std::move(*r);
    return out;
}

Result<std::unique_ptr<TiledInference>> prepare(const std::string& modelPath, const InferOptions& o,
                                                const CancelToken& cancel)
{
    auto model = Model::load(modelPath, o.modelLoad);
    if (!model)
        return model.status();
    return TiledInference::create(std::move(*model), o, cancel);
}

Image thresholded(const Image& map, int byteThreshold)
{
    Image out = Image::make(map.width, map.height, 1);
    for (size_t i = 0; i < map.pixels.size(); ++i)
        out.pixels[i] = map.pixels[i] >= byteThreshold ? 255 : 0;
    return out;
}

Status checkThreshold(double threshold)
{
    if (threshold < 0 || isProbability(threshold))
        return Status::ok();
    return Status(ErrorCode::InvalidArgument, "the threshold must be a crack probability 0..1");
}

/// A given threshold is on the map's own 0..1 scale; none (< 0) is the model's own.
int byteThresholdOf(const TiledInference& ti, double threshold)
{
    return threshold >= 0 ? mapByteThreshold(threshold)
                          : modelMapByteThreshold(ti.kind(), ti.model().info().threshold);
}

/// Forwards one image's progress as part (k of n) of a longer job.
class PartSink final : public ProgressSink
{
public:
    PartSink(ProgressTracker& outer, int index, int count)
        : outer_(outer), index_(index), count_(count)
    {
    }
    void report(const Progress& p) override
    {
        outer_.update(index_ + std::clamp(p.fraction, 0.0, 1.0),
                      "image " + std::to_string(index_ + 1) + "/" + std::to_string(count_));
    }

private:
    ProgressTracker& outer_;
    int index_, count_;
};

/// The proposal of each image: `<outDir>/<stem>.tif`.
std::vector<std::string> proposalPaths(const std::vector<std::string>& images,
                                       const std::string& outDir)
{
    std::vector<std::string> out;
    for (const auto& image : images)
        out.push_back((fs::path(outDir) / (fs::path(image).stem().string() + ".tif")).string());
    return out;
}

std::vector<std::string> imagesIn(const std::string& input)
{
    std::vector<std::string> files;
    std::error_code ec;
    if (fs::is_regular_file(input, ec))
        return {input};
    for (const auto& e : fs::directory_iterator(input, ec))
        if (hasImageExtension(e.path().string()) && fs::is_regular_file(e.path(), ec))
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

Result<Image> proposeLabels(const std::string& modelPath, const std::string& imagePath,
                            const ProposeOptions& o, const CancelToken& cancel,
                            ProgressSink* progress)
{
    if (Status s = checkThreshold(o.threshold); !s)
        return s;
    auto img = loadRegion(imagePath, o.region, o.infer.maxFlatPixels, o.infer.inputLimits);
    if (!img)
        return img.status();
    auto ti = prepare(modelPath, o.infer, cancel);
    if (!ti)
        return ti.status();
    auto map = (*ti)->runImage(img->pixels, cancel, progress);
    if (!map)
        return map.status();
    return thresholded(*map, byteThresholdOf(**ti, o.threshold));
}

Result<ProposeFolderResult> proposeFolder(const std::string& modelPath, const std::string& input,
                                          const std::string& outDir, const ProposeOptions& o,
                                          const CancelToken& cancel, ProgressSink* progress)
{
    if (Status s = checkThreshold(o.threshold); !s)
        return s;
    std::error_code ec;
    if (!fs::exists(input, ec))
        return Status(ErrorCode::NotFound, input + ": no such file or folder");
    const std::vector<std::string> images = imagesIn(input);
    if (images.empty())
        return Status(ErrorCode::NotFound, input + ": no images");
    const std::vector<std::string> outputs = proposalPaths(images, outDir);
    std::vector<std::string> inputs = images;
    inputs.push_back(modelPath);
    if (Status s = refuseOverwritingInputs(outputs, inputs); !s)
        return s;
    fs::create_directories(outDir, ec);
    if (ec)
        return Status(ErrorCode::IoError, outDir + ": " + ec.message());
    auto ti = prepare(modelPath, o.infer, cancel);
    if (!ti)
        return ti.status();
    if ((*ti)->kind() == MapKind::Heatmap)
        return Status(ErrorCode::InvalidArgument,
                      modelPath + " is a crack classifier: its map has one value per patch, so "
                                  "its proposals would mark whole patches (often every pixel) as "
                                  "crack. Proposals need a segmentation model (a U-Net: train "
                                  "--task segment)");
    const int thr = byteThresholdOf(**ti, o.threshold);
    ProposeFolderResult res;
    ProgressTracker tracker(progress, double(images.size()));
    for (size_t i = 0; i < images.size(); ++i) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "proposing was cancelled");
        PartSink part(tracker, int(i), int(images.size()));
        const std::string& out = outputs[i];
        Status st;
        auto img = loadRegion(images[i], o.region, o.infer.maxFlatPixels, o.infer.inputLimits);
        Result<Image> map =
            img ? (*ti)->runImage(img->pixels, cancel, &part) : Result<Image>(img.status());
        if (map) {
            const Image mask = thresholded(*map, thr);
            TiffWriteOptions wo;
            wo.tileSize = mask.width > 2048 || mask.height > 2048 ? 256 : 0;
            wo.pixelSizeMm = img->pixelSizeMm;
            st = writeTiff(out, mask, wo);
            for (uint8_t v : mask.pixels)
                res.crackPixels += v != 0;
            res.pixels += mask.pixels.size();
        } else {
            st = map.status();
        }
        if (st.code() == ErrorCode::Cancelled || cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "proposing was cancelled");
        if (st)
            res.written.push_back(out);
        else
            res.failures.push_back({images[i], st.toString()});
        tracker.update(double(i + 1), "image " + std::to_string(i + 1));
    }
    tracker.finish("done");
    return res;
}

RankEntry uncertaintyOfMap(const Image& map, double threshold, double band)
{
    static const std::array<double, 256> entropy = [] {
        std::array<double, 256> t{};
        for (int b = 0; b < 256; ++b) {
            const double p = b / 255.0;
            t[size_t(b)] =
                (p <= 0 || p >= 1) ? 0.0 : -p * std::log2(p) - (1 - p) * std::log2(1 - p);
        }
        return t;
    }();
    RankEntry e;
    if (map.empty())
        return e;
    std::array<uint64_t, 256> hist{};
    for (size_t i = 0; i < map.pixels.size(); i += size_t(map.channels))
        ++hist[map.pixels[i]];
    const double n = double(map.pixels.size() / size_t(std::max(1, map.channels)));
    double h = 0, near = 0;
    for (int b = 0; b < 256; ++b) {
        h += entropy[size_t(b)] * double(hist[size_t(b)]);
        if (std::abs(b / 255.0 - threshold) <= band + 1e-12)
            near += double(hist[size_t(b)]);
    }
    e.meanEntropy = h / n;
    e.nearThreshold = near / n;
    e.uncertainty = (e.meanEntropy + e.nearThreshold) / 2;
    return e;
}

Result<std::vector<RankEntry>> rankByUncertainty(const std::string& modelPath,
                                                 const std::vector<std::string>& images,
                                                 const RankOptions& o, const CancelToken& cancel,
                                                 ProgressSink* progress)
{
    if (!(o.band >= 0 && o.band <= 1))
        return Status(ErrorCode::InvalidArgument, "the band must be within 0..1");
    auto ti = prepare(modelPath, o.infer, cancel);
    if (!ti)
        return ti.status();
    const double threshold = byteThresholdOf(**ti, -1) / 255.0;
    std::vector<RankEntry> out;
    ProgressTracker tracker(progress, double(images.size()));
    for (size_t i = 0; i < images.size(); ++i) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "ranking was cancelled");
        PartSink part(tracker, int(i), int(images.size()));
        auto img = loadRegion(images[i], {}, o.infer.maxFlatPixels, o.infer.inputLimits);
        Result<Image> map =
            img ? (*ti)->runImage(img->pixels, cancel, &part) : Result<Image>(img.status());
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "ranking was cancelled");
        RankEntry e;
        if (map) {
            e = uncertaintyOfMap(*map, threshold, o.band);
        } else {
            e.uncertainty = -1;
            e.error = map.status().toString();
        }
        e.image = images[i];
        out.push_back(std::move(e));
        tracker.update(double(i + 1), "image " + std::to_string(i + 1));
    }
    std::stable_sort(out.begin(), out.end(), [](const RankEntry& a, const RankEntry& b) {
        return a.uncertainty != b.uncertainty ? a.uncertainty > b.uncertainty : a.image < b.image;
    });
    tracker.finish("done");
    return out;
}

} // namespace fisura
