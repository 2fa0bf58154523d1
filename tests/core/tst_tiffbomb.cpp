// Decompression bombs (issue 33): a small TIFF claiming a huge image is refused when it is opened,
// before a pixel is decoded, with a message naming the option that lifts the limit; while real
// scans and Fisura's own maps, an all-zero one included, open under the default limits.
#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <zlib.h>

#include "fisura/image.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_fixtures.h"

using namespace fisura;

/// How the strips of a crafted file hold their data.
enum class Strips {
    Shared,   ///< every strip points at the same deflated row (the issue's bomb)
    Distinct, ///< each strip its own deflated row of zeros (a real, very compressible file)
    OneByte,  ///< each strip one byte of its own (a bomb that shares nothing)
};

Q_DECLARE_METATYPE(Strips)

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// `width` x `height` px of 8-bit gray, one row per strip, deflated.
QByteArray bombTiff(uint32_t width, uint32_t height, Strips strips = Strips::Shared)
{
    std::string row(width, '\0');
    uLongf packedSize = compressBound(uLong(row.size()));
    QByteArray block(int(packedSize), '\0');
    compress2(reinterpret_cast<Bytef*>(block.data()), &packedSize,
              reinterpret_cast<const Bytef*>(row.data()), uLong(row.size()), 9);
    block.resize(int(packedSize));
    if (strips == Strips::OneByte)
        block = QByteArray(1, '\0');
    const bool own = strips != Strips::Shared;
    const uint32_t n = height, size = uint32_t(block.size());
    const uint32_t base = fixtures::payloadOffset(9);
    const uint32_t offsets = base, counts = base + 4 * n, data = base + 8 * n;
    QByteArray payload;
    payload.reserve(int(8 * n + size * (own ? n : 1)));
    for (uint32_t i = 0; i < n; ++i)
        fixtures::put32(payload, data + (own ? i * size : 0));
    for (uint32_t i = 0; i < n; ++i)
        fixtures::put32(payload, size);
    for (uint32_t i = 0; i < (own ? n : 1); ++i)
        payload.append(block);
    return fixtures::craft({{256, 4, 1, width},
                            {257, 4, 1, height},
                            {258, 3, 1, 8},
                            {259, 3, 1, COMPRESSION_ADOBE_DEFLATE},
                            {262, 3, 1, PHOTOMETRIC_MINISBLACK},
                            {273, 4, n, offsets},
                            {277, 3, 1, 1},
                            {278, 4, 1, 1},
                            {279, 4, n, counts}},
                           payload);
}

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// An all-zero map as Fisura writes one (the most compressible file it makes).
std::string zeroMap(const QTemporaryDir& d, int side, int tile)
{
    const std::string path = s(d.filePath(QStringLiteral("zero-%1-%2.tif").arg(side).arg(tile)));
    TiledWriteOptions o;
    o.tileSize = tile;
    auto w = TiledTiffWriter::create(path, side, side, 1, o);
    if (!w)
        return {};
    const std::vector<uint8_t> rows(size_t(side) * 256, 0);
    for (int y = 0; y < side; y += 256)
        if (!(*w)->appendRows(rows.data(), std::min(256, side - y)))
            return {};
    return (*w)->finish() ? path : std::string();
}

} // namespace

class TstTiffBomb : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    /// issue 33: "an 8 MB TIFF whose header claims 10^6 x 10^6 pixels".
    void theIssuesBombIsRefusedAtOnce()
    {
        QTemporaryDir d;
        const QString path = d.filePath(QStringLiteral("bomb.tif"));
        const QByteArray bytes = bombTiff(1000000, 1000000);
        QVERIFY(bytes.size() > 7'000'000 && bytes.size() < 9'000'000);
        QVERIFY(fixtures::save(path, bytes));
        const auto t0 = std::chrono::steady_clock::now();
        auto r = TiledImage::open(s(path));
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::TooLarge);
        const QString detail = QString::fromStdString(r.status().detail());
        QVERIFY2(detail.startsWith(QStringLiteral("too_many_pixels: ") + path), qPrintable(detail));
        QVERIFY2(detail.contains(QStringLiteral("--max-pixels 1000000000000")), qPrintable(detail));
        QVERIFY(secondsSince(t0) < 2.0);
        // The whole-image reader (datasets, masks) refuses it before decoding too.
        QVERIFY(!readImage(s(path)));
        QVERIFY(secondsSince(t0) < 2.0);

        // With the pixel limit lifted, the ratio of claimed pixels to file bytes refuses it...
        TiledOpenOptions o;
        o.limits.maxPixels = 0;
        r = TiledImage::open(s(path), o);
        QCOMPARE(r.status().code(), ErrorCode::TooLarge);
        QVERIFY2(QString::fromStdString(r.status().detail())
                     .contains(QStringLiteral("--max-pixels-per-byte 0")),
                 r.status().detail().c_str());
        // ... and with that lifted too, its strips sharing one block give it away.
        o.limits.maxPixelsPerByte = 0;
        r = TiledImage::open(s(path), o);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(r.status().detail().find("share data") != std::string::npos,
                 r.status().detail().c_str());
    }

    void limits_data()
    {
        QTest::addColumn<uint32_t>("width");
        QTest::addColumn<uint32_t>("height");
        QTest::addColumn<Strips>("strips");
        QTest::addColumn<quint64>("maxPixels");
        QTest::addColumn<double>("maxPerByte");
        QTest::addColumn<int>("code");
        // 200,000 x 60,000 px of zero rows, each its own 200-odd byte block: 12 MB claiming
        // 1.2e10 px (about 1,000 px per byte, as much as Deflate can pack).
        QTest::newRow("over the pixel limit")
            << 200000u << 60000u << Strips::Distinct << quint64(10'000'000'000ull) << 50000.0
            << int(ErrorCode::TooLarge);
        QTest::newRow("pixel limit raised")
            << 200000u << 60000u << Strips::Distinct << quint64(20'000'000'000ull) << 50000.0
            << int(ErrorCode::Ok);
        // 1,000,000 x 2,000 px (2e9, under the pixel limit) in 18 KB: 110,000 px per byte
        // (under the reader's fixed bound of 200,000 decoded bytes per byte, tiff_level.h).
        QTest::newRow("over the ratio") << 1000000u << 2000u << Strips::OneByte << quint64(0)
                                        << 50000.0 << int(ErrorCode::TooLarge);
        QTest::newRow("ratio lifted")
            << 1000000u << 2000u << Strips::OneByte << quint64(0) << 0.0 << int(ErrorCode::Ok);
        QTest::newRow("shared blocks, default limits")
            << 4000u << 2000u << Strips::Shared << quint64(10'000'000'000ull) << 50000.0
            << int(ErrorCode::Corrupt);
        QTest::newRow("shared blocks, no limits")
            << 4000u << 2000u << Strips::Shared << quint64(0) << 0.0 << int(ErrorCode::Corrupt);
    }
    void limits()
    {
        QFETCH(uint32_t, width);
        QFETCH(uint32_t, height);
        QFETCH(Strips, strips);
        QFETCH(quint64, maxPixels);
        QFETCH(double, maxPerByte);
        QFETCH(int, code);
        QTemporaryDir d;
        const QString path = d.filePath(QStringLiteral("big.tif"));
        QVERIFY(fixtures::save(path, bombTiff(width, height, strips)));
        TiledOpenOptions o;
        o.limits.maxPixels = maxPixels;
        o.limits.maxPixelsPerByte = maxPerByte;
        auto r = TiledImage::open(s(path), o);
        QCOMPARE(int(r.status().code()), code);
        if (r)
            QCOMPARE((*r)->info().width, int(width));
    }

    /// The default ratio leaves room for Fisura's own most compressible output.
    void fisurasZeroMapsOpen_data()
    {
        QTest::addColumn<int>("tile");
        QTest::newRow("256 px tiles") << 256;
        QTest::newRow("512 px tiles") << 512;
    }
    void fisurasZeroMapsOpen()
    {
        QFETCH(int, tile);
        QTemporaryDir d;
        const int side = 16384;
        const std::string path = zeroMap(d, side, tile);
        QVERIFY(!path.empty());
        const double perByte = double(side) * side / double(std::filesystem::file_size(path));
        qInfo("all-zero %d px map, %d px tiles: %.0f px per byte", side, tile, perByte);
        QVERIFY(perByte < ImageLimits{}.maxPixelsPerByte / 2);
        auto r = TiledImage::open(path);
        QVERIFY2(r, r.status().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TstTiffBomb)
#include "tst_tiffbomb.moc"
