// Writes the TIFF inputs of the CLI's bad-input checks with libtiff directly (no Fisura code):
//   make_tiff_fixture pages OUT.tif   two 64 x 64 8-bit gray pages of the same size
//   make_tiff_fixture nan OUT.tif     a 64 x 64 32-bit float image, one row in four NaN and
//                                     one value +inf
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include <tiffio.h>

namespace
{

constexpr int kSide = 64;

bool writePage(TIFF* t, int bits, uint16_t format, const std::vector<uint8_t>& bytes, int page,
               int pages)
{
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, kSide);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, kSide);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, format);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, kSide);
    if (pages > 1) {
        TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        TIFFSetField(t, TIFFTAG_PAGENUMBER, page, pages);
    }
    const tmsize_t rowBytes = tmsize_t(kSide) * bits / 8;
    for (int y = 0; y < kSide; ++y)
        if (TIFFWriteScanline(t, const_cast<uint8_t*>(&bytes[size_t(y * rowBytes)]), y) < 0)
            return false;
    return TIFFWriteDirectory(t) != 0;
}

bool pagesFile(TIFF* t)
{
    std::vector<uint8_t> a(kSide * kSide), b(kSide * kSide);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = uint8_t(i % 251);
        b[i] = uint8_t(255 - i % 251);
    }
    return writePage(t, 8, SAMPLEFORMAT_UINT, a, 0, 2) &&
           writePage(t, 8, SAMPLEFORMAT_UINT, b, 1, 2);
}

bool nanFile(TIFF* t)
{
    std::vector<float> v(kSide * kSide);
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x)
            v[size_t(y * kSide + x)] =
                y % 4 == 0 ? std::numeric_limits<float>::quiet_NaN() : float(x + y) / 128.0f;
    v[1 * kSide + 1] = std::numeric_limits<float>::infinity();
    std::vector<uint8_t> bytes(v.size() * sizeof(float));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return writePage(t, 32, SAMPLEFORMAT_IEEEFP, bytes, 0, 1);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3 || (std::strcmp(argv[1], "pages") != 0 && std::strcmp(argv[1], "nan") != 0)) {
        std::fprintf(stderr, "usage: make_tiff_fixture pages|nan OUT.tif\n");
        return 2;
    }
    TIFF* t = TIFFOpen(argv[2], "w");
    if (!t)
        return 1;
    const bool ok = std::strcmp(argv[1], "pages") == 0 ? pagesFile(t) : nanFile(t);
    TIFFClose(t);
    return ok ? 0 : 1;
}
