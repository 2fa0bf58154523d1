#include "fisura/image.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <vector>

#include <unistd.h>

#include "fisura/raster.h"
#include "fisura/tiledimage.h"
#include "io/tiff_handle.h"
#include "util/atomic_file.h"

#ifdef FISURA_HAVE_IMGCODECS
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#endif

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

Result<Image> readTiff(const std::string& path, uint64_t maxPixels)
{
    io::TiffHandle h;
    if (Status s = h.open(path, "r"); !s)
        return s;
    TIFF* tif = h.get();
    uint32_t w = 0, hgt = 0;
    uint16_t spp = 1, photometric = PHOTOMETRIC_MINISBLACK, extra = 0;
    uint16_t* extraTypes = nullptr;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &hgt);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra, &extraTypes);
    if (w == 0 || hgt == 0)
        return h.error(ErrorCode::Corrupt, "zero-size image");
    const uint64_t pixels = static_cast<uint64_t>(w) * hgt;
    if (pixels > maxPixels)
        return Status(ErrorCode::Unsupported,
                      path + ": " + std::to_string(w) + " x " + std::to_string(hgt) +
                          " px is too large to decode whole; open it as a tiled scan");
    // Signed and floating-point samples (float masks, elevation), and what libtiff's RGBA
    // interface refuses (32-bit, ...), decode as TiledImage decodes them.
    uint16_t sampleFormat = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sampleFormat);
    char emsg[1024] = {};
    if (sampleFormat == SAMPLEFORMAT_INT || sampleFormat == SAMPLEFORMAT_IEEEFP ||
        !TIFFRGBAImageOK(tif, emsg)) {
        (void)h.close();
        auto tiled = TiledImage::open(path);
        if (!tiled)
            return tiled.status();
        return (*tiled)->readLevel(0, maxPixels);
    }

    std::vector<uint32_t> raster;
    try {
        raster.resize(pixels);
    } catch (const std::bad_alloc&) {
        return Status(ErrorCode::OutOfMemory, path);
    }
    if (!TIFFReadRGBAImageOriented(tif, w, hgt, raster.data(), ORIENTATION_TOPLEFT, 0))
        return h.error(ErrorCode::Corrupt, "cannot decode pixels");

    const bool gray = spp - extra == 1 && photometric != PHOTOMETRIC_PALETTE;
    const bool alpha = extra > 0;
    const int channels = gray && !alpha ? 1 : (alpha ? 4 : 3);
    Image im = Image::make(static_cast<int>(w), static_cast<int>(hgt), channels);
    uint8_t* out = im.pixels.data();
    for (uint64_t i = 0; i < pixels; ++i) {
        const uint32_t p = raster[i];
        if (channels == 1) {
            *out++ = static_cast<uint8_t>(TIFFGetR(p));
        } else {
            *out++ = static_cast<uint8_t>(TIFFGetR(p));
            *out++ = static_cast<uint8_t>(TIFFGetG(p));
            *out++ = static_cast<uint8_t>(TIFFGetB(p));
            if (channels == 4)
                *out++ = static_cast<uint8_t>(TIFFGetA(p));
        }
    }
    return im;
}

#ifdef FISURA_HAVE_IMGCODECS
Result<Image> readWithOpenCV(const std::string& path, uint64_t maxPixels)
{
    cv::Mat m;
    try {
        m = cv::imread(path, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
        return Status(ErrorCode::Corrupt, path + ": " + e.what());
    }
    if (m.empty())
        return Status(ErrorCode::Corrupt,
                      path + ": not an image Fisura reads (TIFF, PNG, JPEG or BMP), or damaged");
    if (static_cast<uint64_t>(m.total()) > maxPixels)
        return Status(ErrorCode::Unsupported, path + ": too large to decode whole");
    if (m.depth() == CV_16U)
        m.convertTo(m, CV_8U, 1.0 / 257.0);
    else if (m.depth() != CV_8U)
        return Status(ErrorCode::Unsupported, path + ": only 8- and 16-bit images are supported");
    cv::Mat out;
    switch (m.channels()) {
    case 1:
        out = m;
        break;
    case 3:
        cv::cvtColor(m, out, cv::COLOR_BGR2RGB);
        break;
    case 4:
        cv::cvtColor(m, out, cv::COLOR_BGRA2RGBA);
        break;
    default:
        return Status(ErrorCode::Unsupported, path + ": unusual channel count");
    }
    Image im = Image::make(out.cols, out.rows, out.channels());
    for (int y = 0; y < out.rows; ++y)
        std::copy_n(out.ptr<uint8_t>(y), im.stride(), im.row(y));
    return im;
}
#endif

} // namespace

bool hasImageExtension(const std::string& path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".tif" || ext == ".tiff" || ext == ".png" || ext == ".jpg" || ext == ".jpeg" ||
           ext == ".bmp";
}

bool hasImageCodecs()
{
#ifdef FISURA_HAVE_IMGCODECS
    return true;
#else
    return false;
#endif
}

Result<Image> readImage(const std::string& path, uint64_t maxPixels)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return fs::is_directory(path, ec)
                   ? Status(ErrorCode::IoError, path + " is a folder, not an image file")
                   : Status(ErrorCode::NotFound, path);
    // What the file is comes from its bytes, not its name (a PNG named .tif is a PNG).
    if (rasterFormatOf(path) == RasterFormat::Tiff)
        return readTiff(path, maxPixels);
#ifdef FISURA_HAVE_IMGCODECS
    return readWithOpenCV(path, maxPixels);
#else
    (void)maxPixels;
    return Status(ErrorCode::Unsupported, path + ": this build reads TIFF only");
#endif
}

Status writeTiff(const std::string& path, const Image& image, const TiffWriteOptions& options)
{
    if (image.empty() || (image.channels != 1 && image.channels != 3 && image.channels != 4) ||
        image.pixels.size() != image.stride() * static_cast<size_t>(image.height))
        return Status(ErrorCode::InvalidArgument, path + ": malformed image buffer");
    if (options.tileSize < 0 || options.tileSize % 16 != 0)
        return Status(ErrorCode::InvalidArgument, "tile size must be a multiple of 16");

    removeStaleTemporaries(path); // left by a writer that was killed
    const std::string tmp = path + ".part" + std::to_string(::getpid());
    Status result = [&]() -> Status {
        io::TiffHandle h;
        if (Status s = h.open(tmp, "w"); !s)
            return s;
        TIFF* tif = h.get();
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<uint32_t>(image.width));
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<uint32_t>(image.height));
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<uint16_t>(image.channels));
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, static_cast<uint16_t>(8));
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                     image.channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
        if (image.channels == 4) {
            const uint16_t extraType = EXTRASAMPLE_UNASSALPHA;
            TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, static_cast<uint16_t>(1), &extraType);
        }
        if (options.deflate) {
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
            TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
        } else {
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
        }
        if (options.pixelSizeMm > 0) {
            const float ppcm = static_cast<float>(10.0 / options.pixelSizeMm);
            TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_CENTIMETER);
            TIFFSetField(tif, TIFFTAG_XRESOLUTION, ppcm);
            TIFFSetField(tif, TIFFTAG_YRESOLUTION, ppcm);
        }
        const size_t stride = image.stride();
        if (options.tileSize > 0) {
            const int ts = options.tileSize;
            TIFFSetField(tif, TIFFTAG_TILEWIDTH, static_cast<uint32_t>(ts));
            TIFFSetField(tif, TIFFTAG_TILELENGTH, static_cast<uint32_t>(ts));
            std::vector<uint8_t> tile(static_cast<size_t>(ts) * ts * image.channels);
            for (int ty = 0; ty < image.height; ty += ts)
                for (int tx = 0; tx < image.width; tx += ts) {
                    std::fill(tile.begin(), tile.end(), uint8_t(0));
                    const int th = std::min(ts, image.height - ty);
                    const int tw = std::min(ts, image.width - tx);
                    for (int y = 0; y < th; ++y)
                        std::copy_n(image.row(ty + y) + static_cast<size_t>(tx) * image.channels,
                                    static_cast<size_t>(tw) * image.channels,
                                    tile.data() + static_cast<size_t>(y) * ts * image.channels);
                    if (TIFFWriteTile(tif, tile.data(), tx, ty, 0, 0) < 0)
                        return h.error(ErrorCode::IoError, "cannot write tile");
                }
        } else {
            TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
            std::vector<uint8_t> rowbuf(stride);
            for (int y = 0; y < image.height; ++y) {
                std::copy_n(image.row(y), stride, rowbuf.data());
                if (TIFFWriteScanline(tif, rowbuf.data(), static_cast<uint32_t>(y), 0) < 0)
                    return h.error(ErrorCode::IoError, "cannot write row " + std::to_string(y));
            }
        }
        return h.close();
    }();
    std::error_code ec;
    if (!result) {
        fs::remove(tmp, ec);
        return result;
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return Status(ErrorCode::IoError, path + ": " + ec.message());
    }
    return Status::ok();
}

} // namespace fisura
