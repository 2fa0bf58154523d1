// Tiles of a label layer; see label_store.h.
#include "label_store.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "fisura/raster.h"

namespace fs = std::filesystem;

namespace fisura::labels
{

namespace
{

Status sizeMismatch(const std::string& path, int w, int h, int width, int height)
{
    return Status(ErrorCode::Corrupt, path + ": the mask is " + std::to_string(w) + " x " +
                                          std::to_string(h) + " px, the image " +
                                          std::to_string(width) + " x " + std::to_string(height));
}

void binarize(std::vector<uint8_t>& v)
{
    for (uint8_t& b : v)
        b = b ? 255 : 0;
}

} // namespace

Result<MaskSource> openMaskSource(const std::string& path, int width, int height, int tile)
{
    MaskSource s;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return s;
    s.path = path;
    if (rasterFormatOf(path) != RasterFormat::Tiff) { // read by its tiles below
        auto img = readImage(path, 1ull << 31);
        if (!img)
            return img.status();
        if (img->width != width || img->height != height)
            return sizeMismatch(path, img->width, img->height, width, height);
        s.kind = MaskSource::Kind::Flat;
        s.flat = Image::make(width, height, 1);
        const size_t n = size_t(width) * size_t(height);
        for (size_t i = 0; i < n; ++i) {
            uint8_t any = 0;
            for (int c = 0; c < img->channels && c < 3; ++c)
                any |= img->pixels[i * size_t(img->channels) + size_t(c)];
            s.flat.pixels[i] = any ? 255 : 0;
        }
        return s;
    }
    auto h = std::make_unique<io::TiffHandle>();
    if (Status st = h->open(path, "r"); !st)
        return st;
    TIFF* tif = h->get();
    uint32_t w = 0, hh = 0, tw = 0, th = 0;
    uint16_t bps = 8, spp = 1, planar = PLANARCONFIG_CONTIG;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &hh);
    if (int(w) != width || int(hh) != height)
        return sizeMismatch(path, int(w), int(hh), width, height);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &s.compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PREDICTOR, &s.predictor);
    char* desc = nullptr;
    if (TIFFGetField(tif, TIFFTAG_IMAGEDESCRIPTION, &desc) && desc)
        s.hasProvenance = parseProvenanceJson(desc, s.provenance);
    const bool tiled = TIFFIsTiled(tif) && TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw) &&
                       TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
    if (tiled && int(tw) == tile && int(th) == tile && bps == 8 && spp == 1 &&
        planar == PLANARCONFIG_CONTIG && TIFFIsCODECConfigured(s.compression)) {
        s.kind = MaskSource::Kind::TiffTiles;
        s.tiff = std::move(h);
        return s;
    }
    h.reset();
    auto t = TiledImage::open(path);
    if (!t)
        return t.status();
    s.kind = MaskSource::Kind::Tiled;
    s.tiled = *t;
    return s;
}

TileStore::TileStore(int width, int height, int tile, uint64_t budget)
    : width_(width), height_(height), tile_(tile), cols_((width + tile - 1) / tile),
      rows_((height + tile - 1) / tile), budget_(budget)
{
}

int TileStore::tileWidth(int column) const
{
    return std::min(tile_, width_ - column * tile_);
}

int TileStore::tileHeight(int row) const
{
    return std::min(tile_, height_ - row * tile_);
}

void TileStore::setSource(MaskSource s)
{
    resident_ -= source_.flat.pixels.size();
    source_ = std::move(s);
    resident_ += source_.flat.pixels.size();
}

Status TileStore::loadTile(int index, TileData& t) const
{
    const int cx = index % cols_, cy = index / cols_;
    const int tw = tileWidth(cx), th = tileHeight(cy), x = cx * tile_, y = cy * tile_;
    t.pix.assign(size_t(tw) * size_t(th), 0);
    switch (source_.kind) {
    case MaskSource::Kind::None:
        return Status::ok();
    case MaskSource::Kind::TiffTiles: {
        std::vector<uint8_t> buf(size_t(tile_) * size_t(tile_));
        TIFF* tif = source_.tiff->get();
        const tmsize_t n =
            TIFFReadEncodedTile(tif, TIFFComputeTile(tif, uint32_t(x), uint32_t(y), 0, 0),
                                buf.data(), tmsize_t(buf.size()));
        if (n < 0)
            return source_.tiff->error(ErrorCode::Corrupt, "cannot decode mask tile");
        for (int r = 0; r < th; ++r)
            std::memcpy(t.pix.data() + size_t(r) * size_t(tw), buf.data() + size_t(r) * tile_,
                        size_t(tw));
        break;
    }
    case MaskSource::Kind::Tiled: {
        auto img = source_.tiled->readRegion(0, x, y, tw, th);
        if (!img)
            return img.status();
        const int c = img->channels;
        for (size_t i = 0; i < t.pix.size(); ++i)
            t.pix[i] =
                img->pixels[i * size_t(c)] |
                (c >= 3 ? img->pixels[i * size_t(c) + 1] | img->pixels[i * size_t(c) + 2] : 0);
        break;
    }
    case MaskSource::Kind::Flat:
        for (int r = 0; r < th; ++r)
            std::memcpy(t.pix.data() + size_t(r) * size_t(tw), source_.flat.row(y + r) + x,
                        size_t(tw));
        break;
    }
    binarize(t.pix);
    return Status::ok();
}

void TileStore::evict() const
{
    while (resident_ > budget_) {
        auto victim = tiles_.end();
        for (auto it = tiles_.begin(); it != tiles_.end(); ++it)
            if (!it->second.dirty && it->second.lastUse != clock_ &&
                (victim == tiles_.end() || it->second.lastUse < victim->second.lastUse))
                victim = it;
        if (victim == tiles_.end())
            return; // everything left is edited (pinned) or in use
        resident_ -= victim->second.pix.size() + victim->second.origin.size();
        tiles_.erase(victim);
    }
}

const TileData* TileStore::get(int index) const
{
    auto it = tiles_.find(index);
    if (it == tiles_.end()) {
        TileData t;
        if (Status s = loadTile(index, t); !s) {
            status_ = s;
            return nullptr;
        }
        resident_ += t.pix.size();
        it = tiles_.emplace(index, std::move(t)).first;
    }
    it->second.lastUse = ++clock_;
    evict();
    return &it->second;
}

TileData* TileStore::edit(int index, EditRecorder* rec)
{
    TileData* t = const_cast<TileData*>(get(index));
    if (!t)
        return nullptr;
    if (rec && !rec->tiles.count(index)) {
        LabelEdit::Tile& e = rec->tiles[index];
        e.column = index % cols_;
        e.row = index / cols_;
        e.before = t->pix;
        e.originBefore = t->origin;
        rec->wasDirty[index] = t->dirty;
    }
    t->dirty = true;
    return t;
}

Result<std::vector<uint8_t>> TileStore::peek(int index) const
{
    auto it = tiles_.find(index);
    if (it != tiles_.end())
        return it->second.pix;
    TileData t;
    if (Status s = loadTile(index, t); !s)
        return s;
    return std::move(t.pix);
}

bool TileStore::isDirty(int index) const
{
    auto it = tiles_.find(index);
    return it != tiles_.end() && it->second.dirty;
}

void TileStore::markAllClean()
{
    for (auto& [i, t] : tiles_)
        t.dirty = false;
    evict();
}

uint64_t TileStore::residentBytes() const
{
    return resident_;
}

void TileStore::writeSpan(int y, int x0, int x1, uint8_t value, bool fromProposal,
                          EditRecorder& rec, LabelProvenance& prov)
{
    const int cy = y / tile_, ly = y - cy * tile_;
    for (int cx = x0 / tile_; cx <= x1 / tile_; ++cx) {
        TileData* t = edit(cy * cols_ + cx, &rec);
        if (!t)
            return;
        const int tw = tileWidth(cx), base = cx * tile_;
        const int a = std::max(x0, base) - base, b = std::min(x1, base + tw - 1) - base;
        uint8_t* p = t->pix.data() + size_t(ly) * size_t(tw);
        if (fromProposal && value && t->origin.empty()) {
            t->origin.assign(t->pix.size(), 0);
            resident_ += t->origin.size();
        }
        uint8_t* o = t->origin.empty() ? nullptr : t->origin.data() + size_t(ly) * size_t(tw);
        for (int x = a; x <= b; ++x) {
            if (value && !p[x]) {
                p[x] = 255;
                ++prov.labelled;
                if (fromProposal) {
                    o[x] = 1;
                    ++prov.fromProposal;
                } else {
                    if (o)
                        o[x] = 0;
                    ++prov.userAdded;
                }
            } else if (!value && p[x]) {
                p[x] = 0;
                if (prov.labelled)
                    --prov.labelled;
                const bool wasProposal = o && o[x];
                if (o)
                    o[x] = 0;
                // Pixels of a saved mask have no per-pixel origin: count them as the user's
                // first, then as the proposal's (the saved split is kept only as counts).
                uint64_t& from =
                    (wasProposal || prov.userAdded == 0) ? prov.fromProposal : prov.userAdded;
                if (from)
                    --from;
                if (wasProposal && !fromProposal)
                    ++prov.proposalErased;
            }
        }
    }
}

LabelEdit TileStore::finish(EditRecorder& rec)
{
    LabelEdit e;
    for (auto& [index, tile] : rec.tiles) {
        TileData& t = tiles_.at(index);
        if (tile.before == t.pix && tile.originBefore == t.origin) {
            t.dirty = rec.wasDirty[index];
            continue;
        }
        for (size_t i = 0; i < t.pix.size(); ++i)
            e.changedPixels += tile.before[i] != t.pix[i];
        tile.after = t.pix;
        tile.originAfter = t.origin;
        e.tiles.push_back(std::move(tile));
    }
    evict();
    return e;
}

void TileStore::restore(const LabelEdit& e, bool after)
{
    for (const LabelEdit::Tile& tile : e.tiles) {
        TileData* t = edit(tile.row * cols_ + tile.column, nullptr);
        if (!t)
            continue;
        const auto& pix = after ? tile.after : tile.before;
        const auto& origin = after ? tile.originAfter : tile.originBefore;
        if (pix.size() != t->pix.size())
            continue;
        resident_ -= t->origin.size();
        t->pix = pix;
        t->origin = origin;
        resident_ += t->origin.size();
    }
}

} // namespace fisura::labels
