// Proposals and uncertainty ranking from the tiled inference (in memory, through
// TiledInference::runImage); see fisura/labels.h.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "fisura/labels.h"
#include "fisura/tiledimage.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

bool looksLikeTiff(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char magic[2] = {};
    in.read(magic, 2);
    return in && ((magic[0] == 'I' && magic[1] == 'I') || (magic[0] == 'M' && magic[1] == 'M'));
}

struct Loaded {
    Image pixels;
    double pixelSizeMm = 0;
};

/// The pixels of `region` (whole image when empty), refused beyond maxPixels.
Result<Loaded> loadRegion(const std::string& path, const LabelRect& region, uint64_t maxPixels,
                          const ImageLimits& limits)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return Status(ErrorCode::NotFound, path + ": no such file");
    Loaded out;
    auto inside = [&](int w, int h) {
        return region.x >= 0 && region.y >= 0 && region.x + region.width <= w &&
               region.y + region.height <= h;
    };
    if (looksLikeTiff(path)) {
        TiledOpenOptions to;
        to.limits = limits;
        auto t = TiledImage::open(path, to);
        if (!t)
            return t.status();
        const TiledImageInfo& i = (*t)->info();
        out.pixelSizeMm = i.pixelSizeXmm;
        if (region.empty()) {
            auto all = (*t)->readLevel(0, maxPixels);
            if (!all)
                return all.status();
            out.pixels = std::move(*all);
            return out;
        }
        if (!inside(i.width, i.height))
            return Status(ErrorCode::InvalidArgument, "the region is not inside the image");
        if (uint64_t(region.width) * uint64_t(region.height) > maxPixels)
            return Status(ErrorCode::InvalidArgument, "the region is too large to propose at once");
        auto r = (*t)->readRegion(0, region.x, region.y, region.width, region.height);
        if (!r)
            return r.status();
        out.pixels = std::move(*r);
        return out;
    }
    auto all = readImage(path, maxPixels);
    if (!all)
        return all.status();
    if (region.empty()) {
        out.pixels = std::move(*all);
        return out;
    }
    if (!inside(all->width, all->height))
        return Status(ErrorCode::InvalidArgument, "the region is not inside the image");
    out.pixels = Image::make(region.width, region.height, all->channels);
    for (int y = 0; y < region.height; ++y)
        std::copy_n(all->row(region.y + y) + size_t(region.x) * size_t(all->channels),
                    out.pixels.stride(), out.pixels.row(y));
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

int byteThresholdOf(const TiledInference& ti, double threshold)
{
    return proposalByteThreshold(ti.kind(), threshold, ti.model().info().threshold);
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

int proposalByteThreshold(MapKind kind, double threshold, double modelThreshold)
{
    double t = threshold;
    if (t < 0)
        t = kind == MapKind::Probability ? modelThreshold : (kind == MapKind::Score ? -1 : 0.5);
    if (t < 0) // autoencoder score: 128 is the model's own threshold
        return 128;
    return int(std::clamp(std::ceil(t * 255.0 - 1e-9), 0.0, 256.0));
}

Result<Image> proposeLabels(const std::string& modelPath, const std::string& imagePath,
                            const ProposeOptions& o, const CancelToken& cancel,
                            ProgressSink* progress)
{
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
    std::error_code ec;
    if (!fs::exists(input, ec))
        return Status(ErrorCode::NotFound, input + ": no such file or folder");
    const std::vector<std::string> images = imagesIn(input);
    if (images.empty())
        return Status(ErrorCode::NotFound, input + ": no images");
    fs::create_directories(outDir, ec);
    if (ec)
        return Status(ErrorCode::IoError, outDir + ": " + ec.message());
    auto ti = prepare(modelPath, o.infer, cancel);
    if (!ti)
        return ti.status();
    const int thr = byteThresholdOf(**ti, o.threshold);
    ProposeFolderResult res;
    ProgressTracker tracker(progress, double(images.size()));
    for (size_t i = 0; i < images.size(); ++i) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "proposing was cancelled");
        PartSink part(tracker, int(i), int(images.size()));
        const std::string out =
            (fs::path(outDir) / (fs::path(images[i]).stem().string() + ".tif")).string();
        Status st;
        if (fs::exists(out, ec) && fs::equivalent(out, images[i], ec))
            st = Status(ErrorCode::InvalidArgument, "the proposal would overwrite its image");
        auto img = st ? loadRegion(images[i], o.region, o.infer.maxFlatPixels, o.infer.inputLimits)
                      : Result<Loaded>(st);
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
