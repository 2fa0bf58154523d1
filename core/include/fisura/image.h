// A plain 8-bit interleaved image that crosses the facade (no cv::Mat, no QImage).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura
{

struct Image {
    int width = 0;
    int height = 0;
    int channels = 0;            ///< 1 (gray/mask), 3 (RGB) or 4 (RGBA)
    std::vector<uint8_t> pixels; ///< row-major, interleaved, width*channels bytes per row

    bool empty() const { return width <= 0 || height <= 0 || pixels.empty(); }
    size_t stride() const { return static_cast<size_t>(width) * static_cast<size_t>(channels); }
    uint8_t* row(int y) { return pixels.data() + static_cast<size_t>(y) * stride(); }
    const uint8_t* row(int y) const { return pixels.data() + static_cast<size_t>(y) * stride(); }

    static Image make(int width, int height, int channels, uint8_t fill = 0)
    {
        Image im;
        im.width = width;
        im.height = height;
        im.channels = channels;
        im.pixels.assign(static_cast<size_t>(width) * height * channels, fill);
        return im;
    }
};

/// Read an image file into 8-bit gray, RGB or RGBA. TIFF goes through libtiff (any variant
/// libtiff's RGBA interface decodes: 1/2/4-bit and bilevel fax, CMYK, LogLuv...; signed,
/// floating-point and 32-bit samples as TiledImage decodes them, with its percentile stretch,
/// so a float 0..1 mask reads as 0/255); PNG/JPEG/BMP through OpenCV when the build has
/// imgcodecs. Which decoder runs depends on the file's first bytes (rasterFormatOf in
/// fisura/raster.h), never its name.
/// Refuses images larger than `maxPixels` before allocating (large scans use the tiled reader).
/// TIFF RGBA comes back with colour premultiplied by alpha, as libtiff's RGBA interface gives it.
Result<Image> readImage(const std::string& path, uint64_t maxPixels = 64ull * 1024 * 1024);

/// Options for writeTiff.
struct TiffWriteOptions {
    int tileSize = 0;         ///< 0 = striped; otherwise tiled with this edge (multiple of 16)
    bool deflate = true;      ///< Deflate compression with horizontal predictor
    double pixelSizeMm = 0.0; ///< > 0 writes resolution tags (pixels per centimetre)
};

/// Write an 8-bit image as TIFF, atomically (temporary file, then rename).
Status writeTiff(const std::string& path, const Image& image, const TiffWriteOptions& options = {});

/// True when the file name ends in an extension Fisura reads (.tif .tiff .png .jpg .jpeg .bmp,
/// any case): how folder scans pick their images.
bool hasImageExtension(const std::string& path);

/// True when this build decodes PNG/JPEG/BMP (OpenCV imgcodecs present).
bool hasImageCodecs();

} // namespace fisura
