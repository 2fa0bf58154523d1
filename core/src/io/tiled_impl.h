// TiledImage's private state: the levels, a pool of libtiff handles shared by reading threads,
// raw block decoding (tiled_blocks.cpp) and the conversion to 8-bit with the percentile
// stretch of deep samples (tiled_convert.cpp).
#pragma once

#include <array>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "fisura/tilecache.h"
#include "fisura/tiledimage.h"
#include "io/tiff_handle.h"
#include "io/tiff_level.h"

namespace fisura
{

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
    std::vector<io::LevelDesc> levels;
    std::array<uint8_t, 256> lut8{};
    std::vector<uint8_t> lut16; // 65536 entries when 16-bit

    std::mutex poolMutex;
    std::condition_variable poolCv;
    std::vector<std::unique_ptr<PooledHandle>> freeHandles;
    int openHandles = 0;

    // Borrowed handle, returned to the pool on destruction.
    struct Loan {
        Impl* owner = nullptr;
        std::unique_ptr<PooledHandle> p;
        ~Loan()
        {
            if (owner && p)
                owner->giveBack(std::move(p));
        }
    };

    // A block being decoded by one thread: others that want it wait for its result instead of
    // decoding it again (readers of neighbouring tiles ask for the same blocks at once).
    struct Flight {
        std::mutex mutex;
        std::condition_variable cv;
        std::optional<Result<std::shared_ptr<const Image>>> result;
    };
    std::mutex flightMutex;
    std::unordered_map<TileId, std::shared_ptr<Flight>, TileIdHash> flights;
    // tiled_blocks.cpp
    void giveBack(std::unique_ptr<PooledHandle> p);
    Status selectLevel(PooledHandle& ph, int level);
    Status borrow(int level, Loan& loan);
    // Raw samples of one block, interleaved (planes merged), `bw` x `bh` pixels, native depth.
    Status readRaw(int level, int bx, int by, std::vector<uint8_t>& out, int& bw, int& bh);

    // tiled_convert.cpp
    // One colour sample as displayed: through lut8 (8-bit and unpacked 1/2/4-bit, MinIsWhite
    // inverted), lut16 (16-bit unsigned) or the value stretch (signed, 32/64-bit, float).
    uint8_t displaySample(const io::LevelDesc& L, const uint8_t* p) const;
    // An alpha (or 16-bit CMYK ink) sample as 8 bits: its high byte; float alpha 0..1.
    uint8_t alphaByte(const io::LevelDesc& L, const uint8_t* p) const;
    // 8-bit RGB or gray whose samples are the displayed pixels as they are (decode() then
    // keeps the raw buffer as the block instead of converting it).
    bool displaysAsStored(const io::LevelDesc& L) const;
    Image convert(const io::LevelDesc& L, const std::vector<uint8_t>& raw, int bw, int bh) const;
    Result<std::shared_ptr<const Image>> decode(int level, int bx, int by);
    // The blocks the stretch is computed from: every block of the smallest level when it is
    // small, else up to 64 blocks spread over level 0.
    void forSampleBlocks(const std::function<void(int, int, int)>& visit) const;
    // Stretched images: 0.5/99.5 percentiles of the colour samples of forSampleBlocks(). Every
    // level shares the result. 16-bit unsigned through a histogram and lut16; other depths and
    // formats through computeValueStretch(), same rule over finite values.
    void computeStretch();
    void computeValueStretch();
    // The stored samples of one pixel (see TiledImage::readRawValue).
    Result<std::vector<double>> rawValue(int level, int x, int y);
};

} // namespace fisura
