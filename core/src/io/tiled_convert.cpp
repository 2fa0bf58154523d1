// TiledImage conversion of raw samples to 8-bit display pixels, and the percentile stretch
// that maps 16-bit samples to 8 bits the same way in every level and region of a file.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "io/tiled_impl.h"

namespace fisura
{

using io::Colour;
using io::LevelDesc;

Image TiledImage::Impl::convert(const LevelDesc& L, const std::vector<uint8_t>& raw, int bw,
                                int bh) const
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

Result<std::shared_ptr<const Image>> TiledImage::Impl::decode(int level, int bx, int by)
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

void TiledImage::Impl::computeStretch()
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

} // namespace fisura
