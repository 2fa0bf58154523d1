// TiledImage: block-wise TIFF decoding into 8-bit images, a pool of libtiff handles for
// concurrent readers, pyramid discovery (reduced-resolution pages or SubIFDs).
#include "fisura/tiledimage.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "io/tiff_handle.h"
#include "io/tiff_tags.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

std::atomic<uint64_t> g_nextImageId{1};

// Sides above this are refused outright (Image uses int; 4 Mpx a side is 40x the largest scan).
constexpr uint32_t kMaxSide = 1u << 22;
// A compressed file cannot expand by more than this (deflate tops out near 1:1000, ZSTD on
// constant tiles near 1:20000); a 10^12-pixel claim in a 1 KB file is refused at open.
constexpr double kMaxExpansion = 200000.0;
constexpr int kMaxDirectories = 64;

const char* compressionName(uint16_t c)
{
    switch (c) {
    case COMPRESSION_NONE:
        return "none";
    case COMPRESSION_LZW:
        return "lzw";
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE:
        return "deflate";
    case COMPRESSION_ZSTD:
        return "zstd";
    case COMPRESSION_JPEG:
        return "jpeg";
    case COMPRESSION_OJPEG:
        return "old-style jpeg";
    case COMPRESSION_PACKBITS:
        return "packbits";
    case COMPRESSION_WEBP:
        return "webp";
    case COMPRESSION_LZMA:
        return "lzma";
    case COMPRESSION_LERC:
        return "lerc";
    case COMPRESSION_JBIG:
        return "jbig";
    case COMPRESSION_CCITTRLE:
    case COMPRESSION_CCITTFAX3:
    case COMPRESSION_CCITTFAX4:
        return "ccitt fax";
    default:
        return nullptr;
    }
}

std::string compressionLabel(uint16_t c)
{
    const char* n = compressionName(c);
    return n ? n : "scheme " + std::to_string(c);
}

enum class Colour { Gray, GrayAlpha, Rgb, Rgba, Palette };

struct LevelDesc {
    bool subIfd = false;
    tdir_t dir = 0;
    toff_t subOffset = 0;
    uint32_t width = 0, height = 0;
    bool tiled = false;
    uint32_t tileW = 0, tileH = 0;
    uint32_t rowsPerStrip = 0;
    bool scanline = false; // strips too large to decode whole: read rows
    uint32_t blockW = 0, blockH = 0, across = 0, down = 0;
    uint16_t compression = COMPRESSION_NONE, photometric = PHOTOMETRIC_MINISBLACK;
    uint16_t planar = PLANARCONFIG_CONTIG, spp = 1, bps = 8, subfileType = 0;
    bool jpegRgb = false;
    Colour colour = Colour::Gray;
    int alphaSample = -1;
    bool alphaAssociated = false;
    bool minIsWhite = false;
    std::vector<uint8_t> palette; // 256 x RGB
};

int channelsOf(Colour c)
{
    switch (c) {
    case Colour::Gray:
        return 1;
    case Colour::Rgb:
    case Colour::Palette:
        return 3;
    default:
        return 4;
    }
}

const char* colourName(Colour c)
{
    switch (c) {
    case Colour::Gray:
        return "gray";
    case Colour::GrayAlpha:
        return "gray+alpha";
    case Colour::Rgb:
        return "rgb";
    case Colour::Rgba:
        return "rgba";
    default:
        return "palette";
    }
}

// Reads the current directory's layout and refuses what Fisura does not decode.
Status parseLevel(io::TiffHandle& h, LevelDesc& L, uint64_t fileBytes, uint64_t maxBlockBytes)
{
    TIFF* tif = h.get();
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &L.width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &L.height))
        return h.error(ErrorCode::Corrupt, "no image size");
    if (L.width == 0 || L.height == 0)
        return h.error(ErrorCode::Corrupt, "zero-size image (" + std::to_string(L.width) + " x " +
                                               std::to_string(L.height) + ")");
    const std::string dims = std::to_string(L.width) + " x " + std::to_string(L.height) + " px";
    if (L.width > kMaxSide || L.height > kMaxSide)
        return h.error(ErrorCode::Unsupported, dims + " exceeds the largest side Fisura handles (" +
                                                   std::to_string(kMaxSide) + ")");
    uint16_t sampleFormat = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &L.bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &L.spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sampleFormat);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &L.planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &L.compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &L.subfileType);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &L.photometric))
        L.photometric = L.spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;

    if (sampleFormat == SAMPLEFORMAT_IEEEFP || sampleFormat == SAMPLEFORMAT_COMPLEXIEEEFP)
        return h.error(ErrorCode::Unsupported, "floating-point samples are not supported");
    if (sampleFormat == SAMPLEFORMAT_INT || sampleFormat == SAMPLEFORMAT_COMPLEXINT)
        return h.error(ErrorCode::Unsupported, "signed integer samples are not supported");
    if (sampleFormat != SAMPLEFORMAT_UINT && sampleFormat != SAMPLEFORMAT_VOID)
        return h.error(ErrorCode::Unsupported, "unknown sample format");
    if (L.bps != 8 && L.bps != 16)
        return h.error(ErrorCode::Unsupported,
                       std::to_string(L.bps) + "-bit samples are not supported (8 or 16 only)");
    if (L.compression == COMPRESSION_OJPEG)
        return h.error(ErrorCode::Unsupported, "old-style JPEG compression is not supported");
    if (!TIFFIsCODECConfigured(L.compression))
        return h.error(ErrorCode::Unsupported,
                       "compression " + compressionLabel(L.compression) + " is not available");
    if (L.compression == COMPRESSION_JPEG && L.bps != 8)
        return h.error(ErrorCode::Unsupported, "JPEG with more than 8 bits per sample");
    if (L.planar != PLANARCONFIG_CONTIG && L.planar != PLANARCONFIG_SEPARATE)
        return h.error(ErrorCode::Corrupt, "invalid planar configuration");

    int colourSamples = 1;
    switch (L.photometric) {
    case PHOTOMETRIC_MINISBLACK:
        break;
    case PHOTOMETRIC_MINISWHITE:
        L.minIsWhite = true;
        break;
    case PHOTOMETRIC_RGB:
        colourSamples = 3;
        break;
    case PHOTOMETRIC_PALETTE:
        if (L.bps != 8)
            return h.error(ErrorCode::Unsupported, "palette images must have 8-bit indices");
        break;
    case PHOTOMETRIC_YCBCR:
        if (L.compression != COMPRESSION_JPEG)
            return h.error(ErrorCode::Unsupported, "YCbCr is supported only with JPEG");
        if (L.planar != PLANARCONFIG_CONTIG)
            return h.error(ErrorCode::Unsupported, "planar YCbCr is not supported");
        colourSamples = 3;
        L.jpegRgb = true; // libjpeg converts to RGB (and upsamples chroma) for us
        break;
    case PHOTOMETRIC_SEPARATED:
        return h.error(ErrorCode::Unsupported, "CMYK (separated) images are not supported");
    default:
        return h.error(ErrorCode::Unsupported, "photometric interpretation " +
                                                   std::to_string(L.photometric) +
                                                   " is not supported");
    }
    if (L.spp < colourSamples || L.spp > 16)
        return h.error(ErrorCode::Corrupt, std::to_string(L.spp) + " samples per pixel");

    uint16_t extra = 0;
    uint16_t* extraTypes = nullptr;
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra, &extraTypes);
    for (int i = 0; i < extra && extraTypes; ++i)
        if (extraTypes[i] == EXTRASAMPLE_ASSOCALPHA || extraTypes[i] == EXTRASAMPLE_UNASSALPHA) {
            if (colourSamples + i < L.spp) {
                L.alphaSample = colourSamples + i;
                L.alphaAssociated = extraTypes[i] == EXTRASAMPLE_ASSOCALPHA;
            }
            break;
        }
    // As libtiff's RGBA interface does: a 4th RGB sample without ExtraSamples is alpha.
    if (extra == 0 && L.spp == 4 && L.photometric == PHOTOMETRIC_RGB) {
        L.alphaSample = 3;
        L.alphaAssociated = true;
    }
    if (L.photometric == PHOTOMETRIC_PALETTE) {
        L.colour = Colour::Palette;
        uint16_t *r = nullptr, *g = nullptr, *b = nullptr;
        if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b)
            return h.error(ErrorCode::Corrupt, "palette image without a colour map");
        bool wide = false;
        for (int i = 0; i < 256; ++i)
            wide = wide || r[i] > 255 || g[i] > 255 || b[i] > 255;
        L.palette.resize(768);
        for (int i = 0; i < 256; ++i) {
            L.palette[i * 3] = static_cast<uint8_t>(wide ? r[i] >> 8 : r[i]);
            L.palette[i * 3 + 1] = static_cast<uint8_t>(wide ? g[i] >> 8 : g[i]);
            L.palette[i * 3 + 2] = static_cast<uint8_t>(wide ? b[i] >> 8 : b[i]);
        }
    } else if (colourSamples == 3) {
        L.colour = L.alphaSample >= 0 ? Colour::Rgba : Colour::Rgb;
    } else {
        L.colour = L.alphaSample >= 0 ? Colour::GrayAlpha : Colour::Gray;
    }

    // Every byte the pixels claim must be plausibly in the file before anything is allocated.
    const uint64_t decoded = uint64_t(L.width) * L.height * L.spp * (L.bps / 8);
    if (fileBytes == 0 || (L.compression == COMPRESSION_NONE && decoded > fileBytes) ||
        double(decoded) > double(fileBytes) * kMaxExpansion)
        return h.error(ErrorCode::Corrupt, dims + " (" + std::to_string(decoded) +
                                               " bytes) cannot be held in a file of " +
                                               std::to_string(fileBytes) + " bytes");

    if (L.jpegRgb)
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    const uint64_t pixelBytes = uint64_t(L.spp) * (L.bps / 8);
    const uint64_t planeDiv = L.planar == PLANARCONFIG_SEPARATE ? L.spp : 1;
    L.tiled = TIFFIsTiled(tif) != 0;
    if (L.tiled) {
        if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &L.tileW) ||
            !TIFFGetField(tif, TIFFTAG_TILELENGTH, &L.tileH) || L.tileW == 0 || L.tileH == 0)
            return h.error(ErrorCode::Corrupt, "tiled image without a tile size");
        const uint64_t tileBytes = uint64_t(L.tileW) * L.tileH * pixelBytes;
        if (tileBytes > maxBlockBytes * 4)
            return h.error(ErrorCode::Unsupported, "tiles of " + std::to_string(L.tileW) + " x " +
                                                       std::to_string(L.tileH) +
                                                       " px are too large");
        if (uint64_t(TIFFTileSize64(tif)) != tileBytes / planeDiv)
            return h.error(ErrorCode::Unsupported, "unexpected tile layout (subsampling?)");
        L.blockW = L.tileW;
        L.blockH = L.tileH;
    } else {
        uint32_t rps = L.height;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rps);
        L.rowsPerStrip = std::min(std::max<uint32_t>(rps, 1), L.height);
        const uint64_t rowBytes = uint64_t(L.width) * pixelBytes;
        if (uint64_t(TIFFScanlineSize64(tif)) != rowBytes / planeDiv)
            return h.error(ErrorCode::Unsupported, "unexpected strip layout (subsampling?)");
        L.blockW = L.width;
        if (rowBytes * L.rowsPerStrip > maxBlockBytes) {
            // One strip holds too much to decode at once: read it a band of rows at a time.
            L.scanline = true;
            L.blockH = static_cast<uint32_t>(std::clamp<uint64_t>(
                maxBlockBytes / rowBytes, 1, std::min<uint32_t>(256, L.rowsPerStrip)));
        } else {
            // Group small strips into blocks of about 256 rows: fewer, larger cache entries.
            uint64_t per = std::max<uint64_t>(1, 256 / L.rowsPerStrip);
            per = std::max<uint64_t>(1, std::min(per, maxBlockBytes / (rowBytes * L.rowsPerStrip)));
            L.blockH = static_cast<uint32_t>(std::min<uint64_t>(per * L.rowsPerStrip, L.height));
        }
    }
    L.across = (L.width + L.blockW - 1) / L.blockW;
    L.down = (L.height + L.blockH - 1) / L.blockH;
    return Status::ok();
}

bool sameKind(const LevelDesc& a, const LevelDesc& b)
{
    return a.colour == b.colour && a.bps == b.bps && a.minIsWhite == b.minIsWhite &&
           (a.colour != Colour::Palette || a.palette == b.palette);
}

// A smaller image with level 0's aspect ratio (labels and macro photos of slides are not).
bool isReduction(const LevelDesc& base, const LevelDesc& prev, const LevelDesc& c)
{
    if (c.width >= prev.width || c.height >= prev.height || c.width < 1)
        return false;
    const double expectH = double(base.height) * c.width / base.width;
    return std::fabs(expectH - c.height) <= 1.0 + 0.02 * c.height;
}

} // namespace

struct TiledImage::Impl {
    struct PooledHandle {
        io::TiffHandle h;
        int level = -1;
        // Handles read with pread, not mmap: mapped file pages would count as resident memory.
        // Scanline mode: the next row libtiff will decode for `rowSample` (-1: unknown).
        // Codecs cannot skip forward, so reads resume from here or from the strip start.
        int64_t nextRow = -1;
        int rowSample = -1;
    };

    TiledImageInfo info;
    uint64_t id = 0;
    TiledOpenOptions opts;
    std::vector<LevelDesc> levels;
    std::array<uint8_t, 256> lut8{};
    std::vector<uint8_t> lut16; // 65536 entries when 16-bit

    std::mutex poolMutex;
    std::condition_variable poolCv;
    std::vector<std::unique_ptr<PooledHandle>> freeHandles;
    int openHandles = 0;

    // Borrowed handle, returned to the pool on destruction.
    struct Lease {
        Impl* owner = nullptr;
        std::unique_ptr<PooledHandle> p;
        ~Lease()
        {
            if (owner && p)
                owner->giveBack(std::move(p));
        }
    };

    void giveBack(std::unique_ptr<PooledHandle> p)
    {
        {
            std::lock_guard<std::mutex> lock(poolMutex);
            freeHandles.push_back(std::move(p));
        }
        poolCv.notify_one();
    }

    Status selectLevel(PooledHandle& ph, int level)
    {
        if (ph.level == level)
            return Status::ok();
        const LevelDesc& L = levels[level];
        ph.level = -1;
        ph.nextRow = -1;
        ph.h.takeError();
        const int ok = L.subIfd ? TIFFSetSubDirectory(ph.h.get(), L.subOffset)
                                : TIFFSetDirectory(ph.h.get(), L.dir);
        if (!ok)
            return ph.h.error(ErrorCode::Corrupt, "cannot read level " + std::to_string(level));
        if (L.jpegRgb)
            TIFFSetField(ph.h.get(), TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        ph.level = level;
        return Status::ok();
    }

    Status borrow(int level, Lease& lease)
    {
        lease.owner = this;
        {
            std::unique_lock<std::mutex> lock(poolMutex);
            poolCv.wait(lock,
                        [&] { return !freeHandles.empty() || openHandles < opts.maxHandles; });
            if (!freeHandles.empty()) {
                auto it = std::find_if(freeHandles.begin(), freeHandles.end(),
                                       [&](const auto& p) { return p->level == level; });
                if (it == freeHandles.end())
                    it = freeHandles.end() - 1;
                lease.p = std::move(*it);
                freeHandles.erase(it);
            } else {
                ++openHandles;
            }
        }
        if (!lease.p) {
            auto p = std::make_unique<PooledHandle>();
            if (Status s = p->h.open(info.path, "rm"); !s) {
                std::lock_guard<std::mutex> lock(poolMutex);
                --openHandles;
                poolCv.notify_one();
                lease.owner = nullptr;
                return s;
            }
            p->level = 0;
            if (levels[0].jpegRgb)
                TIFFSetField(p->h.get(), TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
            lease.p = std::move(p);
        }
        return selectLevel(*lease.p, level);
    }

    // Raw samples of one block, interleaved (planes merged), `bw` x `bh` pixels, native depth.
    Status readRaw(int level, int bx, int by, std::vector<uint8_t>& out, int& bw, int& bh)
    {
        const LevelDesc& L = levels[level];
        const uint32_t x0 = uint32_t(bx) * L.blockW, y0 = uint32_t(by) * L.blockH;
        bw = static_cast<int>(std::min(L.blockW, L.width - x0));
        bh = static_cast<int>(std::min(L.blockH, L.height - y0));
        const size_t sb = L.bps / 8;
        const size_t px = L.spp * sb;
        const bool separate = L.planar == PLANARCONFIG_SEPARATE;
        const std::string where =
            "level " + std::to_string(level) +
            (L.tiled ? " tile " : (L.scanline ? " rows from " : " strip ")) +
            (L.tiled ? std::to_string(bx) + "," + std::to_string(by) + " (x " + std::to_string(x0) +
                           ", y " + std::to_string(y0) + ")"
                     : std::to_string(L.scanline ? y0 : y0 / L.rowsPerStrip));
        Lease lease;
        if (Status s = borrow(level, lease); !s)
            return s;
        io::TiffHandle& h = lease.p->h;
        TIFF* tif = h.get();
        h.takeError();
        out.resize(size_t(bw) * bh * px);
        std::vector<uint8_t> buf;

        auto scatter = [&](const uint8_t* src, size_t srcStride, int rows, int s, int rowOffset) {
            // Copies `rows` rows of one plane (s >= 0) or of all samples (s < 0) into `out`.
            for (int y = 0; y < rows; ++y) {
                const uint8_t* sp = src + size_t(y) * srcStride;
                uint8_t* dp = out.data() + size_t(y + rowOffset) * bw * px;
                if (s < 0) {
                    std::memcpy(dp, sp, size_t(bw) * px);
                } else {
                    for (int x = 0; x < bw; ++x)
                        std::memcpy(dp + x * px + s * sb, sp + x * sb, sb);
                }
            }
        };

        const int planes = separate ? L.spp : 1;
        if (L.tiled) {
            const tmsize_t tileBytes = TIFFTileSize(tif);
            buf.resize(size_t(tileBytes));
            for (int s = 0; s < planes; ++s) {
                const uint32_t t = TIFFComputeTile(tif, x0, y0, 0, uint16_t(s));
                if (TIFFReadEncodedTile(tif, t, buf.data(), tileBytes) < 0)
                    return h.error(ErrorCode::Corrupt, "cannot decode " + where);
                scatter(buf.data(), size_t(L.tileW) * (separate ? sb : px), bh, separate ? s : -1,
                        0);
            }
        } else if (!L.scanline) {
            const size_t rowBytes = size_t(L.width) * (separate ? sb : px);
            buf.resize(size_t(L.rowsPerStrip) * rowBytes);
            for (uint32_t y = y0; y < y0 + uint32_t(bh); y += L.rowsPerStrip) {
                const int rows = int(std::min(L.rowsPerStrip, L.height - y));
                const tmsize_t want = tmsize_t(rows) * tmsize_t(rowBytes);
                for (int s = 0; s < planes; ++s) {
                    const uint32_t strip = TIFFComputeStrip(tif, y, uint16_t(s));
                    if (TIFFReadEncodedStrip(tif, strip, buf.data(), want) < want)
                        return h.error(ErrorCode::Corrupt, "cannot decode level " +
                                                               std::to_string(level) + " strip " +
                                                               std::to_string(strip));
                    scatter(buf.data(), rowBytes, rows, separate ? s : -1, int(y - y0));
                }
            }
        } else {
            const size_t rowBytes = size_t(L.width) * (separate ? sb : px);
            buf.resize(rowBytes);
            Impl::PooledHandle& ph = *lease.p;
            for (int s = 0; s < planes; ++s) {
                const int64_t stripStart = int64_t(y0 / L.rowsPerStrip) * L.rowsPerStrip;
                int64_t from = stripStart;
                if (ph.rowSample == s && ph.nextRow >= stripStart && ph.nextRow <= int64_t(y0))
                    from = ph.nextRow;
                ph.nextRow = -1; // unknown until the loop succeeds
                for (int64_t y = from; y < int64_t(y0) + bh; ++y) {
                    if (TIFFReadScanline(tif, buf.data(), uint32_t(y), uint16_t(s)) < 0)
                        return h.error(ErrorCode::Corrupt, "cannot decode level " +
                                                               std::to_string(level) + " row " +
                                                               std::to_string(y));
                    if (y >= int64_t(y0))
                        scatter(buf.data(), rowBytes, 1, separate ? s : -1, int(y - y0));
                }
                ph.rowSample = s;
                ph.nextRow = int64_t(y0) + bh;
            }
        }
        // Some codecs report trouble (a short tile) only through the error handler.
        const std::string late = h.takeError();
        if (!late.empty())
            return Status(ErrorCode::Corrupt,
                          info.path + ": cannot decode " + where + " (" + late + ")");
        return Status::ok();
    }

    Image convert(const LevelDesc& L, const std::vector<uint8_t>& raw, int bw, int bh) const
    {
        const int C = info.channels;
        Image im = Image::make(bw, bh, C);
        const size_t n = size_t(bw) * bh;
        const int spp = L.spp;
        const uint8_t* lut = L.bps == 16 ? lut16.data() : lut8.data();
        const uint16_t* s16 = reinterpret_cast<const uint16_t*>(raw.data());
        const uint8_t* s8 = raw.data();
        auto sample = [&](size_t i, int k) -> uint8_t {
            return L.bps == 16 ? lut[s16[i * spp + k]] : lut[s8[i * spp + k]];
        };
        auto alpha = [&](size_t i) -> uint8_t {
            return L.bps == 16 ? uint8_t(s16[i * spp + L.alphaSample] >> 8)
                               : s8[i * spp + L.alphaSample];
        };
        uint8_t* o = im.pixels.data();
        switch (L.colour) {
        case Colour::Gray:
            for (size_t i = 0; i < n; ++i)
                o[i] = sample(i, 0);
            break;
        case Colour::GrayAlpha:
            for (size_t i = 0; i < n; ++i) {
                o[i * 4] = o[i * 4 + 1] = o[i * 4 + 2] = sample(i, 0);
                o[i * 4 + 3] = alpha(i);
            }
            break;
        case Colour::Rgb:
            if (L.bps == 8 && spp == 3) {
                std::memcpy(o, s8, n * 3);
                break;
            }
            for (size_t i = 0; i < n; ++i)
                for (int k = 0; k < 3; ++k)
                    o[i * 3 + k] = sample(i, k);
            break;
        case Colour::Rgba:
            for (size_t i = 0; i < n; ++i) {
                for (int k = 0; k < 3; ++k)
                    o[i * 4 + k] = sample(i, k);
                o[i * 4 + 3] = alpha(i);
            }
            break;
        case Colour::Palette:
            for (size_t i = 0; i < n; ++i)
                std::memcpy(o + i * 3, &L.palette[size_t(s8[i * spp]) * 3], 3);
            break;
        }
        return im;
    }

    Result<std::shared_ptr<const Image>> decode(int level, int bx, int by)
    {
        try {
            std::vector<uint8_t> raw;
            int bw = 0, bh = 0;
            if (Status s = readRaw(level, bx, by, raw, bw, bh); !s)
                return s;
            return std::shared_ptr<const Image>(
                std::make_shared<Image>(convert(levels[level], raw, bw, bh)));
        } catch (const std::bad_alloc&) {
            return Status(ErrorCode::OutOfMemory, info.path + ": level " + std::to_string(level) +
                                                      " block " + std::to_string(bx) + "," +
                                                      std::to_string(by));
        }
    }

    // 16-bit: 0.5/99.5 percentiles of the colour samples, from the smallest level when it is
    // small, else from up to 64 blocks spread over level 0. Every level shares the result.
    void computeStretch()
    {
        const LevelDesc& L0 = levels[0];
        const bool useAlpha = L0.alphaSample >= 0;
        std::vector<uint64_t> hist(65536, 0);
        auto addBlock = [&](int level, int bx, int by) {
            std::vector<uint8_t> raw;
            int bw = 0, bh = 0;
            if (!readRaw(level, bx, by, raw, bw, bh))
                return;
            const auto* s = reinterpret_cast<const uint16_t*>(raw.data());
            const size_t n = size_t(bw) * bh;
            const int spp = levels[level].spp;
            const int colourSamples = L0.colour == Colour::Rgb || L0.colour == Colour::Rgba ? 3 : 1;
            for (size_t i = 0; i < n; ++i)
                for (int k = 0; k < colourSamples; ++k)
                    if (!useAlpha || k != L0.alphaSample)
                        ++hist[s[i * spp + k]];
        };
        const int last = int(levels.size()) - 1;
        const LevelDesc& Ls = levels[last];
        if (uint64_t(Ls.width) * Ls.height <= 4ull * 1024 * 1024) {
            for (uint32_t by = 0; by < Ls.down; ++by)
                for (uint32_t bx = 0; bx < Ls.across; ++bx)
                    addBlock(last, int(bx), int(by));
        } else {
            const uint32_t step = std::max<uint32_t>(
                1, uint32_t(std::ceil(std::sqrt(double(L0.across) * L0.down / 64.0))));
            for (uint32_t by = step / 2; by < L0.down; by += step)
                for (uint32_t bx = step / 2; bx < L0.across; bx += step)
                    addBlock(0, int(bx), int(by));
        }
        uint64_t total = 0;
        for (auto c : hist)
            total += c;
        double lo = 0, hi = 65535;
        if (total > 0) {
            const uint64_t loCount = uint64_t(double(total) * 0.005);
            const uint64_t hiCount = uint64_t(double(total) * 0.995);
            uint64_t acc = 0;
            bool haveLo = false;
            for (int v = 0; v < 65536; ++v) {
                acc += hist[v];
                if (!haveLo && acc > loCount) {
                    lo = v;
                    haveLo = true;
                }
                if (acc > hiCount || acc == total) {
                    hi = v;
                    break;
                }
            }
        }
        if (hi <= lo)
            hi = lo + 1;
        info.stretchLow = lo;
        info.stretchHigh = hi;
        lut16.resize(65536);
        for (int v = 0; v < 65536; ++v) {
            const double t = std::clamp((v - lo) * 255.0 / (hi - lo), 0.0, 255.0);
            const auto b = static_cast<uint8_t>(std::lround(t));
            lut16[v] = L0.minIsWhite ? uint8_t(255 - b) : b;
        }
    }
};

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
        return Status(ErrorCode::NotFound, path);
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
    if (!TIFFSetDirectory(tif, 0))
        return h.error(ErrorCode::Corrupt, "cannot return to the first directory");
    if (base.jpegRgb)
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);

    TiledImageInfo& info = d->info;
    info.width = int(base.width);
    info.height = int(base.height);
    info.channels = channelsOf(base.colour);
    info.bitsPerSample = base.bps;
    info.samplesPerPixel = base.spp;
    info.tiled = base.tiled;
    info.planarSeparate = base.planar == PLANARCONFIG_SEPARATE;
    info.compression = compressionLabel(base.compression);
    info.colour = base.jpegRgb ? "ycbcr" : colourName(base.colour);
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
    for (int v = 0; v < 256; ++v)
        d->lut8[v] = base.minIsWhite ? uint8_t(255 - v) : uint8_t(v);

    first->level = 0;
    d->openHandles = 1;
    d->freeHandles.push_back(std::move(first));
    d->id = g_nextImageId.fetch_add(1);
    if (base.bps == 16)
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
    if (d_->opts.cache)
        if (auto hit = d_->opts.cache->find(key))
            return hit;
    auto r = d_->decode(level, column, row);
    if (r && d_->opts.cache)
        d_->opts.cache->insert(key, *r);
    return r;
}

Result<Image> TiledImage::readRegion(int level, int x, int y, int width, int height) const
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
    if (uint64_t(width) * height * C > (1ull << 31))
        return Status(ErrorCode::InvalidArgument, d_->info.path + ": region too large");
    Image out;
    try {
        out = Image::make(width, height, C);
    } catch (const std::bad_alloc&) {
        return Status(ErrorCode::OutOfMemory, d_->info.path + ": region");
    }
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
                std::memcpy(out.row(yy - y) + size_t(sx - x) * C,
                            blk.row(yy - oy) + size_t(sx - ox) * C, size_t(ex - sx) * C);
        }
    return out;
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
