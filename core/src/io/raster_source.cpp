// Rasters opened by what their bytes say; see fisura/raster.h.
#include "fisura/raster.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace fisura
{

const char* rasterFormatName(RasterFormat f)
{
    switch (f) {
    case RasterFormat::Tiff:
        return "tiff";
    case RasterFormat::Png:
        return "png";
    case RasterFormat::Jpeg:
        return "jpeg";
    case RasterFormat::Bmp:
        return "bmp";
    case RasterFormat::Unknown:
        break;
    }
    return "unknown";
}

RasterFormat rasterFormatOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    unsigned char m[8] = {};
    in.read(reinterpret_cast<char*>(m), sizeof m);
    const std::streamsize n = in.gcount();
    // TIFF 6.0 section 2 (version 42); BigTIFF uses 43.
    if (n >= 4 && ((m[0] == 'I' && m[1] == 'I' && (m[2] == 42 || m[2] == 43) && m[3] == 0) ||
                   (m[0] == 'M' && m[1] == 'M' && m[2] == 0 && (m[3] == 42 || m[3] == 43))))
        return RasterFormat::Tiff;
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 8 && std::memcmp(m, png, 8) == 0)
        return RasterFormat::Png;
    if (n >= 3 && m[0] == 0xff && m[1] == 0xd8 && m[2] == 0xff)
        return RasterFormat::Jpeg;
    if (n >= 2 && m[0] == 'B' && m[1] == 'M')
        return RasterFormat::Bmp;
    return RasterFormat::Unknown;
}

Result<RasterSource> RasterSource::open(const std::string& path, const RasterOpenOptions& o)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return fs::is_directory(path, ec)
                   ? Status(ErrorCode::IoError, path + " is a folder, not an image file")
                   : Status(ErrorCode::NotFound, path + ": no such file");
    RasterSource s;
    s.format_ = rasterFormatOf(path);
    if (s.format_ == RasterFormat::Tiff) {
        TiledOpenOptions to;
        to.cache = o.cache;
        to.maxHandles = o.maxHandles;
        to.limits = o.limits;
        auto opened = TiledImage::open(path, to);
        if (!opened)
            return opened.status();
        s.tiled_ = *opened;
        s.info_ = s.tiled_->info();
        return s;
    }
    auto img = readImage(path, o.maxDecodedPixels);
    if (!img)
        return img.status();
    s.info_.path = path;
    s.info_.width = img->width;
    s.info_.height = img->height;
    s.info_.channels = img->channels;
    s.info_.samplesPerPixel = img->channels;
    s.decoded_ = std::make_shared<const Image>(std::move(*img));
    return s;
}

Result<Image> RasterSource::readRegion(int x, int y, int w, int h) const
{
    if (tiled_)
        return tiled_->readRegion(0, x, y, w, h);
    if (!decoded_)
        return Status(ErrorCode::InvalidArgument, "no image is open");
    const Image& im = *decoded_;
    if (x < 0 || y < 0 || w <= 0 || h <= 0 || x > im.width - w || y > im.height - h)
        return Status(ErrorCode::InvalidArgument, "the region is not inside the image");
    Image out = Image::make(w, h, im.channels);
    for (int r = 0; r < h; ++r)
        std::copy_n(im.row(y + r) + size_t(x) * size_t(im.channels), out.stride(), out.row(r));
    return out;
}

Result<Image> RasterSource::readAll(uint64_t maxPixels) const
{
    if (tiled_)
        return tiled_->readLevel(0, maxPixels);
    if (!decoded_)
        return Status(ErrorCode::InvalidArgument, "no image is open");
    if (uint64_t(width()) * uint64_t(height()) > maxPixels)
        return Status(ErrorCode::Unsupported, info_.path + ": too large to decode whole");
    return *decoded_;
}

Result<TiledImageInfo> probeRaster(const std::string& path, const ImageLimits& limits)
{
    RasterOpenOptions o;
    o.limits = limits;
    auto r = RasterSource::open(path, o);
    if (!r)
        return r.status();
    return r->info();
}

} // namespace fisura
