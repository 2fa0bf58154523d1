// TiledImage conversion of raw samples to 8-bit display pixels, and the percentile stretch that
// maps deep (16/32/64-bit), signed and floating-point samples to 8 bits the same way in every
// level and region of a file.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "io/tiled_impl.h"
#include "io/tiled_samples.h"

namespace fisura
{

using io::Colour;
using io::LevelDesc;

namespace
{

int colourSamplesOf(Colour c)
{
    return c == Colour::Rgb || c == Colour::Rgba ? 3 : 1;
}

} // namespace

uint8_t TiledImage::Impl::displaySample(const LevelDesc& L, const uint8_t* p) const
{
    if (L.stretched16()) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return lut16[v];
    }
    if (!L.stretched())
        return lut8[*p];
    const uint8_t b = io::stretchToByte(io::sampleValue(p, L.sampleFormat, L.sampleBytes()),
                                        info.stretchLow, info.stretchHigh);
    return L.minIsWhite ? uint8_t(255 - b) : b;
}

uint8_t TiledImage::Impl::alphaByte(const LevelDesc& L, const uint8_t* p) const
{
    const double v = io::sampleValue(p, L.sampleFormat, L.sampleBytes());
    if (L.sampleFormat == SAMPLEFORMAT_UINT) // the high byte (8-bit: as stored)
        return L.packed()   ? uint8_t(*p * 255 / ((1 << L.bps) - 1))
               : L.bps == 8 ? *p
                            : uint8_t(uint64_t(v) >> (L.bps - 8));
    const double full =
        L.sampleFormat == SAMPLEFORMAT_IEEEFP ? 1.0 : double((1ull << (L.bps - 1)) - 1);
    return io::stretchToByte(v, 0.0, full);
}

bool TiledImage::Impl::displaysAsStored(const LevelDesc& L) const
{
    if (L.bps != 8 || L.stretched())
        return false;
    if (L.colour == Colour::Rgb)
        return L.spp == 3 && info.channels == 3;
    if (L.colour != Colour::Gray || L.spp != 1 || info.channels != 1)
        return false;
    for (int v = 0; v < 256; ++v)
        if (lut8[size_t(v)] != v)
            return false;
    return true;
}

Image TiledImage::Impl::convert(const LevelDesc& L, const std::vector<uint8_t>& raw, int bw,
                                int bh) const
{
    const int C = info.channels;
    Image im = Image::make(bw, bh, C);
    const size_t n = size_t(bw) * bh;
    const size_t sb = size_t(L.sampleBytes());
    const size_t px = L.spp * sb;
    const uint8_t* s8 = raw.data();
    auto sample = [&](size_t i, int k) { return displaySample(L, s8 + i * px + k * sb); };
    auto alpha = [&](size_t i) { return alphaByte(L, s8 + i * px + L.alphaSample * sb); };
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
        if (L.bps == 8 && L.spp == 3 && !L.stretched()) {
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
        for (size_t i = 0; i < n; ++i) {
            size_t index = s8[i * px];
            if (sb == 2) {
                uint16_t v;
                std::memcpy(&v, s8 + i * px, 2);
                index = v;
            }
            std::memcpy(o + i * 3, &L.palette[index * 3], 3);
        }
        break;
    case Colour::Cmyk:
        // As libtiff's RGBA interface (putRGBcontig8bitCMYKtile): R = (255-K)(255-C)/255;
        // 16-bit inks use their high byte.
        for (size_t i = 0; i < n; ++i) {
            int ink[4];
            for (int k = 0; k < 4; ++k)
                ink[k] = sb == 2 ? int(alphaByte(L, s8 + i * px + k * sb)) : s8[i * px + k];
            const int white = 255 - ink[3];
            for (int k = 0; k < 3; ++k)
                o[i * 3 + k] = uint8_t(white * (255 - ink[k]) / 255);
        }
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
        if (displaysAsStored(levels[level])) { // the samples are the pixels: no copy
            auto im = std::make_shared<Image>();
            im->width = bw;
            im->height = bh;
            im->channels = info.channels;
            im->pixels = std::move(raw);
            return std::shared_ptr<const Image>(std::move(im));
        }
        return std::shared_ptr<const Image>(
            std::make_shared<Image>(convert(levels[level], raw, bw, bh)));
    } catch (const std::bad_alloc&) {
        return Status(ErrorCode::OutOfMemory, info.path + ": level " + std::to_string(level) +
                                                  " block " + std::to_string(bx) + "," +
                                                  std::to_string(by));
    }
}

void TiledImage::Impl::forSampleBlocks(const std::function<void(int, int, int)>& visit) const
{
    const LevelDesc& L0 = levels[0];
    const int last = int(levels.size()) - 1;
    const LevelDesc& Ls = levels[last];
    if (uint64_t(Ls.width) * Ls.height <= 4ull * 1024 * 1024) {
        for (uint32_t by = 0; by < Ls.down; ++by)
            for (uint32_t bx = 0; bx < Ls.across; ++bx)
                visit(last, int(bx), int(by));
    } else {
        const uint32_t step = std::max<uint32_t>(
            1, uint32_t(std::ceil(std::sqrt(double(L0.across) * L0.down / 64.0))));
        for (uint32_t by = step / 2; by < L0.down; by += step)
            for (uint32_t bx = step / 2; bx < L0.across; bx += step)
                visit(0, int(bx), int(by));
    }
}

void TiledImage::Impl::computeStretch()
{
    const LevelDesc& L0 = levels[0];
    if (!L0.stretched16()) {
        computeValueStretch();
        return;
    }
    std::vector<uint64_t> hist(65536, 0);
    forSampleBlocks([&](int level, int bx, int by) {
        std::vector<uint8_t> raw;
        int bw = 0, bh = 0;
        if (!readRaw(level, bx, by, raw, bw, bh))
            return;
        const auto* s = reinterpret_cast<const uint16_t*>(raw.data());
        const size_t n = size_t(bw) * bh;
        const int spp = levels[level].spp;
        const int colourSamples = colourSamplesOf(L0.colour);
        for (size_t i = 0; i < n; ++i)
            for (int k = 0; k < colourSamples; ++k)
                ++hist[s[i * spp + k]];
    });
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

void TiledImage::Impl::computeValueStretch()
{
    // The same blocks and the same percentile rule as the 16-bit histogram, over the finite
    // values (NaN and infinities are left out), at most about 4 million of them.
    const LevelDesc& L0 = levels[0];
    const int colourSamples = colourSamplesOf(L0.colour);
    uint64_t blocks = 0, pixels = 0;
    forSampleBlocks([&](int level, int, int) {
        ++blocks;
        pixels += uint64_t(levels[level].blockW) * levels[level].blockH;
    });
    const uint64_t stride = std::max<uint64_t>(1, pixels * colourSamples / (4u << 20));
    std::vector<double> values;
    forSampleBlocks([&](int level, int bx, int by) {
        std::vector<uint8_t> raw;
        int bw = 0, bh = 0;
        if (!readRaw(level, bx, by, raw, bw, bh))
            return;
        const LevelDesc& L = levels[level];
        const size_t sb = size_t(L.sampleBytes()), px = L.spp * sb;
        const size_t n = size_t(bw) * bh;
        for (size_t i = 0; i < n; i += stride)
            for (int k = 0; k < colourSamples; ++k) {
                const double v = io::sampleValue(&raw[i * px + k * sb], L.sampleFormat, int(sb));
                ++info.sampledValues;
                if (std::isfinite(v))
                    values.push_back(v);
                else
                    ++info.nonFiniteSamples;
            }
    });
    const auto [lo, hi] = io::percentileRange(values);
    info.stretchLow = lo;
    info.stretchHigh = hi;
}

Result<std::vector<double>> TiledImage::Impl::rawValue(int level, int x, int y)
{
    const LevelDesc& L = levels[level];
    std::vector<uint8_t> raw;
    int bw = 0, bh = 0;
    const int bx = x / int(L.blockW), by = y / int(L.blockH);
    try {
        if (Status s = readRaw(level, bx, by, raw, bw, bh); !s)
            return s;
    } catch (const std::bad_alloc&) {
        return Status(ErrorCode::OutOfMemory, info.path + ": level " + std::to_string(level));
    }
    const size_t sb = size_t(L.sampleBytes()), px = L.spp * sb;
    const size_t i = size_t(y - by * int(L.blockH)) * bw + size_t(x - bx * int(L.blockW));
    std::vector<double> out(L.spp);
    for (int k = 0; k < L.spp; ++k)
        out[k] = io::sampleValue(&raw[i * px + k * sb], L.sampleFormat, int(sb));
    return out;
}

} // namespace fisura
