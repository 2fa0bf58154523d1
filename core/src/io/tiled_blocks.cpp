// TiledImage block decoding: borrowing pooled libtiff handles and reading one tile, a group
// of strips or a band of rows of one level into raw interleaved samples.
#include <algorithm>
#include <cstring>

#include "io/tile_decode.h"
#include "io/tiled_impl.h"
#include "io/tiled_samples.h"

namespace fisura
{

using io::LevelDesc;

void TiledImage::Impl::giveBack(std::unique_ptr<PooledHandle> p)
{
    {
        std::lock_guard<std::mutex> lock(poolMutex);
        freeHandles.push_back(std::move(p));
    }
    poolCv.notify_one();
}

Status TiledImage::Impl::selectLevel(PooledHandle& ph, int level)
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
    if (L.logLuv)
        io::useLogLuv8(ph.h.get());
    ph.level = level;
    return Status::ok();
}

Status TiledImage::Impl::borrow(int level, Loan& loan)
{
    loan.owner = this;
    {
        std::unique_lock<std::mutex> lock(poolMutex);
        poolCv.wait(lock, [&] { return !freeHandles.empty() || openHandles < opts.maxHandles; });
        if (!freeHandles.empty()) {
            auto it = std::find_if(freeHandles.begin(), freeHandles.end(),
                                   [&](const auto& p) { return p->level == level; });
            if (it == freeHandles.end())
                it = freeHandles.end() - 1;
            loan.p = std::move(*it);
            freeHandles.erase(it);
        } else {
            ++openHandles;
        }
    }
    if (!loan.p) {
        auto p = std::make_unique<PooledHandle>();
        if (Status s = p->h.open(info.path, "rm"); !s) {
            std::lock_guard<std::mutex> lock(poolMutex);
            --openHandles;
            poolCv.notify_one();
            loan.owner = nullptr;
            return s;
        }
        p->level = 0;
        if (levels[0].jpegRgb)
            TIFFSetField(p->h.get(), TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        if (levels[0].logLuv)
            io::useLogLuv8(p->h.get());
        loan.p = std::move(p);
    }
    return selectLevel(*loan.p, level);
}

namespace
{

// The fast path of io/tile_decode.h for one whole tile; false leaves it to libtiff.
bool inflateDirect(TIFF* tif, const LevelDesc& L, uint32_t tile, std::vector<uint8_t>& out)
{
    if (!io::directDeflateAvailable())
        return false;
    const uint64_t rawBytes = TIFFGetStrileByteCount(tif, tile);
    // A Deflate stream is at most a little larger than what it holds; more is not a tile this
    // path should trust (libtiff then says what is wrong with it).
    if (rawBytes == 0 || rawBytes > out.size() + out.size() / 8 + 4096)
        return false;
    thread_local std::vector<uint8_t> raw;
    if (raw.size() < rawBytes)
        raw.resize(size_t(rawBytes));
    if (TIFFReadRawTile(tif, tile, raw.data(), tmsize_t(rawBytes)) != tmsize_t(rawBytes))
        return false;
    return io::inflateTile(raw.data(), size_t(rawBytes), out.data(), out.size(),
                           size_t(L.tileW) * L.spp, int(L.spp),
                           L.predictor == PREDICTOR_HORIZONTAL);
}

} // namespace

Status TiledImage::Impl::readRaw(int level, int bx, int by, std::vector<uint8_t>& out, int& bw,
                                 int& bh)
{
    const LevelDesc& L = levels[level];
    const uint32_t x0 = uint32_t(bx) * L.blockW, y0 = uint32_t(by) * L.blockH;
    bw = static_cast<int>(std::min(L.blockW, L.width - x0));
    bh = static_cast<int>(std::min(L.blockH, L.height - y0));
    const size_t sb = size_t(L.sampleBytes());
    const size_t px = L.spp * sb;
    const bool separate = L.planar == PLANARCONFIG_SEPARATE;
    const size_t rowSamples = size_t(bw) * (separate ? 1 : L.spp);
    const std::string where = "level " + std::to_string(level) +
                              (L.tiled ? " tile " : (L.scanline ? " rows from " : " strip ")) +
                              (L.tiled ? std::to_string(bx) + "," + std::to_string(by) + " (x " +
                                             std::to_string(x0) + ", y " + std::to_string(y0) + ")"
                                       : std::to_string(L.scanline ? y0 : y0 / L.rowsPerStrip));
    Loan loan;
    if (Status s = borrow(level, loan); !s)
        return s;
    io::TiffHandle& h = loan.p->h;
    TIFF* tif = h.get();
    h.takeError();
    out.resize(size_t(bw) * bh * px);
    std::vector<uint8_t> buf;
    std::vector<uint8_t> unpacked(L.packed() ? rowSamples : 0);

    auto scatter = [&](const uint8_t* src, size_t srcStride, int rows, int s, int rowOffset) {
        // Copies `rows` rows of one plane (s >= 0) or of all samples (s < 0) into `out`.
        for (int y = 0; y < rows; ++y) {
            const uint8_t* sp = src + size_t(y) * srcStride;
            if (L.packed()) { // 1, 2 or 4 bits: one byte per sample from here on
                io::unpackBits(sp, unpacked.data(), rowSamples, L.bps);
                sp = unpacked.data();
            }
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
        // A whole interleaved tile decodes straight into `out` (most blocks of most files).
        if (!separate && !L.packed() && size_t(tileBytes) == out.size()) {
            const uint32_t tile = TIFFComputeTile(tif, x0, y0, 0, 0);
            if (L.directDeflate() && inflateDirect(tif, L, tile, out))
                return Status::ok();
            h.takeError(); // what the fast path's read said: libtiff reads the tile again
            if (TIFFReadEncodedTile(tif, tile, out.data(), tileBytes) < 0)
                return h.error(ErrorCode::Corrupt, "cannot decode " + where);
            const std::string late = h.takeError();
            if (!late.empty())
                return Status(ErrorCode::Corrupt,
                              info.path + ": cannot decode " + where + " (" + late + ")");
            return Status::ok();
        }
        buf.resize(size_t(tileBytes));
        for (int s = 0; s < planes; ++s) {
            const uint32_t t = TIFFComputeTile(tif, x0, y0, 0, uint16_t(s));
            if (TIFFReadEncodedTile(tif, t, buf.data(), tileBytes) < 0)
                return h.error(ErrorCode::Corrupt, "cannot decode " + where);
            scatter(buf.data(), size_t(L.fileRowBytes(L.tileW)), bh, separate ? s : -1, 0);
        }
    } else if (!L.scanline) {
        const size_t rowBytes = size_t(L.fileRowBytes(L.width));
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
        const size_t rowBytes = size_t(L.fileRowBytes(L.width));
        buf.resize(rowBytes);
        Impl::PooledHandle& ph = *loan.p;
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

} // namespace fisura
