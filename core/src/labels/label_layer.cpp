// The label layer: opening, tools, undo, reading, saving; see fisura/labels.h.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "fisura/labels.h"
#include "fisura/raster.h"
#include "fisura/tiledimage.h"
#include "label_raster.h"
#include "label_save.h"
#include "label_store.h"

namespace fs = std::filesystem;

namespace fisura
{

using labels::EditRecorder;
using labels::TileStore;

namespace
{

constexpr int kFillHalf = kFillWindow;
static_assert(uint64_t(2 * kFillHalf) * uint64_t(2 * kFillHalf) <= kMaxFillPixels);

struct ImageGeometry {
    int width = 0, height = 0;
    double pxX = 0, pxY = 0;
};

Result<ImageGeometry> imageGeometry(const std::string& path)
{
    RasterOpenOptions o;
    o.maxDecodedPixels = 1ull << 30;
    auto r = RasterSource::open(path, o);
    if (!r)
        return r.status();
    const TiledImageInfo& i = r->info();
    return ImageGeometry{i.width, i.height, i.pixelSizeXmm, i.pixelSizeYmm};
}

} // namespace

uint64_t LabelEdit::bytes() const
{
    uint64_t n = 0;
    for (const Tile& t : tiles)
        n += t.before.size() + t.after.size() + t.originBefore.size() + t.originAfter.size();
    return n;
}

struct LabelLayer::Impl {
    std::string image;
    LabelLayerOptions options;
    double pxX = 0, pxY = 0;
    std::unique_ptr<TileStore> store;
    LabelProvenance prov;
    bool modified = false;

    /// Closes an edit: on a read error every touched tile goes back and the error is returned.
    Result<LabelEdit> finish(EditRecorder& rec, const LabelProvenance& before, const void* layer)
    {
        if (Status s = store->takeStatus(); !s) {
            LabelEdit undoAll;
            for (auto& [i, t] : rec.tiles)
                undoAll.tiles.push_back(t);
            store->restore(undoAll, false);
            prov = before;
            return s;
        }
        LabelEdit e = store->finish(rec);
        e.provenanceBefore = before;
        e.provenanceAfter = prov;
        e.layer = layer;
        if (!e.empty())
            modified = true;
        return e;
    }

    /// Edits keep every tile they cover in memory (and twice in the LabelEdit): refuse a region
    /// whose tiles would exceed the memory budget.
    Status checkRegionFits(int x0, int y0, int x1, int y1) const
    {
        if (x0 >= x1 || y0 >= y1)
            return Status::ok();
        const int T = store->tile();
        const uint64_t tiles =
            uint64_t((x1 - 1) / T - x0 / T + 1) * uint64_t((y1 - 1) / T - y0 / T + 1);
        const uint64_t bytes = tiles * uint64_t(T) * uint64_t(T) * 3;
        if (bytes > options.memoryBudget)
            return Status(ErrorCode::OutOfMemory,
                          "region_too_large: editing " + std::to_string(tiles) +
                              " tiles at once needs " + std::to_string(bytes >> 20) +
                              " MiB, over the label memory budget of " +
                              std::to_string(options.memoryBudget >> 20) + " MiB");
        return Status::ok();
    }

    uint64_t countLabelled() const
    {
        uint64_t n = 0;
        for (int i = 0; i < store->tileCount(); ++i) {
            auto pix = store->peek(i);
            if (pix)
                n += uint64_t(std::count_if(pix->begin(), pix->end(), [](uint8_t v) { return v; }));
        }
        return n;
    }
};

LabelLayer::LabelLayer(std::unique_ptr<Impl> impl) : d_(std::move(impl)) {}
LabelLayer::~LabelLayer() = default;

Result<std::unique_ptr<LabelLayer>> LabelLayer::open(const std::string& imagePath,
                                                     const LabelLayerOptions& options)
{
    if (options.tileSize < 16 || options.tileSize > 4096 || options.tileSize % 16 != 0)
        return Status(ErrorCode::InvalidArgument,
                      "label tile size must be a multiple of 16 from 16 to 4096 px");
    auto g = imageGeometry(imagePath);
    if (!g)
        return g.status();
    auto d = std::make_unique<Impl>();
    d->image = imagePath;
    d->options = options;
    d->pxX = g->pxX;
    d->pxY = g->pxY;
    d->store =
        std::make_unique<TileStore>(g->width, g->height, options.tileSize, options.memoryBudget);
    auto src = labels::openMaskSource(labelPathsFor(imagePath).mask, g->width, g->height,
                                      options.tileSize);
    if (!src)
        return src.status();
    const bool hasProvenance = src->hasProvenance;
    d->prov = src->provenance;
    const bool hasMask = src->kind != labels::MaskSource::Kind::None;
    d->store->setSource(std::move(*src));
    // A mask made elsewhere: its pixels count as the user's (counted when it is small enough).
    if (hasMask && !hasProvenance && uint64_t(g->width) * uint64_t(g->height) <= (64ull << 20)) {
        d->prov = {};
        d->prov.labelled = d->prov.userAdded = d->countLabelled();
    }
    return std::unique_ptr<LabelLayer>(new LabelLayer(std::move(d)));
}

int LabelLayer::width() const
{
    return d_->store->width();
}
int LabelLayer::height() const
{
    return d_->store->height();
}
int LabelLayer::tileSize() const
{
    return d_->store->tile();
}
double LabelLayer::pixelSizeXmm() const
{
    return d_->pxX;
}
double LabelLayer::pixelSizeYmm() const
{
    return d_->pxY;
}
const std::string& LabelLayer::imagePath() const
{
    return d_->image;
}
LabelPaths LabelLayer::paths() const
{
    return labelPathsFor(d_->image);
}
LabelState LabelLayer::state() const
{
    return d_->modified ? LabelState::Labelled : labelStateFor(d_->image);
}
LabelProvenance LabelLayer::provenance() const
{
    return d_->prov;
}
bool LabelLayer::modified() const
{
    return d_->modified;
}
uint64_t LabelLayer::residentBytes() const
{
    return d_->store->residentBytes();
}

Result<LabelEdit> LabelLayer::polyline(const std::vector<LabelPoint>& points, double widthPx,
                                       uint8_t value)
{
    if (points.empty())
        return Status(ErrorCode::InvalidArgument, "a polyline needs at least one point");
    if (!(widthPx > 0) || !std::isfinite(widthPx))
        return Status(ErrorCode::InvalidArgument, "the line width must be positive");
    EditRecorder rec;
    const LabelProvenance before = d_->prov;
    const uint8_t v = value ? 255 : 0;
    labels::rasterStroke(points, widthPx / 2, width(), height(), [&](int y, int x0, int x1) {
        d_->store->writeSpan(y, x0, x1, v, false, rec, d_->prov);
    });
    return d_->finish(rec, before, this);
}

Result<LabelEdit> LabelLayer::brush(const std::vector<LabelPoint>& stroke, double diameterPx,
                                    bool erase)
{
    return polyline(stroke, diameterPx, erase ? 0 : 255);
}

Result<LabelEdit> LabelLayer::setRegion(const LabelRect& r, uint8_t value)
{
    const int x0 = std::max(0, r.x), y0 = std::max(0, r.y);
    const int x1 = std::min(width(), r.x + r.width), y1 = std::min(height(), r.y + r.height);
    if (Status s = d_->checkRegionFits(x0, y0, x1, y1); !s)
        return s;
    EditRecorder rec;
    const LabelProvenance before = d_->prov;
    for (int y = y0; y < y1 && x0 < x1; ++y)
        d_->store->writeSpan(y, x0, x1 - 1, value ? 255 : 0, false, rec, d_->prov);
    return d_->finish(rec, before, this);
}

Result<LabelEdit> LabelLayer::applyProposal(const LabelRect& region, const Image& mask)
{
    return writeMask(region, mask, true);
}

Result<LabelEdit> LabelLayer::replaceRegion(const LabelRect& region, const Image& mask)
{
    return writeMask(region, mask, false);
}

Result<LabelEdit> LabelLayer::writeMask(const LabelRect& region, const Image& mask,
                                        bool fromProposal)
{
    if (region.empty() || region.x < 0 || region.y < 0 || region.x + region.width > width() ||
        region.y + region.height > height())
        return Status(ErrorCode::InvalidArgument, "the proposal region is not inside the image");
    if (mask.channels != 1 || mask.width != region.width || mask.height != region.height ||
        mask.pixels.size() != size_t(mask.width) * size_t(mask.height))
        return Status(ErrorCode::InvalidArgument,
                      "the proposal is " + std::to_string(mask.width) + " x " +
                          std::to_string(mask.height) + " px, the region " +
                          std::to_string(region.width) + " x " + std::to_string(region.height));
    if (Status s = d_->checkRegionFits(region.x, region.y, region.x + region.width,
                                       region.y + region.height);
        !s)
        return s;
    EditRecorder rec;
    const LabelProvenance before = d_->prov;
    for (int y = 0; y < mask.height; ++y) {
        const uint8_t* row = mask.row(y);
        int start = 0;
        for (int x = 1; x <= mask.width; ++x)
            if (x == mask.width || (row[x] != 0) != (row[start] != 0)) {
                d_->store->writeSpan(region.y + y, region.x + start, region.x + x - 1,
                                     row[start] ? 255 : 0, fromProposal, rec, d_->prov);
                start = x;
            }
    }
    return d_->finish(rec, before, this);
}

Result<LabelEdit> LabelLayer::fill(LabelPoint seed, uint8_t value)
{
    const int sx = int(std::floor(seed.x)), sy = int(std::floor(seed.y));
    if (!std::isfinite(seed.x) || !std::isfinite(seed.y) || sx < 0 || sy < 0 || sx >= width() ||
        sy >= height())
        return Status(ErrorCode::InvalidArgument, "fill_outside: the seed is outside the image");
    const int wx0 = std::max(0, sx - kFillHalf), wy0 = std::max(0, sy - kFillHalf);
    const int wx1 = std::min(width(), sx + kFillHalf), wy1 = std::min(height(), sy + kFillHalf);
    auto win = readRegion({wx0, wy0, wx1 - wx0, wy1 - wy0});
    if (!win)
        return win.status();
    cv::Mat img(win->height, win->width, CV_8UC1, win->pixels.data());
    if (img.at<uint8_t>(sy - wy0, sx - wx0) != 0)
        return Status(ErrorCode::InvalidArgument, "fill_on_label: the seed is on a label");
    cv::Mat mask(win->height + 2, win->width + 2, CV_8UC1, cv::Scalar(0));
    cv::Rect box;
    cv::floodFill(img, mask, cv::Point(sx - wx0, sy - wy0), cv::Scalar(255), &box, cv::Scalar(0),
                  cv::Scalar(0), 4 | cv::FLOODFILL_MASK_ONLY | (1 << 8));
    const bool left = box.x == 0, top = box.y == 0;
    const bool right = box.x + box.width == win->width, bottom = box.y + box.height == win->height;
    if ((left && wx0 == 0) || (top && wy0 == 0) || (right && wx1 == width()) ||
        (bottom && wy1 == height()))
        return Status(ErrorCode::InvalidArgument,
                      "fill_not_closed: the region reaches the image border");
    if (left || top || right || bottom)
        return Status(ErrorCode::InvalidArgument, "fill_too_large: the region reaches " +
                                                      std::to_string(kFillHalf) +
                                                      " px from the seed");
    EditRecorder rec;
    const LabelProvenance before = d_->prov;
    const uint8_t v = value ? 255 : 0;
    for (int y = box.y; y < box.y + box.height; ++y) {
        const uint8_t* m = mask.ptr<uint8_t>(y + 1) + 1;
        for (int x = box.x; x < box.x + box.width;) {
            if (!m[x]) {
                ++x;
                continue;
            }
            int e = x;
            while (e + 1 < box.x + box.width && m[e + 1])
                ++e;
            d_->store->writeSpan(wy0 + y, wx0 + x, wx0 + e, v, false, rec, d_->prov);
            x = e + 1;
        }
    }
    return d_->finish(rec, before, this);
}

void LabelLayer::undo(const LabelEdit& e)
{
    if (e.layer != this || e.empty())
        return;
    d_->store->restore(e, false);
    d_->prov = e.provenanceBefore;
    d_->modified = true;
}

void LabelLayer::redo(const LabelEdit& e)
{
    if (e.layer != this || e.empty())
        return;
    d_->store->restore(e, true);
    d_->prov = e.provenanceAfter;
    d_->modified = true;
}

Result<Image> LabelLayer::readRegion(const LabelRect& r) const
{
    if (r.empty() || r.x < 0 || r.y < 0 || r.x + r.width > width() || r.y + r.height > height())
        return Status(ErrorCode::InvalidArgument, "the region is not inside the image");
    Image out = Image::make(r.width, r.height, 1);
    const TileStore& s = *d_->store;
    const int T = s.tile();
    for (int cy = r.y / T; cy <= (r.y + r.height - 1) / T; ++cy)
        for (int cx = r.x / T; cx <= (r.x + r.width - 1) / T; ++cx) {
            const labels::TileData* t = s.get(cy * s.columns() + cx);
            if (!t)
                return d_->store->takeStatus();
            const int tw = s.tileWidth(cx), th = s.tileHeight(cy);
            const int x0 = std::max(r.x, cx * T), x1 = std::min(r.x + r.width, cx * T + tw);
            const int y0 = std::max(r.y, cy * T), y1 = std::min(r.y + r.height, cy * T + th);
            for (int y = y0; y < y1; ++y)
                std::memcpy(out.row(y - r.y) + (x0 - r.x),
                            t->pix.data() + size_t(y - cy * T) * size_t(tw) + (x0 - cx * T),
                            size_t(x1 - x0));
        }
    return out;
}

Result<Image> LabelLayer::overview(int maxSide) const
{
    if (maxSide <= 0)
        return Status(ErrorCode::InvalidArgument, "overview side must be positive");
    const TileStore& s = *d_->store;
    const int f = std::max(1, (std::max(width(), height()) + maxSide - 1) / maxSide);
    Image out = Image::make((width() + f - 1) / f, (height() + f - 1) / f, 1);
    const bool blank = s.source().kind == labels::MaskSource::Kind::None;
    for (int i = 0; i < s.tileCount(); ++i) {
        if (blank && !s.isLoaded(i))
            continue; // never edited, no file: zeros
        auto pix = s.peek(i);
        if (!pix)
            return pix.status();
        const int cx = i % s.columns(), cy = i / s.columns();
        const int tw = s.tileWidth(cx), th = s.tileHeight(cy);
        for (int r = 0; r < th; ++r) {
            const uint8_t* p = pix->data() + size_t(r) * size_t(tw);
            uint8_t* o = out.row((cy * s.tile() + r) / f);
            for (int x = 0; x < tw; ++x)
                if (p[x])
                    o[(cx * s.tile() + x) / f] = 255;
        }
    }
    return out;
}

Result<LabelLayer::SaveStats> LabelLayer::save(const CancelToken& cancel, ProgressSink* progress)
{
    const LabelPaths p = paths();
    labels::MaskMeta meta{d_->pxX, d_->pxY, d_->prov};
    auto saved = labels::saveMask(*d_->store, p.mask, meta, cancel, progress);
    if (!saved)
        return saved.status();
    auto src = labels::openMaskSource(p.mask, width(), height(), tileSize());
    if (!src)
        return src.status();
    d_->store->setSource(std::move(*src));
    d_->store->markAllClean();
    d_->modified = false;
    std::error_code ec;
    fs::remove(p.proposal, ec); // accepted into the label
    return saved;
}

} // namespace fisura
