// Fuzz target: the TIFF reader (TiledImage: header, tags, strips, tiles, pyramid levels, the
// conversion to 8 bits and the raw value readout) and readImage's TIFF path. The input is written
// to a scratch file (the reader opens paths, one libtiff handle per reading thread).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include <unistd.h>

#include "fisura/image.h"
#include "fisura/tiledimage.h"
#include "fuzz_entry.h"

namespace
{

std::string scratchPath()
{
    const char* dir = std::getenv("TMPDIR");
    std::string base = dir && *dir ? dir : "/tmp";
    return base + "/fisura-fuzz-tiff-" + std::to_string(getpid()) + ".tif";
}

bool writeFile(const std::string& path, const uint8_t* data, size_t size)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

// A few blocks, regions and raw values of one level: the corners, the middle and a region
// that straddles block edges.
void readLevel(const fisura::TiledImage& im, int level)
{
    const fisura::TiledLevel& lv = im.info().levels[size_t(level)];
    const int lastCol = lv.blocksAcross - 1, lastRow = lv.blocksDown - 1;
    for (auto [c, r] : {std::pair{0, 0}, std::pair{lastCol, lastRow}, std::pair{lastCol / 2, 0}})
        (void)im.readBlock(level, c, r);
    const int w = std::min(lv.width, 300), h = std::min(lv.height, 300);
    (void)im.readRegion(level, 0, 0, w, h);
    if (lv.blockWidth > 0 && lv.blockHeight > 0 && lv.width > lv.blockWidth)
        (void)im.readRegion(
            level, std::max(0, lv.blockWidth - 7),
            std::max(0, std::min(lv.blockHeight, lv.height) - 7),
            std::min(16, lv.width - std::max(0, lv.blockWidth - 7)),
            std::min(16, lv.height - std::max(0, std::min(lv.blockHeight, lv.height) - 7)));
    (void)im.readRawValue(level, 0, 0);
    (void)im.readRawValue(level, lv.width - 1, lv.height - 1);
    (void)im.readRawValue(level, lv.width / 2, lv.height / 2);
    (void)im.readRawValue(level, -1, lv.height); // outside: refused
    (void)im.readLevel(level, 1u << 20);
}

} // namespace

FISURA_FUZZ_TARGET(tiff)
{
    static const std::string path = scratchPath();
    if (!writeFile(path, data, size))
        return 0;
    fisura::TiledOpenOptions options;
    options.maxHandles = 2;
    options.maxBlockBytes = 16ull * 1024 * 1024;
    options.cache = std::make_shared<fisura::TileCache>(8ull * 1024 * 1024);
    if (auto opened = fisura::TiledImage::open(path, options)) {
        const fisura::TiledImage& im = **opened;
        const int levels = std::min(im.levelCount(), 6);
        for (int level = 0; level < levels; ++level)
            readLevel(im, level);
        (void)im.bestLevelForDownsample(3.0);
    }
    (void)fisura::readImage(path, 4ull * 1024 * 1024);
    return 0;
}
