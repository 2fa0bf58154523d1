// One way to open a raster (a scan, a map, a mask): what a file is comes from its first bytes,
// never from its name, so a PNG named .tif and a TIFF named .png open like any other. TIFF and
// BigTIFF go to the tiled reader (any size, read by region); other formats are decoded whole
// through OpenCV's imgcodecs when the build has it. Everything that opens an image it did not
// write itself (labelling, proposals, inference, comparison, measurement, the GUI's size checks)
// goes through here, so all of them accept the same files and refuse the rest with the same
// message. (OpenImageIO's ImageInput::open works the same way.)
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "fisura/image.h"
#include "fisura/status.h"
#include "fisura/tilecache.h"
#include "fisura/tiledimage.h"

namespace fisura
{

enum class RasterFormat { Unknown, Tiff, Png, Jpeg, Bmp };
const char* rasterFormatName(RasterFormat f); ///< "unknown", "tiff", "png", "jpeg", "bmp"

/// What the first bytes of `path` say it is: TIFF ("II*\0", "MM\0*") and BigTIFF ("II+\0",
/// "MM\0+"), PNG, JPEG, BMP; Unknown for anything else and for a file that cannot be read.
RasterFormat rasterFormatOf(const std::string& path);

struct RasterOpenOptions {
    /// TIFF: the tiled reader's block cache (null: every read decodes) and its libtiff handles
    /// for concurrent reads (TiledOpenOptions).
    std::shared_ptr<TileCache> cache;
    int maxHandles = 8;
    /// Other formats are decoded whole: larger ones are refused before decoding where the
    /// decoder allows (readImage).
    uint64_t maxDecodedPixels = 64ull * 1024 * 1024;
    /// TIFF: the claimed size limits checked before any pixel is decoded (ImageLimits).
    ImageLimits limits;
};

/// An open raster: a TIFF through TiledImage, or another format decoded into memory.
class RasterSource
{
public:
    /// NotFound when `path` is not a file (IoError for a folder); Corrupt for a file that is no
    /// image Fisura reads (the detail names the file and the formats); the reader's own errors.
    static Result<RasterSource> open(const std::string& path,
                                     const RasterOpenOptions& options = {});

    /// Size, channels, pixel size and GeoTIFF tags; levels and file details only for a TIFF.
    const TiledImageInfo& info() const { return info_; }
    int width() const { return info_.width; }
    int height() const { return info_.height; }
    int channels() const { return info_.channels; }
    RasterFormat format() const { return format_; }
    /// The TIFF reader (null for a decoded image).
    const std::shared_ptr<TiledImage>& tiled() const { return tiled_; }
    /// The decoded pixels (null for a TIFF), shared: they stay while anyone holds them.
    const std::shared_ptr<const Image>& decoded() const { return decoded_; }

    /// Pixels of a rectangle of full resolution (InvalidArgument outside the image).
    Result<Image> readRegion(int x, int y, int w, int h) const;
    /// The whole image; Unsupported beyond `maxPixels`.
    Result<Image> readAll(uint64_t maxPixels = 64ull * 1024 * 1024) const;

private:
    RasterFormat format_ = RasterFormat::Unknown;
    TiledImageInfo info_;
    std::shared_ptr<TiledImage> tiled_;
    std::shared_ptr<const Image> decoded_;
};

/// Size, channels and pixel size of `path` (RasterSource::open, then its info): a TIFF's header
/// only; other formats are decoded.
Result<TiledImageInfo> probeRaster(const std::string& path, const ImageLimits& limits = {});

} // namespace fisura
