// What the tiled reader makes of every input: bad files (one case each) are refused with the
// right code and the file named; every sample kind (bilevel to float, CMYK, striped and tiled)
// decodes to the expected 8-bit pixels, stretch and raw values.
#include <QtTest>

#include <QTemporaryDir>

#include <tiffio.h>

#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_fixtures.h"
#include "tiff_kinds.h"
#include "tiled_helpers.h"

using namespace fisura;
using namespace tiledtest;
using fixtures::Variant;

Q_DECLARE_METATYPE(kinds::Kind)

class TstTiledKinds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
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

QTEST_GUILESS_MAIN(TstTiledKinds)
#include "tst_tiledkinds.moc"
