// TiledImage's private state: the levels, a pool of libtiff handles shared by reading threads,
// raw block decoding (tiled_blocks.cpp) and the conversion to 8-bit with the percentile
// stretch of deep samples (tiled_convert.cpp).
#pragma once

#include <array>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

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

    // tiled_blocks.cpp
    void giveBack(std::unique_ptr<PooledHandle> p);
    Status selectLevel(PooledHandle& ph, int level);
    Status borrow(int level, Loan& loan);
    // Raw samples of one block, interleaved (planes merged), `bw` x `bh` pixels, native depth.
    Status readRaw(int level, int bx, int by, std::vector<uint8_t>& out, int& bw, int& bh);

    // tiled_convert.cpp
    Image convert(const io::LevelDesc& L, const std::vector<uint8_t>& raw, int bw, int bh) const;
    Result<std::shared_ptr<const Image>> decode(int level, int bx, int by);
    // 16-bit: 0.5/99.5 percentiles of the colour samples, from the smallest level when it is
    // small, else from up to 64 blocks spread over level 0. Every level shares the result.
    void computeStretch();
};

} // namespace fisura
