// The pixels a tiled inference reads; see scan_source.h.
#include "scan_source.h"

#include <algorithm>
#include <thread>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace fisura::detail
{

namespace
{

// A rectangle of a decoded image into rows `stride` bytes apart.
void copyFlatRows(const Image& flat, int x, int y, int w, int h, uint8_t* dst, size_t stride)
{
    const size_t px = size_t(flat.channels);
    for (int r = 0; r < h; ++r)
        std::copy_n(flat.row(y + r) + size_t(x) * px, size_t(w) * px, dst + size_t(r) * stride);
}

} // namespace

Result<ScanSource> ScanSource::open(const std::string& path, const InferOptions& o)
{
    RasterOpenOptions ro;
    ro.cache = std::make_shared<TileCache>(size_t(std::max<uint64_t>(o.cacheBytes, 16u << 20)));
    // A handle per reader thread (they are at most one per core): a reader without a handle
    // waits for one, and decoding happens while a handle is held.
    ro.maxHandles = std::max(16, int(std::thread::hardware_concurrency()));
    ro.maxDecodedPixels = o.maxFlatPixels;
    ro.limits = o.inputLimits;
    auto opened = RasterSource::open(path, ro);
    if (!opened)
        return opened.status();
    ScanSource s;
    const TiledImageInfo& i = opened->info();
    s.width = i.width;
    s.height = i.height;
    s.channels = i.channels;
    s.pixelSizeXmm = i.pixelSizeXmm;
    s.pixelSizeYmm = i.pixelSizeYmm;
    s.geoTags = i.geoTags;
    s.tiled = opened->tiled();
    s.compression = s.tiled ? i.compression : rasterFormatName(opened->format());
    if (s.tiled)
        s.cache = ro.cache;
    else
        s.flat = opened->decoded();
    return s;
}

void ScanSource::cacheTileRow(int tile, uint64_t cacheBytes) const
{
    if (!cache)
        return;
    const TiledLevel& l0 = tiled->info().levels.at(0);
    const uint64_t rowBytes = uint64_t(width) * uint64_t(std::max(1, channels));
    cache->setBudget(
        size_t(std::max<uint64_t>(cacheBytes, uint64_t(tile + 2 * l0.blockHeight) * rowBytes)));
}

Result<Image> ScanSource::region(int x, int y, int w, int h) const
{
    if (tiled)
        return tiled->readRegion(0, x, y, w, h);
    Image out = Image::make(w, h, flat->channels);
    copyFlatRows(*flat, x, y, w, h, out.pixels.data(), out.stride());
    return out;
}

Status ScanSource::readTile(int x, int y, int w, int h, int tile, int channels, uint8_t* dst) const
{
    if (channels != this->channels) { // converted through an image
        auto px = region(x, y, w, h);
        if (!px)
            return px.status();
        placeTile(*px, tile, channels, dst);
        return Status::ok();
    }
    const size_t stride = size_t(tile) * size_t(channels);
    if (tiled) {
        if (Status s = tiled->readRegionInto(0, x, y, w, h, dst, stride); !s)
            return s;
    } else {
        copyFlatRows(*flat, x, y, w, h, dst, stride);
    }
    padTile(dst, w, h, tile, channels);
    return Status::ok();
}

void padTile(uint8_t* dst, int w, int h, int tile, int channels)
{
    const size_t stride = size_t(tile) * size_t(channels), px = size_t(channels);
    if (w < tile)
        for (int r = 0; r < h; ++r) {
            uint8_t* row = dst + size_t(r) * stride;
            const uint8_t* edge = row + size_t(w - 1) * px;
            for (int c = w; c < tile; ++c)
                std::copy_n(edge, px, row + size_t(c) * px);
        }
    for (int r = h; r < tile; ++r)
        std::copy_n(dst + size_t(h - 1) * stride, stride, dst + size_t(r) * stride);
}

void placeTile(const Image& src, int tile, int channels, uint8_t* dst)
{
    cv::Mat in(src.height, src.width, CV_8UC(src.channels),
               const_cast<uint8_t*>(src.pixels.data()));
    cv::Mat conv;
    if (src.channels == channels)
        conv = in;
    else if (channels == 3)
        cv::cvtColor(in, conv, src.channels == 1 ? cv::COLOR_GRAY2RGB : cv::COLOR_RGBA2RGB);
    else
        cv::cvtColor(in, conv, src.channels == 3 ? cv::COLOR_RGB2GRAY : cv::COLOR_RGBA2GRAY);
    cv::Mat out(tile, tile, CV_8UC(channels), dst);
    cv::copyMakeBorder(conv, out, 0, tile - src.height, 0, tile - src.width, cv::BORDER_REPLICATE);
}

} // namespace fisura::detail
