// Inputs and outputs of map tests (tiled inference, CPU precision): a scan with structure
// everywhere and a map read back whole.
#pragma once

#include <cstdint>
#include <string>

#include "fisura/image.h"
#include "fisura/tiledimage.h"

namespace mapfixtures
{

/// A scan with structure everywhere (so a misplaced or mis-weighted tile shows).
inline fisura::Image pattern(int w, int h, int channels = 3)
{
    fisura::Image im = fisura::Image::make(w, h, channels);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < channels; ++c)
                im.row(y)[size_t(x) * size_t(channels) + size_t(c)] =
                    uint8_t((x * 7 + y * 13 + c * 50 + ((x * y) % 17) * 3) % 256);
    return im;
}

/// Level 0 of a map file, empty when it cannot be read.
inline fisura::Image readMap(const std::string& path)
{
    auto t = fisura::TiledImage::open(path);
    if (!t)
        return {};
    auto lv = (*t)->readLevel(0);
    return lv ? *lv : fisura::Image{};
}

} // namespace mapfixtures
