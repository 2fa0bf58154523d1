// fisura_map_diff A B: how far apart two maps of the same size are (grey levels of level 0), as
// one JSON line for tests/gpu/check_gpu.cmake: {"width", "height", "max", "mean", "over2" (share
// of pixels more than 2 levels apart), "a_min", "a_max"}. Exit 0 when compared, 2 when a map
// cannot be read or the sizes differ.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "fisura/image.h"
#include "fisura/tiledimage.h"

namespace
{

fisura::Image level0(const char* path)
{
    auto t = fisura::TiledImage::open(path);
    if (!t) {
        std::fprintf(stderr, "%s: %s\n", path, t.status().toString().c_str());
        return {};
    }
    auto lv = (*t)->readLevel(0, uint64_t(1) << 31);
    if (!lv) {
        std::fprintf(stderr, "%s: %s\n", path, lv.status().toString().c_str());
        return {};
    }
    return *lv;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s MAP_A MAP_B\n", argv[0]);
        return 2;
    }
    const fisura::Image a = level0(argv[1]), b = level0(argv[2]);
    if (a.pixels.empty() || b.pixels.empty())
        return 2;
    if (a.width != b.width || a.height != b.height || a.channels != b.channels) {
        std::fprintf(stderr, "sizes differ: %dx%dx%d vs %dx%dx%d\n", a.width, a.height, a.channels,
                     b.width, b.height, b.channels);
        return 2;
    }
    int maxDiff = 0, lo = 255, hi = 0;
    double sum = 0;
    size_t over2 = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        const int d = std::abs(int(a.pixels[i]) - int(b.pixels[i]));
        maxDiff = std::max(maxDiff, d);
        sum += d;
        over2 += d > 2 ? 1 : 0;
        lo = std::min(lo, int(a.pixels[i]));
        hi = std::max(hi, int(a.pixels[i]));
    }
    const double n = double(a.pixels.size());
    std::printf("{\"width\": %d, \"height\": %d, \"max\": %d, \"mean\": %.6f, \"over2\": %.8f, "
                "\"a_min\": %d, \"a_max\": %d}\n",
                a.width, a.height, maxDiff, sum / n, double(over2) / n, lo, hi);
    return 0;
}
