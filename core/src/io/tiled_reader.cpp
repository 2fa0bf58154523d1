// TiledImage: opening a TIFF (level discovery: reduced-resolution pages or SubIFDs) and the
// public reads. Directory parsing is in tiff_level.cpp, block decoding in tiled_blocks.cpp, the
// conversion to 8-bit in tiled_convert.cpp.
#include "fisura/tiledimage.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "io/tiff_tags.h"
#include "io/tiled_impl.h"

namespace fs = std::filesystem;

namespace fisura
{

using namespace io; // LevelDesc, parseLevel and the limits of tiff_level.h

namespace
{

std::atomic<uint64_t> g_nextImageId{1};

/// Full-resolution images in the file (see TiledImageInfo::pages): top-level directories that
/// are not levels in `levels` and not marked reduced or mask. Leaves the directory anywhere.
int countPages(TIFF* tif, const std::vector<LevelDesc>& levels)
{
    if (!TIFFSetDirectory(tif, 0))
        return 1;
    int pages = 1;
    for (int i = 1; i < kMaxDirectories && TIFFReadDirectory(tif); ++i) {
        const bool level = std::any_of(levels.begin(), levels.end(), [&](const LevelDesc& L) {
            return !L.subIfd && L.dir == tdir_t(i);
        });
        uint32_t type = 0;
        TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &type);
        if (!level && (type & (FILETYPE_REDUCEDIMAGE | FILETYPE_MASK)) == 0)
            ++pages;
    }
    return pages;
}

} // namespace

TiledImage::TiledImage(std::unique_ptr<Impl> impl) : d_(std::move(impl)) {}

TiledImage::~TiledImage()
{
    if (d_ && d_->opts.cache)
        d_->opts.cache->dropFile(d_->id);
}

Result<std::shared_ptr<TiledImage>> TiledImage::open(const std::string& path,
                                                     const TiledOpenOptions& options)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return fs::is_directory(path, ec)
                   ? Status(ErrorCode::IoError, path + " is a folder, not an image file")
                   : Status(ErrorCode::NotFound, path);
    const uint64_t fileBytes = fs::file_size(path, ec);
    if (ec)
        return Status(ErrorCode::IoError, path + ": " + ec.message());
    if (options.maxHandles < 1 || options.maxBlockBytes < 1024)
        return Status(ErrorCode::InvalidArgument, "invalid TiledOpenOptions");

    auto d = std::make_unique<Impl>();
    d->opts = options;
    d->info.path = path;
    auto first = std::make_unique<Impl::PooledHandle>();
    io::TiffHandle& h = first->h;
    if (Status s = h.open(path, "rm"); !s)
        return s;
    TIFF* tif = h.get();

    LevelDesc base;
    if (Status s = parseLevel(h, base, fileBytes, options.maxBlockBytes); !s)
        return s;
    if (Status s = checkClaim(h, base, fileBytes, options.limits); !s)
        return s;
    // Level-0 metadata before the directory changes.
    d->info.bigTiff = (TIFFIsBigTIFF(tif) != 0);
    uint16_t unit = RESUNIT_INCH;
    float xres = 0, yres = 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_RESOLUTIONUNIT, &unit);
    if (TIFFGetField(tif, TIFFTAG_XRESOLUTION, &xres) && xres > 0 && std::isfinite(xres) &&
        unit != RESUNIT_NONE) {
        const double mmPerUnit = unit == RESUNIT_CENTIMETER ? 10.0 : 25.4;
        d->info.pixelSizeXmm = mmPerUnit / xres;
        d->info.pixelSizeYmm = d->info.pixelSizeXmm;
        if (TIFFGetField(tif, TIFFTAG_YRESOLUTION, &yres) && yres > 0 && std::isfinite(yres))
            d->info.pixelSizeYmm = mmPerUnit / yres;
    }
    d->info.geoTags = io::readOpaqueTags(tif);
    std::vector<toff_t> subOffsets;
    {
        uint16_t n = 0;
        toff_t* offs = nullptr;
        if (TIFFGetField(tif, TIFFTAG_SUBIFD, &n, &offs) && offs)
            subOffsets.assign(offs, offs + std::min<uint16_t>(n, kMaxDirectories));
    }
    d->levels.push_back(base);

    // Pyramid: SubIFDs of IFD0 first, else later top-level pages that are reductions.
    std::vector<LevelDesc> found;
    for (toff_t off : subOffsets) {
        h.takeError();
        if (!TIFFSetSubDirectory(tif, off))
            continue;
        LevelDesc L;
        L.subIfd = true;
        L.subOffset = off;
        if (parseLevel(h, L, fileBytes, options.maxBlockBytes) && sameKind(base, L))
            found.push_back(L);
    }
    if (found.empty()) {
        h.takeError();
        if (TIFFSetDirectory(tif, 0)) {
            for (int i = 1; i < kMaxDirectories && TIFFReadDirectory(tif); ++i) {
                LevelDesc L;
                L.dir = static_cast<tdir_t>(i);
                if (parseLevel(h, L, fileBytes, options.maxBlockBytes) && sameKind(base, L))
                    found.push_back(L);
            }
        }
        d->info.pyramidKind = found.empty() ? "none" : "pages";
    } else {
        d->info.pyramidKind = "subifds";
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const LevelDesc& a, const LevelDesc& b) { return a.width > b.width; });
    for (const auto& L : found)
        if (isReduction(base, d->levels.back(), L))
            d->levels.push_back(L);
    if (d->levels.size() == 1)
        d->info.pyramidKind = "none";
    h.takeError();
    d->info.pages = countPages(tif, d->levels);
    h.takeError();
    if (!TIFFSetDirectory(tif, 0))
        return h.error(ErrorCode::Corrupt, "cannot return to the first directory");
    if (base.jpegRgb)
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    if (base.logLuv)
        useLogLuv8(tif);

    TiledImageInfo& info = d->info;
    info.width = int(base.width);
    info.height = int(base.height);
    info.channels = channelsOf(base.colour);
    info.bitsPerSample = base.bps;
    info.samplesPerPixel = base.spp;
    info.tiled = base.tiled;
    info.planarSeparate = base.planar == PLANARCONFIG_SEPARATE;
    info.compression = compressionLabel(base.compression);
    info.colour = base.jpegRgb  ? "ycbcr"
                  : base.logLuv ? (base.colour == Colour::Gray ? "logl" : "logluv")
                                : colourName(base.colour);
    info.sampleFormat = base.sampleFormat == SAMPLEFORMAT_INT      ? "int"
                        : base.sampleFormat == SAMPLEFORMAT_IEEEFP ? "float"
                                                                   : "uint";
    info.alphaPremultiplied = base.alphaSample >= 0 && base.alphaAssociated;
    for (const auto& L : d->levels) {
        TiledLevel t;
        t.width = int(L.width);
        t.height = int(L.height);
        t.blockWidth = int(L.blockW);
        t.blockHeight = int(L.blockH);
        t.blocksAcross = int(L.across);
        t.blocksDown = int(L.down);
        t.downsample = double(base.width) / L.width;
        info.levels.push_back(t);
    }
    // 1, 2 and 4 bits expand to 0..255 (v * 255 / (2^bits - 1): 1-bit to 0/255, as libvips).
    const int maxCode = base.packed() ? (1 << base.bps) - 1 : 255;
    for (int v = 0; v < 256; ++v) {
        const auto b = uint8_t(std::min(v, maxCode) * 255 / maxCode);
        d->lut8[v] = base.minIsWhite ? uint8_t(255 - b) : b;
    }

    first->level = 0;
    d->openHandles = 1;
    d->freeHandles.push_back(std::move(first));
    d->id = g_nextImageId.fetch_add(1);
    if (base.stretched())
        d->computeStretch();
    return std::shared_ptr<TiledImage>(new TiledImage(std::move(d)));
}

const TiledImageInfo& TiledImage::info() const
{
    return d_->info;
}

uint64_t TiledImage::id() const
{
    return d_->id;
}

int TiledImage::levelCount() const
{
    return int(d_->levels.size());
}

int TiledImage::bestLevelForDownsample(double downsample) const
{
    int best = 0;
    for (int i = 0; i < levelCount(); ++i)
        if (d_->info.levels[i].downsample <= downsample * 1.01)
            best = i;
    return best;
}

Result<std::shared_ptr<const Image>> TiledImage::readBlock(int level, int column, int row) const
{
    if (level < 0 || level >= levelCount())
        return Status(ErrorCode::InvalidArgument,
                      d_->info.path + ": no level " + std::to_string(level));
    const TiledLevel& L = d_->info.levels[level];
    if (column < 0 || row < 0 || column >= L.blocksAcross || row >= L.blocksDown)
        return Status(ErrorCode::InvalidArgument,
                      d_->info.path + ": no block " + std::to_string(column) + "," +
                          std::to_string(row) + " in level " + std::to_string(level));
    const TileId key{d_->id, level, column, row};
    if (!d_->opts.cache)
        return d_->decode(level, column, row);
    if (auto hit = d_->opts.cache->find(key))
        return hit;
    // One decode per block at a time: the first thread decodes, later ones wait for it.
    std::shared_ptr<Impl::Flight> flight;
    bool mine = false;
    {
        std::lock_guard<std::mutex> lock(d_->flightMutex);
        auto& slot = d_->flights[key];
        if (!slot) {
            slot = std::make_shared<Impl::Flight>();
            mine = true;
        }
        flight = slot;
    }
    if (!mine) {
        std::unique_lock<std::mutex> lock(flight->mutex);
        flight->cv.wait(lock, [&] { return flight->result.has_value(); });
        return *flight->result;
    }
    auto publish = [&](const Result<std::shared_ptr<const Image>>& r) {
        {
            std::lock_guard<std::mutex> lock(flight->mutex);
            flight->result = r;
        }
        flight->cv.notify_all();
        std::lock_guard<std::mutex> lock(d_->flightMutex);
        d_->flights.erase(key);
    };
    try {
        auto r = d_->decode(level, column, row);
        if (r)
            d_->opts.cache->insert(key, *r);
        publish(r);
        return r;
    } catch (...) { // waiters must not wait for ever
        publish(Status(ErrorCode::Internal, d_->info.path + ": block decoding failed"));
        throw;
    }
}

Status TiledImage::readRegionInto(int level, int x, int y, int width, int height, uint8_t* dst,
                                  size_t dstStride) const
{
    if (level < 0 || level >= levelCount())
        return Status(ErrorCode::InvalidArgument,
                      d_->info.path + ": no level " + std::to_string(level));
    const TiledLevel& L = d_->info.levels[level];
    if (width <= 0 || height <= 0 || x < 0 || y < 0 || x > L.width - width || y > L.height - height)
        return Status(ErrorCode::InvalidArgument,
                      d_->info.path + ": region " + std::to_string(x) + "," + std::to_string(y) +
                          " " + std::to_string(width) + "x" + std::to_string(height) +
                          " outside level " + std::to_string(level));
    const int C = d_->info.channels;
    const int bx0 = x / L.blockWidth, bx1 = (x + width - 1) / L.blockWidth;
    const int by0 = y / L.blockHeight, by1 = (y + height - 1) / L.blockHeight;
    for (int by = by0; by <= by1; ++by)
        for (int bx = bx0; bx <= bx1; ++bx) {
            auto b = readBlock(level, bx, by);
            if (!b)
                return b.status();
            const Image& blk = **b;
            const int ox = bx * L.blockWidth, oy = by * L.blockHeight;
            const int sx = std::max(x, ox), ex = std::min(x + width, ox + blk.width);
            const int sy = std::max(y, oy), ey = std::min(y + height, oy + blk.height);
            for (int yy = sy; yy < ey; ++yy)
                std::memcpy(dst + size_t(yy - y) * dstStride + size_t(sx - x) * C,
                            blk.row(yy - oy) + size_t(sx - ox) * C, size_t(ex - sx) * C);
        }
    return Status::ok();
}

Result<Image> TiledImage::readRegion(int level, int x, int y, int width, int height) const
{
    const int C = d_->info.channels;
    if (width > 0 && height > 0 && uint64_t(width) * height * C > (1ull << 31))
        return Status(ErrorCode::InvalidArgument, d_->info.path + ": region too large");
    Image out;
    try {
        if (width > 0 && height > 0) {
            out.width = width;
            out.height = height;
            out.channels = C;
            out.pixels.resize(size_t(width) * size_t(height) * size_t(C));
        }
    } catch (const std::bad_alloc&) {
        return Status(ErrorCode::OutOfMemory, d_->info.path + ": region");
    }
    if (Status s = readRegionInto(level, x, y, width, height, out.pixels.data(), out.stride()); !s)
        return s;
    return out;
}

Result<std::vector<double>> TiledImage::readRawValue(int level, int x, int y) const
{
    if (level < 0 || level >= levelCount())
        return Status(ErrorCode::InvalidArgument,
                      d_->info.path + ": no level " + std::to_string(level));
    const TiledLevel& L = d_->info.levels[level];
    if (x < 0 || y < 0 || x >= L.width || y >= L.height)
        return Status(ErrorCode::InvalidArgument, d_->info.path + ": pixel " + std::to_string(x) +
                                                      "," + std::to_string(y) + " outside level " +
                                                      std::to_string(level));
    return d_->rawValue(level, x, y);
}

Result<Image> TiledImage::readLevel(int level, uint64_t maxPixels) const
{
    if (level < 0 || level >= levelCount())
        return Status(ErrorCode::InvalidArgument,
                      d_->info.path + ": no level " + std::to_string(level));
    const TiledLevel& L = d_->info.levels[level];
    if (uint64_t(L.width) * L.height > maxPixels)
        return Status(ErrorCode::Unsupported, d_->info.path + ": level " + std::to_string(level) +
                                                  " is too large to decode whole");
    return readRegion(level, 0, 0, L.width, L.height);
}

} // namespace fisura
