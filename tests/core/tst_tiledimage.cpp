#include <QtTest>

#include <QTemporaryDir>

#include <atomic>
#include <random>
#include <thread>

#include <tiffio.h>

#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_fixtures.h"
#include "tiff_kinds.h"

using namespace fisura;
using fixtures::Variant;

Q_DECLARE_METATYPE(fixtures::Variant)
Q_DECLARE_METATYPE(kinds::Kind)

namespace
{

// Largest per-sample difference and the mean absolute difference of two images.
std::pair<int, double> diff(const Image& a, const Image& b)
{
    int worst = 0;
    double sum = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        const int d = std::abs(int(a.pixels[i]) - int(b.pixels[i]));
        worst = std::max(worst, d);
        sum += d;
    }
    return {worst, a.pixels.empty() ? 0.0 : sum / double(a.pixels.size())};
}

Image crop(const Image& im, int x, int y, int w, int h)
{
    Image out = Image::make(w, h, im.channels);
    for (int r = 0; r < h; ++r)
        std::memcpy(out.row(r), im.row(y + r) + size_t(x) * im.channels, out.stride());
    return out;
}

Image halve(const Image& in)
{
    const int w = (in.width + 1) / 2, h = (in.height + 1) / 2, C = in.channels;
    Image out = Image::make(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                const int x1 = std::min(2 * x + 1, in.width - 1);
                const int y1 = std::min(2 * y + 1, in.height - 1);
                const int s = in.row(2 * y)[2 * x * C + c] + in.row(2 * y)[x1 * C + c] +
                              in.row(y1)[2 * x * C + c] + in.row(y1)[x1 * C + c];
                out.row(y)[x * C + c] = uint8_t((s + 2) >> 2);
            }
    return out;
}

Image scene(int w, int h, int C, uint32_t seed)
{
    Image im = Image::make(w, h, C);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c)
                im.row(y)[x * C + c] = uint8_t(fixtures::wave(x, y, c) ^ (rng() & 7));
    return im;
}

// Two files with the same levels, pixel for pixel.
bool samePyramids(const std::string& a, const std::string& b)
{
    auto ia = TiledImage::open(a), ib = TiledImage::open(b);
    if (!ia || !ib || (*ia)->levelCount() != (*ib)->levelCount())
        return false;
    for (int k = 0; k < (*ia)->levelCount(); ++k) {
        auto la = (*ia)->readLevel(k), lb = (*ib)->readLevel(k);
        if (!la || !lb || la->pixels != lb->pixels)
            return false;
    }
    return true;
}

bool writePyramid(const std::string& path, const Image& im, const TiledWriteOptions& o)
{
    auto w = TiledTiffWriter::create(path, im.width, im.height, im.channels, o);
    if (!w)
        return false;
    // Uneven slices: the writer must not care how rows arrive.
    int y = 0, step = 7;
    while (y < im.height) {
        const int n = std::min(step, im.height - y);
        if (!(*w)->appendRows(crop(im, 0, y, im.width, n)))
            return false;
        y += n;
        step = step * 3 % 101 + 1;
    }
    return bool((*w)->finish());
}

QString tmpFile(const QTemporaryDir& d, const char* name)
{
    return d.filePath(QString::fromLatin1(name));
}

void expectRefusal(const QString& path, ErrorCode code, const char* needle)
{
    auto r = TiledImage::open(path.toStdString());
    QVERIFY2(!r, "a bad file was accepted");
    QCOMPARE(int(r.status().code()), int(code));
    const QString detail = QString::fromStdString(r.status().detail());
    QVERIFY2(detail.contains(QFileInfo(path).fileName()), qPrintable(detail));
    QVERIFY2(detail.contains(QLatin1String(needle), Qt::CaseInsensitive), qPrintable(detail));
}

} // namespace

class TstTiledImage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<Variant>("v");
        QTest::addColumn<int>("tolerance"); // mean absolute error allowed (lossy codecs)
        QTest::addColumn<qulonglong>("maxBlockBytes");
        auto row = [](const char* name, Variant v, int tol = 0, qulonglong block = 0) {
            QTest::newRow(name) << v << tol << (block ? block : 64ull << 20);
        };
        Variant v;
        v.channels = 1;
        row("gray8 strips none", v);
        v.compression = COMPRESSION_LZW, v.predictor = true;
        row("gray8 strips lzw predictor", v);
        v.compression = COMPRESSION_ADOBE_DEFLATE, v.tiled = true, v.bigTiff = true;
        row("gray8 tiles deflate predictor bigtiff", v);
        v.compression = COMPRESSION_ZSTD, v.predictor = false, v.bigTiff = false;
        row("gray8 tiles zstd", v);
        v.compression = COMPRESSION_PACKBITS, v.tiled = false;
        row("gray8 strips packbits", v);
        v.compression = COMPRESSION_LZMA, v.tiled = true;
        row("gray8 tiles lzma", v);
        v.compression = COMPRESSION_NONE, v.tiled = false, v.minIsWhite = true;
        row("gray8 min-is-white", v);
        v = Variant();
        v.channels = 2;
        row("gray8+alpha strips", v);
        v = Variant();
        row("rgb8 strips none", v);
        v.tiled = true;
        row("rgb8 tiles none", v);
        v.compression = COMPRESSION_LZW, v.predictor = true, v.tiled = false, v.bigTiff = true;
        row("rgb8 strips lzw predictor bigtiff", v);
        v.compression = COMPRESSION_ZSTD, v.tiled = true;
        row("rgb8 tiles zstd predictor bigtiff", v);
        v.bigEndian = true;
        row("rgb8 tiles zstd predictor bigtiff big-endian", v);
        v = Variant();
        v.compression = COMPRESSION_WEBP, v.tiled = true;
        row("rgb8 tiles webp lossless", v);
        v.compression = COMPRESSION_JPEG;
        row("rgb8 tiles jpeg", v, 3);
        v.ycbcr = true;
        row("ycbcr8 tiles jpeg", v, 4);
        v.tiled = false, v.rowsPerStrip = 16;
        row("ycbcr8 strips jpeg", v, 4);
        v = Variant();
        v.channels = 1, v.compression = COMPRESSION_JPEG, v.tiled = true;
        row("gray8 tiles jpeg", v, 3);
        v = Variant();
        v.separate = true, v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE;
        row("rgb8 planar-separate tiles deflate", v);
        v.tiled = false, v.compression = COMPRESSION_LZW;
        row("rgb8 planar-separate strips lzw", v);
        v = Variant();
        v.channels = 4, v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE;
        row("rgba8 tiles deflate", v);
        v.tiled = false, v.compression = COMPRESSION_NONE;
        row("rgba8 strips none", v);
        v = Variant();
        v.channels = 1, v.palette = true, v.compression = COMPRESSION_LZW;
        row("palette8 strips lzw", v);
        v.tiled = true, v.compression = COMPRESSION_PACKBITS;
        row("palette8 tiles packbits", v);
        v = Variant();
        v.channels = 1, v.bits = 16;
        row("gray16 strips none", v);
        v.compression = COMPRESSION_ZSTD, v.predictor = true, v.tiled = true;
        row("gray16 tiles zstd predictor", v);
        v.compression = COMPRESSION_LZW, v.tiled = false, v.bigTiff = true, v.bigEndian = true;
        row("gray16 strips lzw predictor bigtiff big-endian", v);
        v = Variant();
        v.bits = 16, v.compression = COMPRESSION_ADOBE_DEFLATE, v.predictor = true, v.tiled = true;
        row("rgb16 tiles deflate predictor", v);
        v = Variant();
        v.bits = 16, v.channels = 4;
        row("rgba16 strips none", v);
        v = Variant();
        v.compression = COMPRESSION_ADOBE_DEFLATE, v.rowsPerStrip = 97;
        row("rgb8 one strip read as row bands", v, 0, 4096);
    }
    void roundTrip()
    {
        QFETCH(Variant, v);
        QFETCH(int, tolerance);
        QFETCH(qulonglong, maxBlockBytes);
        if (!TIFFIsCODECConfigured(v.compression))
            QSKIP("this libtiff lacks the codec");
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "v.tif").toStdString();
        QVERIFY(fixtures::write(path, v));
        TiledOpenOptions o;
        o.maxBlockBytes = maxBlockBytes;
        auto im = TiledImage::open(path, o);
        QVERIFY2(im, im.status().toString().c_str());
        const TiledImageInfo& info = (*im)->info();
        QCOMPARE(info.width, v.width);
        QCOMPARE(info.height, v.height);
        QCOMPARE(info.bitsPerSample, v.bits);
        QCOMPARE(info.tiled, v.tiled);
        QCOMPARE(info.bigTiff, v.bigTiff);
        QCOMPARE(info.planarSeparate, v.separate);
        QCOMPARE(int(info.levels.size()), 1);
        if (v.bits == 16) {
            // The stretch must come from the data (1000 .. 39250), not the type's range.
            QVERIFY2(info.stretchLow >= 1000 && info.stretchLow < 3000,
                     qPrintable(QString::number(info.stretchLow)));
            QVERIFY2(info.stretchHigh > 37000 && info.stretchHigh <= 39250,
                     qPrintable(QString::number(info.stretchHigh)));
        }
        const Image want = fixtures::expected(v, info.stretchLow, info.stretchHigh);
        QCOMPARE(info.channels, want.channels);
        auto got = (*im)->readLevel(0);
        QVERIFY2(got, got.status().toString().c_str());
        const auto [worst, mean] = diff(*got, want);
        if (tolerance == 0)
            QVERIFY2(worst == 0, qPrintable(QStringLiteral("max diff %1").arg(worst)));
        else
            QVERIFY2(mean <= tolerance, qPrintable(QStringLiteral("mean diff %1").arg(mean)));
        // Region reads crossing block edges equal the full decode.
        std::mt19937 rng(7);
        for (int i = 0; i < 20; ++i) {
            const int w = 1 + int(rng() % v.width), h = 1 + int(rng() % v.height);
            const int x = int(rng() % (v.width - w + 1)), y = int(rng() % (v.height - h + 1));
            auto r = (*im)->readRegion(0, x, y, w, h);
            QVERIFY2(r, r.status().toString().c_str());
            QVERIFY(r->pixels == crop(*got, x, y, w, h).pixels);
        }
    }

    void writerPyramidLevelsAreHalvings_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("tile");
        QTest::addColumn<bool>("deflate");
        QTest::newRow("rgb 256 zstd") << 3 << 256 << false;
        QTest::newRow("gray 512 deflate") << 1 << 512 << true;
        QTest::newRow("rgba 256 deflate") << 4 << 256 << true;
    }
    void writerPyramidLevelsAreHalvings()
    {
        QFETCH(int, channels);
        QFETCH(int, tile);
        QFETCH(bool, deflate);
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "p.tif").toStdString();
        const Image src = scene(1301, 517, channels, 3);
        TiledWriteOptions o;
        o.tileSize = tile;
        o.compression = deflate ? TileCompression::Deflate : TileCompression::Zstd;
        o.maxOverviewSide = 100; // 1301 -> 651 -> 326 -> 163 -> 82
        QVERIFY(writePyramid(path, src, o));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 1); // no temporaries left
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(int(uchar(f.read(4).at(2))), 43); // BigTIFF
        auto im = TiledImage::open(path);
        QVERIFY2(im, im.status().toString().c_str());
        QCOMPARE((*im)->levelCount(), 5);
        QCOMPARE(QString::fromStdString((*im)->info().pyramidKind), QStringLiteral("pages"));
        QCOMPARE((*im)->info().levels[0].blockWidth, tile);
        QCOMPARE((*im)->info().levels[4].width, 82);
        QCOMPARE((*im)->info().levels[4].height, 33);
        Image level = src;
        for (int k = 0; k < 5; ++k) {
            auto got = (*im)->readLevel(k);
            QVERIFY2(got, got.status().toString().c_str());
            QCOMPARE(got->width, level.width);
            QCOMPARE(got->height, level.height);
            QVERIFY2(got->pixels == level.pixels, qPrintable(QStringLiteral("level %1").arg(k)));
            level = halve(level);
        }
    }

    void writerStopsBelow1024ByDefault()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "p.tif").toStdString();
        QVERIFY(writePyramid(path, scene(2100, 300, 1, 1), TiledWriteOptions{}));
        auto im = TiledImage::open(path);
        QVERIFY(im);
        QCOMPARE((*im)->levelCount(), 3); // 2100 -> 1050 -> 525
        QVERIFY((*im)->info().levels.back().width < 1024);
    }

    void appendTileEqualsAppendRows()
    {
        QTemporaryDir tmp;
        const Image src = scene(300, 200, 3, 9);
        TiledWriteOptions o;
        o.tileSize = 64;
        o.maxOverviewSide = 64;
        const std::string a = tmpFile(tmp, "a.tif").toStdString();
        const std::string b = tmpFile(tmp, "b.tif").toStdString();
        QVERIFY(writePyramid(a, src, o));
        auto w = TiledTiffWriter::create(b, src.width, src.height, 3, o);
        QVERIFY(w);
        for (int y = 0; y < src.height; y += 64)
            for (int x = 0; x < src.width; x += 64) {
                const Image t =
                    crop(src, x, y, std::min(64, src.width - x), std::min(64, src.height - y));
                QVERIFY((*w)->appendTile(t));
            }
        QVERIFY((*w)->finish());
        QVERIFY(samePyramids(a, b));
    }

    // Overview tiles go into the output while rows still come in (no temporary file per level),
    // between level 0's tiles; every level is the halving of the one above, and nothing but the
    // output is left.
    void overviewsGoIntoTheOutputAsTheyCome()
    {
        QTemporaryDir tmp;
        const Image src = scene(1500, 900, 1, 11);
        TiledWriteOptions o;
        o.tileSize = 64;
        o.maxOverviewSide = 64;
        o.threads = 2;
        const QString path = tmpFile(tmp, "m.tif");
        auto w = TiledTiffWriter::create(path.toStdString(), src.width, src.height, 1, o);
        QVERIFY(w);
        const auto files = [&] { return QDir(tmp.path()).entryList(QDir::Files); };
        QCOMPARE(files().size(), 1); // the output under its temporary name
        for (int y = 0; y < src.height; y += 100)
            QVERIFY((*w)->appendRows(crop(src, 0, y, src.width, std::min(100, src.height - y))));
        QCOMPARE(files().size(), 1);
        QVERIFY((*w)->finish());
        QCOMPARE(files(), QStringList{QStringLiteral("m.tif")});
        auto im = TiledImage::open(path.toStdString());
        QVERIFY(im);
        QCOMPARE((*im)->levelCount(), 6); // 1500 -> 750 -> 375 -> 188 -> 94 -> 47
        Image expected = src;
        for (int k = 0; k < 6; ++k) {
            auto level = (*im)->readLevel(k);
            QVERIFY(level);
            QVERIFY2(level->pixels == expected.pixels, qPrintable(QString::number(k)));
            expected = halve(expected);
        }
        // Interleaved: level 1's first tile lies before level 0's last one.
        TIFF* t = TIFFOpen(path.toLocal8Bit().constData(), "r");
        QVERIFY(t);
        const uint64_t lastOf0 = TIFFGetStrileOffset(t, TIFFNumberOfTiles(t) - 1);
        const bool second = TIFFSetDirectory(t, 1);
        const uint64_t firstOf1 = second ? TIFFGetStrileOffset(t, 0) : 0;
        TIFFClose(t);
        QVERIFY(second);
        QVERIFY2(firstOf1 > 0 && firstOf1 < lastOf0,
                 qPrintable(QStringLiteral("%1 %2").arg(firstOf1).arg(lastOf0)));
    }

    void rawRowsEqualImageRows_data()
    {
        QTest::addColumn<bool>("deflate");
        QTest::newRow("zstd") << false;
        QTest::newRow("deflate") << true;
    }
    // Rows appended from a pointer in uneven chunks (some large enough to be copied by several
    // threads) give the same file as whole Images; bad calls are refused and change nothing.
    void rawRowsEqualImageRows()
    {
        QFETCH(bool, deflate);
        QTemporaryDir tmp;
        const Image src = scene(3000, 1100, 3, 4);
        TiledWriteOptions o;
        o.tileSize = 512;
        o.threads = 3;
        o.compression = deflate ? TileCompression::Deflate : TileCompression::Zstd;
        const std::string a = tmpFile(tmp, "a.tif").toStdString();
        const std::string b = tmpFile(tmp, "b.tif").toStdString();
        QVERIFY(writePyramid(a, src, o));
        auto w = TiledTiffWriter::create(b, src.width, src.height, 3, o);
        QVERIFY(w);
        QCOMPARE(int((*w)->appendRows(nullptr, 3).code()), int(ErrorCode::InvalidArgument));
        QCOMPARE(int((*w)->appendRows(src.row(0), -1).code()), int(ErrorCode::InvalidArgument));
        QCOMPARE(int((*w)->appendRows(src.row(0), 1101).code()), int(ErrorCode::InvalidArgument));
        QVERIFY((*w)->appendRows(src.row(0), 0));
        int y = 0;
        for (int n : {1, 37, 600, 300, 162}) {
            QVERIFY((*w)->appendRows(src.row(y), n));
            y += n;
            QCOMPARE((*w)->rowsWritten(), y);
        }
        QCOMPARE(y, src.height);
        QCOMPARE(int((*w)->appendRows(src.row(0), 1).code()), int(ErrorCode::InvalidArgument));
        QVERIFY((*w)->finish());
        QVERIFY(samePyramids(a, b));
        QVERIFY((*TiledImage::open(b))->readLevel(0)->pixels == src.pixels);
    }

    // A region read into caller memory with a wider stride holds the same pixels as readRegion,
    // and leaves the bytes between rows alone; a region outside the level is refused.
    void regionIntoCallerMemory()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "r.tif").toStdString();
        const Image src = scene(700, 500, 3, 5);
        TiledWriteOptions o;
        o.tileSize = 128;
        QVERIFY(writePyramid(path, src, o));
        auto im = TiledImage::open(path);
        QVERIFY(im);
        const int x = 101, y = 77, w = 333, h = 250;
        const size_t stride = size_t(w) * 3 + 17;
        std::vector<uint8_t> buf(stride * size_t(h), 0xAB);
        QVERIFY((*im)->readRegionInto(0, x, y, w, h, buf.data(), stride));
        auto ref = (*im)->readRegion(0, x, y, w, h);
        QVERIFY(ref);
        for (int r = 0; r < h; ++r) {
            QVERIFY(std::equal(ref->row(r), ref->row(r) + size_t(w) * 3, buf.data() + r * stride));
            QCOMPARE(int(buf[r * stride + size_t(w) * 3]), 0xAB);
        }
        QCOMPARE(int((*im)->readRegionInto(0, 600, 0, 200, 10, buf.data(), stride).code()),
                 int(ErrorCode::InvalidArgument));
    }

    // Rows given as side-by-side parts (a scan split over devices: each part its own buffer and
    // stride) give the same file as whole rows; parts that leave a gap, overlap or miss the
    // width are refused.
    void rowPartsEqualWholeRows()
    {
        QTemporaryDir tmp;
        const Image src = scene(3000, 1100, 3, 4);
        TiledWriteOptions o;
        o.tileSize = 512;
        o.threads = 3;
        const std::string a = tmpFile(tmp, "a.tif").toStdString();
        const std::string b = tmpFile(tmp, "b.tif").toStdString();
        QVERIFY(writePyramid(a, src, o));
        // Three column slices copied into buffers of their own, rows padded to odd strides.
        const int x0s[] = {0, 1001, 1950}, widths[] = {1001, 949, 1050}, pads[] = {7, 0, 33};
        std::vector<std::vector<uint8_t>> slices(3);
        for (int i = 0; i < 3; ++i) {
            const size_t stride = size_t(widths[i] + pads[i]) * 3;
            slices[size_t(i)].assign(stride * size_t(src.height), 0);
            for (int y = 0; y < src.height; ++y)
                std::memcpy(slices[size_t(i)].data() + size_t(y) * stride,
                            src.row(y) + size_t(x0s[i]) * 3, size_t(widths[i]) * 3);
        }
        auto partsAt = [&](int y) {
            std::vector<TiledRowPart> p(3);
            for (int i = 0; i < 3; ++i) {
                const size_t stride = size_t(widths[i] + pads[i]) * 3;
                p[size_t(i)] = {x0s[i], widths[i], slices[size_t(i)].data() + size_t(y) * stride,
                                stride};
            }
            return p;
        };
        auto w = TiledTiffWriter::create(b, src.width, src.height, 3, o);
        QVERIFY(w);
        auto bad = partsAt(0);
        bad[1].x0 += 1; // a gap
        QCOMPARE(int((*w)->appendRowParts(2, bad.data(), 3).code()),
                 int(ErrorCode::InvalidArgument));
        bad = partsAt(0);
        bad[2].width -= 1; // short of the width
        QCOMPARE(int((*w)->appendRowParts(2, bad.data(), 3).code()),
                 int(ErrorCode::InvalidArgument));
        bad = partsAt(0);
        bad[0].stride = 10; // rows overlap
        QCOMPARE(int((*w)->appendRowParts(2, bad.data(), 3).code()),
                 int(ErrorCode::InvalidArgument));
        QCOMPARE((*w)->rowsWritten(), 0);
        int y = 0;
        for (int n : {1, 37, 600, 300, 162}) {
            const auto p = partsAt(y);
            QVERIFY((*w)->appendRowParts(n, p.data(), 3));
            y += n;
            QCOMPARE((*w)->rowsWritten(), y);
        }
        QVERIFY((*w)->finish());
        QVERIFY(samePyramids(a, b));
    }

    void subIfdPyramid()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "s.tif").toStdString();
        const Image l0 = scene(256, 192, 3, 1), l1 = halve(l0), l2 = halve(l1);
        TIFF* tif = TIFFOpen(path.c_str(), "w");
        QVERIFY(tif);
        const Image* levels[] = {&l0, &l1, &l2};
        for (int k = 0; k < 3; ++k) {
            const Image& im = *levels[k];
            TIFFSetField(tif, TIFFTAG_SUBFILETYPE, k ? FILETYPE_REDUCEDIMAGE : 0);
            TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(im.width));
            TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(im.height));
            TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
            TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(3));
            TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
            TIFFSetField(tif, TIFFTAG_TILEWIDTH, 64u);
            TIFFSetField(tif, TIFFTAG_TILELENGTH, 64u);
            if (k == 0) {
                toff_t offsets[2] = {0, 0};
                TIFFSetField(tif, TIFFTAG_SUBIFD, uint16_t(2), offsets);
            }
            std::vector<uint8_t> tile(64 * 64 * 3);
            for (int ty = 0; ty < im.height; ty += 64)
                for (int tx = 0; tx < im.width; tx += 64) {
                    std::fill(tile.begin(), tile.end(), 0);
                    for (int y = 0; y < 64 && ty + y < im.height; ++y)
                        std::memcpy(&tile[y * 64 * 3], im.row(ty + y) + tx * 3,
                                    size_t(std::min(64, im.width - tx)) * 3);
                    QVERIFY(TIFFWriteTile(tif, tile.data(), uint32_t(tx), uint32_t(ty), 0, 0) >= 0);
                }
            QVERIFY(TIFFWriteDirectory(tif));
        }
        TIFFClose(tif);
        auto r = TiledImage::open(path);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(QString::fromStdString((*r)->info().pyramidKind), QStringLiteral("subifds"));
        QCOMPARE((*r)->levelCount(), 3);
        QVERIFY((*r)->readLevel(1)->pixels == l1.pixels);
        QVERIFY((*r)->readLevel(2)->pixels == l2.pixels);
        QCOMPARE((*r)->bestLevelForDownsample(1.0), 0);
        QCOMPARE((*r)->bestLevelForDownsample(2.5), 1);
        QCOMPARE((*r)->bestLevelForDownsample(100.0), 2);
    }

    void pagesPyramidSkipsLabelsAndForeignPages()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "pages.tif").toStdString();
        const Image l0 = scene(400, 300, 1, 2), l1 = halve(l0);
        const Image label = scene(120, 120, 1, 3); // a square label: not a reduction
        const Image rgb = scene(100, 75, 3, 4);    // right shape, wrong colour: not a level
        TIFF* tif = TIFFOpen(path.c_str(), "w");
        QVERIFY(tif);
        const Image* pages[] = {&l0, &label, &rgb, &l1};
        for (const Image* p : pages) {
            TIFFSetField(tif, TIFFTAG_SUBFILETYPE, p == &l0 ? 0 : FILETYPE_REDUCEDIMAGE);
            TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(p->width));
            TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(p->height));
            TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
            TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(p->channels));
            TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                         p->channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
            TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 16u);
            for (int y = 0; y < p->height; ++y)
                QVERIFY(TIFFWriteScanline(tif, const_cast<uint8_t*>(p->row(y)), uint32_t(y)) >= 0);
            QVERIFY(TIFFWriteDirectory(tif));
        }
        TIFFClose(tif);
        auto r = TiledImage::open(path);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE((*r)->levelCount(), 2);
        QCOMPARE((*r)->info().levels[1].width, 200);
        QVERIFY((*r)->readLevel(1)->pixels == l1.pixels);
    }

    void resolutionAndGeoTagsAreCopied()
    {
        QTemporaryDir tmp;
        const std::string src = tmpFile(tmp, "geo.tif").toStdString();
        const std::string out = tmpFile(tmp, "out.tif").toStdString();
        // Register the GeoTIFF tags for this test's own libtiff writes.
        static const TIFFFieldInfo geo[] = {
            {33550, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
             const_cast<char*>("ModelPixelScaleTag")},
            {34735, -1, -1, TIFF_SHORT, FIELD_CUSTOM, 1, 1,
             const_cast<char*>("GeoKeyDirectoryTag")},
            {34737, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, const_cast<char*>("GeoASCIIParamsTag")},
        };
        Variant v;
        v.width = 300, v.height = 200, v.compression = COMPRESSION_ADOBE_DEFLATE;
        QVERIFY(fixtures::write(src, v));
        TIFF* tif = TIFFOpen(src.c_str(), "r+");
        QVERIFY(tif);
        TIFFMergeFieldInfo(tif, geo, 3);
        const double scale[3] = {0.25, 0.25, 0.0};
        const uint16_t keys[8] = {1, 1, 0, 1, 1024, 0, 1, 1};
        TIFFSetField(tif, 33550, uint16_t(3), scale);
        TIFFSetField(tif, 34735, uint16_t(8), keys);
        TIFFSetField(tif, 34737, "WGS 84|");
        TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
        TIFFSetField(tif, TIFFTAG_XRESOLUTION, 254.0f);
        TIFFSetField(tif, TIFFTAG_YRESOLUTION, 127.0f);
        QVERIFY(TIFFRewriteDirectory(tif));
        TIFFClose(tif);

        auto in = TiledImage::open(src);
        QVERIFY2(in, in.status().toString().c_str());
        QCOMPARE(int((*in)->info().geoTags.size()), 3);
        QVERIFY(std::abs((*in)->info().pixelSizeXmm - 0.1) < 1e-6);
        QVERIFY(std::abs((*in)->info().pixelSizeYmm - 0.2) < 1e-6);
        TiledWriteOptions o;
        o.maxOverviewSide = 64;
        auto r = makePyramid(src, out, o, CancelToken(), nullptr);
        QVERIFY2(r, r.status().toString().c_str());
        auto back = TiledImage::open(out);
        QVERIFY(back);
        const auto& a = (*in)->info().geoTags;
        const auto& b = (*back)->info().geoTags;
        QCOMPARE(b.size(), a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].tag, a[i].tag);
            QCOMPARE(b[i].count, a[i].count);
            QVERIFY(b[i].bytes == a[i].bytes);
        }
        QVERIFY(std::abs((*back)->info().pixelSizeXmm - 0.1) < 1e-4);
        QVERIFY(std::abs((*back)->info().pixelSizeYmm - 0.2) < 1e-4);
        QVERIFY((*back)->readLevel(0)->pixels == (*in)->readLevel(0)->pixels);
    }

    void pyramidOfStripedSixteenBitInput()
    {
        QTemporaryDir tmp;
        Variant v;
        v.bits = 16, v.channels = 1, v.width = 700, v.height = 300, v.rowsPerStrip = 3;
        const std::string src = tmpFile(tmp, "s16.tif").toStdString();
        const std::string out = tmpFile(tmp, "o.tif").toStdString();
        QVERIFY(fixtures::write(src, v));
        TiledWriteOptions o;
        o.maxOverviewSide = 256;
        o.tileSize = 256;
        auto r = makePyramid(src, out, o, CancelToken(), nullptr);
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->levels, 3);
        auto a = TiledImage::open(src), b = TiledImage::open(out);
        QVERIFY(a && b);
        QVERIFY((*b)->readLevel(0)->pixels == (*a)->readLevel(0)->pixels);
        QVERIFY((*b)->readLevel(2)->pixels == halve(halve(*(*a)->readLevel(0))).pixels);
    }

    void cancelledPyramidLeavesNothing()
    {
        QTemporaryDir tmp;
        Variant v;
        v.width = 600, v.height = 600;
        const std::string src = tmpFile(tmp, "in.tif").toStdString();
        const QString out = tmpFile(tmp, "out.tif");
        QVERIFY(fixtures::write(src, v));
        QVERIFY(fixtures::save(out, QByteArray("keep me")));
        CancelToken cancel;
        int reports = 0;
        CallbackProgressSink sink([&](const Progress&) {
            if (++reports == 1)
                cancel.cancel(); // cancel during the job, after it started writing
        });
        auto r = makePyramid(src, out.toStdString(), TiledWriteOptions{}, cancel, &sink);
        QVERIFY(!r);
        QCOMPARE(int(r.status().code()), int(ErrorCode::Cancelled));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 2); // in.tif, out.tif only
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
    }

    void unfinishedWriterLeavesNothing()
    {
        QTemporaryDir tmp;
        {
            auto w = TiledTiffWriter::create(tmpFile(tmp, "w.tif").toStdString(), 500, 500, 3);
            QVERIFY(w);
            QVERIFY((*w)->appendRows(scene(500, 300, 3, 1)));
            QVERIFY(!(*w)->finish()); // rows missing
        }
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 0);
    }

    void writerRejectsBadArguments_data()
    {
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("tile");
        QTest::addColumn<int>("level");
        QTest::newRow("zero width") << 0 << 3 << 256 << 0;
        QTest::newRow("two channels") << 10 << 2 << 256 << 0;
        QTest::newRow("tile not multiple of 16") << 10 << 3 << 100 << 0;
        QTest::newRow("zstd level 30") << 10 << 3 << 256 << 30;
    }
    void writerRejectsBadArguments()
    {
        QFETCH(int, w);
        QFETCH(int, channels);
        QFETCH(int, tile);
        QFETCH(int, level);
        QTemporaryDir tmp;
        TiledWriteOptions o;
        o.tileSize = tile;
        o.compressionLevel = level;
        auto r = TiledTiffWriter::create(tmpFile(tmp, "x.tif").toStdString(), w, 10, channels, o);
        QVERIFY(!r);
        QCOMPARE(int(r.status().code()), int(ErrorCode::InvalidArgument));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 0);
    }

    void cacheKeepsBudgetAndPins()
    {
        const Image t = Image::make(64, 64, 3);
        const size_t each = TileCache::tileBytes(t);
        TileCache cache(each * 4);
        auto tile = std::make_shared<const Image>(t);
        const TileId pinned{1, 0, 0, 0}, visible{1, 0, 1, 0};
        cache.pin(pinned);
        cache.insert(pinned, tile);
        cache.setVisible({visible});
        cache.insert(visible, tile);
        for (int i = 0; i < 20; ++i)
            cache.insert(TileId{1, 1, i, 0}, tile);
        auto s = cache.stats();
        QVERIFY(s.bytes <= each * 4);
        QCOMPARE(int(s.tiles), 4);
        QCOMPARE(int(s.pinnedTiles), 2);
        QVERIFY(cache.find(pinned));
        QVERIFY(cache.find(visible));
        QVERIFY(cache.find(TileId{1, 1, 19, 0})); // newest stays
        QVERIFY(!cache.find(TileId{1, 1, 0, 0})); // oldest went
        // Everything protected: the budget may overflow, nothing protected is dropped.
        cache.setBudget(each);
        QCOMPARE(int(cache.stats().tiles), 2);
        cache.unpin(pinned);
        cache.setVisible({});
        QCOMPARE(int(cache.stats().tiles), 1);
        QVERIFY(cache.stats().bytes <= each);
        // Distinct ids hash apart.
        TileIdHash h;
        QVERIFY(h(TileId{1, 0, 1, 0}) != h(TileId{1, 0, 0, 1}));
        QVERIFY(h(TileId{1, 0, 0, 0}) != h(TileId{2, 0, 0, 0}));
    }

    void readsGoThroughTheCache()
    {
        QTemporaryDir tmp;
        Variant v;
        v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE;
        const std::string path = tmpFile(tmp, "c.tif").toStdString();
        QVERIFY(fixtures::write(path, v));
        TiledOpenOptions o;
        o.cache = std::make_shared<TileCache>(64 << 20);
        auto im = TiledImage::open(path, o);
        QVERIFY(im);
        QVERIFY((*im)->readRegion(0, 10, 10, 60, 40));
        const auto first = o.cache->stats();
        QCOMPARE(int(first.hits), 0);
        QVERIFY(first.tiles >= 2);
        QVERIFY((*im)->readRegion(0, 10, 10, 60, 40));
        QCOMPARE(o.cache->stats().hits, uint64_t(first.misses));
        const uint64_t id = (*im)->id();
        im = Result<std::shared_ptr<TiledImage>>(Status(ErrorCode::Cancelled, "closed"));
        QCOMPARE(int(o.cache->stats().tiles), 0); // a closed image's tiles go
        auto again = TiledImage::open(path, o);
        QVERIFY((*again)->id() != id);
    }

    void concurrentReadersAgree()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "t.tif").toStdString();
        TiledWriteOptions wo;
        wo.tileSize = 64;
        wo.maxOverviewSide = 100;
        const Image src = scene(700, 500, 3, 5);
        QVERIFY(writePyramid(path, src, wo));
        TiledOpenOptions o;
        o.cache = std::make_shared<TileCache>(3 * 64 * 64 * 3); // tiny: constant eviction
        o.maxHandles = 3;                                       // fewer handles than threads
        auto im = TiledImage::open(path, o);
        QVERIFY(im);
        std::vector<Image> full;
        for (int k = 0; k < (*im)->levelCount(); ++k)
            full.push_back(*(*im)->readLevel(k));
        std::atomic<int> bad{0}, done{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 6; ++t)
            threads.emplace_back([&, t] {
                std::mt19937 rng{uint32_t(t)};
                for (int i = 0; i < 150; ++i) {
                    const int k = int(rng() % full.size());
                    const Image& f = full[k];
                    const int w = 1 + int(rng() % std::min(f.width, 150));
                    const int h = 1 + int(rng() % std::min(f.height, 150));
                    const int x = int(rng() % (f.width - w + 1)),
                              y = int(rng() % (f.height - h + 1));
                    auto r = (*im)->readRegion(k, x, y, w, h);
                    if (!r || r->pixels != crop(f, x, y, w, h).pixels)
                        ++bad;
                    ++done;
                }
            });
        for (auto& t : threads)
            t.join();
        QCOMPARE(done.load(), 900);
        QCOMPARE(bad.load(), 0);
        QVERIFY(o.cache->stats().evictions > 0);
    }

    void regionOutsideIsInvalid()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "r.tif").toStdString();
        QVERIFY(fixtures::write(path, Variant()));
        auto im = TiledImage::open(path);
        QVERIFY(im);
        QCOMPARE(int((*im)->readRegion(0, 100, 0, 51, 10).status().code()),
                 int(ErrorCode::InvalidArgument));
        QCOMPARE(int((*im)->readRegion(1, 0, 0, 1, 1).status().code()),
                 int(ErrorCode::InvalidArgument));
        QCOMPARE(int((*im)->readBlock(0, 0, 99).status().code()), int(ErrorCode::InvalidArgument));
    }

    // --- bad input: one case each ---------------------------------------------------------

    void missingFileIsNotFound()
    {
        auto r = TiledImage::open("/no/such/scan.tif");
        QCOMPARE(int(r.status().code()), int(ErrorCode::NotFound));
    }

    void garbageIsCorrupt()
    {
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "junk.tif");
        QVERIFY(fixtures::save(p, QByteArray(500, 'z')));
        expectRefusal(p, ErrorCode::Corrupt, "junk.tif");
    }

    void emptyFileIsCorrupt()
    {
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "empty.tif");
        QVERIFY(fixtures::save(p, QByteArray()));
        expectRefusal(p, ErrorCode::Corrupt, "empty.tif");
    }

    void zeroSizeIsCorrupt()
    {
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "zero.tif");
        const uint32_t data = fixtures::payloadOffset(8);
        QVERIFY(fixtures::save(p, fixtures::craft({{256, 4, 1, 0},
                                                   {257, 4, 1, 64},
                                                   {258, 3, 1, 8},
                                                   {259, 3, 1, 1},
                                                   {262, 3, 1, 1},
                                                   {273, 4, 1, data},
                                                   {278, 4, 1, 64},
                                                   {279, 4, 1, 16}},
                                                  QByteArray(16, 'x'))));
        auto r = TiledImage::open(p.toStdString());
        QVERIFY(!r);
        QCOMPARE(int(r.status().code()), int(ErrorCode::Corrupt));
        QVERIFY(QString::fromStdString(r.status().detail()).contains(QStringLiteral("zero.tif")));
    }

    void absurdDimensionsAreRefusedBeforeAllocating()
    {
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "huge.tif");
        const uint32_t data = fixtures::payloadOffset(8);
        // 10^12 pixels claimed by a ~130-byte file, as one Deflate strip.
        QVERIFY(fixtures::save(p, fixtures::craft({{256, 4, 1, 1000000},
                                                   {257, 4, 1, 1000000},
                                                   {258, 3, 1, 8},
                                                   {259, 3, 1, 8},
                                                   {262, 3, 1, 1},
                                                   {273, 4, 1, data},
                                                   {278, 4, 1, 1000000},
                                                   {279, 4, 1, 16}},
                                                  QByteArray(16, 'x'))));
        QElapsedTimer t;
        t.start();
        expectRefusal(p, ErrorCode::Corrupt, "cannot be held");
        QVERIFY(t.elapsed() < 2000);
    }

    void truncatedStripIsCorruptAndNamed()
    {
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "cut.tif");
        // 64x64 gray, two Deflate strips of 32 rows; the file ends inside strip 1.
        QByteArray s0 = qCompress(QByteArray(64 * 32, '\x40')).mid(4);
        QByteArray s1;
        for (int i = 0; i < 64 * 32; ++i)
            s1.append(char((i * 131) & 0xFF));
        s1 = qCompress(s1).mid(4);
        const uint32_t base = fixtures::payloadOffset(8);
        QByteArray payload;
        fixtures::put32(payload, base + 16);
        fixtures::put32(payload, base + 16 + uint32_t(s0.size()));
        fixtures::put32(payload, uint32_t(s0.size()));
        fixtures::put32(payload, uint32_t(s1.size()));
        payload.append(s0).append(s1.left(s1.size() / 3));
        QVERIFY(fixtures::save(p, fixtures::craft({{256, 4, 1, 64},
                                                   {257, 4, 1, 64},
                                                   {258, 3, 1, 8},
                                                   {259, 3, 1, 8},
                                                   {262, 3, 1, 1},
                                                   {273, 4, 2, base},
                                                   {278, 4, 1, 32},
                                                   {279, 4, 2, base + 8}},
                                                  payload)));
        TiledOpenOptions o;
        o.maxBlockBytes = 64 * 32; // one strip per block
        auto im = TiledImage::open(p.toStdString(), o);
        QVERIFY2(im, im.status().toString().c_str());
        auto top = (*im)->readRegion(0, 0, 0, 64, 32);
        QVERIFY2(top, top.status().toString().c_str());
        QCOMPARE(int(top->pixels[100]), 0x40);
        auto whole = (*im)->readLevel(0);
        QVERIFY(!whole);
        QCOMPARE(int(whole.status().code()), int(ErrorCode::Corrupt));
        const QString d = QString::fromStdString(whole.status().detail());
        QVERIFY2(d.contains(QStringLiteral("cut.tif")) && d.contains(QStringLiteral("strip 1")),
                 qPrintable(d));
    }

    void corruptTileIsCorruptAndNamed()
    {
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "bad.tif").toStdString();
        Variant v;
        v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE;
        QVERIFY(fixtures::write(path, v));
        uint64_t offset = 0, count = 0;
        {
            TIFF* tif = TIFFOpen(path.c_str(), "r");
            QVERIFY(tif);
            offset = TIFFGetStrileOffset(tif, 1); // tile column 1, row 0
            count = TIFFGetStrileByteCount(tif, 1);
            TIFFClose(tif);
        }
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.seek(qint64(offset)));
        f.write(QByteArray(int(count), '\xA5'));
        f.close();
        auto im = TiledImage::open(path);
        QVERIFY2(im, im.status().toString().c_str());
        QVERIFY((*im)->readBlock(0, 0, 0)); // its neighbour is fine
        auto r = (*im)->readBlock(0, 1, 0);
        QVERIFY(!r);
        QCOMPARE(int(r.status().code()), int(ErrorCode::Corrupt));
        const QString d = QString::fromStdString(r.status().detail());
        QVERIFY2(d.contains(QStringLiteral("bad.tif")) && d.contains(QStringLiteral("tile 1,0")),
                 qPrintable(d));
    }

    void unsupportedSampleFormats_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<int>("sampleFormat");
        QTest::addColumn<int>("photometric");
        QTest::addColumn<int>("spp");
        QTest::addColumn<QString>("needle");
        QTest::newRow("float16") << 16 << int(SAMPLEFORMAT_IEEEFP) << int(PHOTOMETRIC_MINISBLACK)
                                 << 1 << QStringLiteral("16-bit floating");
        QTest::newRow("signed64") << 64 << int(SAMPLEFORMAT_INT) << int(PHOTOMETRIC_MINISBLACK) << 1
                                  << QStringLiteral("signed");
        QTest::newRow("complex") << 32 << int(SAMPLEFORMAT_COMPLEXINT)
                                 << int(PHOTOMETRIC_MINISBLACK) << 1 << QStringLiteral("complex");
        QTest::newRow("4-bit rgb") << 4 << int(SAMPLEFORMAT_UINT) << int(PHOTOMETRIC_RGB) << 3
                                   << QStringLiteral("4-bit colour");
        QTest::newRow("16-bit cmyk float")
            << 32 << int(SAMPLEFORMAT_IEEEFP) << int(PHOTOMETRIC_SEPARATED) << 4
            << QStringLiteral("CMYK");
        QTest::newRow("ycbcr-raw") << 8 << int(SAMPLEFORMAT_UINT) << int(PHOTOMETRIC_YCBCR) << 3
                                   << QStringLiteral("YCbCr");
        QTest::newRow("12-bit") << 12 << int(SAMPLEFORMAT_UINT) << int(PHOTOMETRIC_MINISBLACK) << 1
                                << QStringLiteral("12-bit");
    }
    void unsupportedSampleFormats()
    {
        QFETCH(int, bits);
        QFETCH(int, sampleFormat);
        QFETCH(int, photometric);
        QFETCH(int, spp);
        QFETCH(QString, needle);
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "odd.tif");
        TIFF* tif = TIFFOpen(p.toStdString().c_str(), "w");
        QVERIFY(tif);
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, 16u);
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, 16u);
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(bits));
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(spp));
        TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, uint16_t(sampleFormat));
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, uint16_t(photometric));
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        if (photometric == PHOTOMETRIC_YCBCR)
            TIFFSetField(tif, TIFFTAG_YCBCRSUBSAMPLING, uint16_t(1), uint16_t(1));
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 16u);
        std::vector<uint8_t> row(64 * 8, 0x11);
        for (uint32_t y = 0; y < 16; ++y)
            QVERIFY(TIFFWriteScanline(tif, row.data(), y) >= 0);
        TIFFClose(tif);
        expectRefusal(p, ErrorCode::Unsupported, needle.toLatin1().constData());
    }

    // Bilevel, 2/4-bit, signed, 32-bit, float (NaN, inf, floating-point predictor) and CMYK,
    // striped and tiled: the 8-bit pixels, the stretch and the raw readout.
    void decodesEveryKind_data()
    {
        using kinds::Kind;
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<int>("tile"); // 0: strips of 5 rows, -1: one strip
        const std::pair<const char*, Kind> all[] = {{"1-bit", Kind::Bit1},
                                                    {"1-bit min-is-white", Kind::Bit1White},
                                                    {"2-bit", Kind::Bit2},
                                                    {"4-bit", Kind::Bit4},
                                                    {"int8", Kind::Int8},
                                                    {"int16 deflate", Kind::Int16},
                                                    {"uint32", Kind::Uint32},
                                                    {"float32", Kind::Float32},
                                                    {"float32 fp-predictor", Kind::Float32Pred},
                                                    {"float64 lzw", Kind::Float64},
                                                    {"cmyk", Kind::Cmyk8},
                                                    {"cmyk planar", Kind::Cmyk8Planar}};
        for (const auto& [name, kind] : all)
            for (int tile : {0, -1, 16})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(
                    QLatin1String(name), tile > 0    ? QStringLiteral("tiled")
                                         : tile == 0 ? QStringLiteral("strips")
                                                     : QStringLiteral("one strip"))))
                    << kind << tile;
        QTest::newRow("ccitt g4 strips") << Kind::Fax4 << 0;
        QTest::newRow("ccitt g4 one strip") << Kind::Fax4 << -1;
    }
    void decodesEveryKind()
    {
        QFETCH(kinds::Kind, kind);
        QFETCH(int, tile);
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "k.tif");
        const bool cmyk = kinds::isCmyk(kind);
        const Image src = scene(37, 29, cmyk ? 3 : 1, 5);
        QVERIFY(kinds::write(p, src, kind, std::max(tile, 0), tile < 0 ? 29 : 5));
        auto r = TiledImage::open(p.toStdString());
        QVERIFY2(r, r.status().toString().c_str());
        const TiledImageInfo& info = (*r)->info();
        QCOMPARE(info.channels, cmyk ? 3 : 1);
        auto im = (*r)->readLevel(0);
        QVERIFY2(im, im.status().toString().c_str());
        QCOMPARE(im->width, 37);
        QCOMPARE(im->height, 29);

        double lo = 0, hi = 0;
        if (kinds::isStretched(kind)) {
            // The 0.5/99.5 percentiles of the finite stored values, as the 16-bit path.
            std::vector<double> v;
            for (int y = 0; y < src.height; ++y)
                for (int x = 0; x < src.width; ++x) {
                    const double s =
                        kinds::storedValue(kind, src.row(y)[x], size_t(y) * src.width + x);
                    if (std::isfinite(s))
                        v.push_back(s);
                }
            std::sort(v.begin(), v.end());
            lo = v[size_t(v.size() * 0.005)];
            hi = v[std::min(v.size() - 1, size_t(v.size() * 0.995))];
            QCOMPARE(info.stretchLow, lo);
            QCOMPARE(info.stretchHigh, hi);
        }
        for (int y = 0; y < src.height; ++y)
            for (int x = 0; x < src.width; ++x) {
                const size_t i = size_t(y) * src.width + x;
                const uint8_t* s = src.row(y) + size_t(x) * src.channels;
                const uint8_t* g = im->row(y) + size_t(x) * im->channels;
                if (cmyk) {
                    uint8_t ink[4], rgb[3];
                    kinds::cmykOf(s, i, ink);
                    kinds::rgbOfCmyk(ink, rgb);
                    QVERIFY(std::memcmp(g, rgb, 3) == 0);
                    continue;
                }
                int want = 0;
                if (kinds::isStretched(kind)) {
                    const double v = kinds::storedValue(kind, s[0], i);
                    want = std::isnan(v) ? 0
                                         : int(std::lround(std::clamp((v - lo) * 255.0 / (hi - lo),
                                                                      0.0, 255.0)));
                } else {
                    want = kinds::expectedGray(kind, s[0]);
                }
                if (int(g[0]) != want)
                    QFAIL(qPrintable(QStringLiteral("pixel %1,%2: %3, expected %4")
                                         .arg(x)
                                         .arg(y)
                                         .arg(g[0])
                                         .arg(want)));
            }
        // Small blocks (one strip read a band of rows at a time) decode the same pixels.
        TiledOpenOptions small;
        small.maxBlockBytes = 1024;
        auto banded = TiledImage::open(p.toStdString(), small);
        QVERIFY2(banded, banded.status().toString().c_str());
        auto again = (*banded)->readLevel(0);
        QVERIFY2(again, again.status().toString().c_str());
        QVERIFY(again->pixels == im->pixels);
        // The raw readout gives the stored value (NaN stays NaN).
        for (const auto& [x, y] : {std::pair{0, 0}, {1, 0}, {20, 17}, {36, 28}}) {
            auto raw = (*r)->readRawValue(0, x, y);
            QVERIFY2(raw, raw.status().toString().c_str());
            QCOMPARE(int(raw->size()), cmyk ? 4 : 1);
            if (cmyk)
                continue;
            const double want = kinds::storedValue(kind, src.row(y)[x], size_t(y) * 37 + x);
            if (std::isnan(want))
                QVERIFY(std::isnan((*raw)[0]));
            else
                QCOMPARE((*raw)[0], want);
        }
        QCOMPARE(int((*r)->readRawValue(0, 37, 0).status().code()),
                 int(ErrorCode::InvalidArgument));
    }

    // A float pyramid (reduced-resolution pages): every level decodes through one stretch,
    // taken from the smallest level.
    void floatPyramidSharesOneStretch()
    {
        QTemporaryDir tmp;
        const QString p = tmpFile(tmp, "fp.tif");
        TIFF* tif = TIFFOpen(p.toLocal8Bit().constData(), "w");
        QVERIFY(tif);
        const int sides[2][2] = {{64, 40}, {32, 20}};
        for (int level = 0; level < 2; ++level) {
            const int w = sides[level][0], h = sides[level][1];
            TIFFSetField(tif, TIFFTAG_SUBFILETYPE, level ? FILETYPE_REDUCEDIMAGE : 0);
            TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(w));
            TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(h));
            TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(32));
            TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(1));
            TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, uint16_t(SAMPLEFORMAT_IEEEFP));
            TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, uint16_t(PHOTOMETRIC_MINISBLACK));
            TIFFSetField(tif, TIFFTAG_TILEWIDTH, 16u);
            TIFFSetField(tif, TIFFTAG_TILELENGTH, 16u);
            std::vector<float> tile(16 * 16);
            for (int ty = 0; ty < h; ty += 16)
                for (int tx = 0; tx < w; tx += 16) {
                    for (int y = 0; y < 16; ++y)
                        for (int x = 0; x < 16; ++x)
                            tile[y * 16 + x] = -50.0f + float((tx + x) * 64 / w + (ty + y));
                    QVERIFY(TIFFWriteEncodedTile(tif, TIFFComputeTile(tif, tx, ty, 0, 0),
                                                 tile.data(), tmsize_t(tile.size() * 4)) >= 0);
                }
            QVERIFY(TIFFWriteDirectory(tif));
        }
        TIFFClose(tif);
        auto r = TiledImage::open(p.toStdString());
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE((*r)->levelCount(), 2);
        QCOMPARE((*r)->info().sampleFormat, std::string("float"));
        const double lo = (*r)->info().stretchLow, hi = (*r)->info().stretchHigh;
        QVERIFY(lo < hi && lo >= -50.0 && hi <= 50.0);
        for (int level = 0; level < 2; ++level) {
            auto im = (*r)->readLevel(level);
            QVERIFY2(im, im.status().toString().c_str());
            const int w = sides[level][0];
            for (int y = 0; y < im->height; ++y)
                for (int x = 0; x < im->width; ++x) {
                    const double v = -50.0 + double(x * 64 / w + y);
                    const int want =
                        int(std::lround(std::clamp((v - lo) * 255.0 / (hi - lo), 0.0, 255.0)));
                    QCOMPARE(int(im->row(y)[x]), want);
                }
            auto raw = (*r)->readRawValue(level, 5, 3);
            QVERIFY(raw);
            QCOMPARE((*raw)[0], -50.0 + double(5 * 64 / w + 3));
        }
    }
};

QTEST_GUILESS_MAIN(TstTiledImage)
#include "tst_tiledimage.moc"
