// TiledTiffWriter and the pyramid job: levels are halvings, rows may come as rows, tiles, raw
// pointers or side-by-side parts, overview tiles go into the output as they are made, tags are
// copied, cancelling or abandoning leaves nothing, bad arguments are refused.
#include <QtTest>

#include <QTemporaryDir>

#include <tiffio.h>

#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_fixtures.h"
#include "tiled_helpers.h"

using namespace fisura;
using namespace tiledtest;
using fixtures::Variant;

class TstTiledWriter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
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

    void adaptiveLevelFollowsTheCompression_data()
    {
        QTest::addColumn<bool>("adaptive");
        QTest::addColumn<int>("threads");
        QTest::newRow("adaptive") << true << 1;
        QTest::newRow("fixed") << false << 1;
        // Many threads: more band buffers than the band thread's and the file thread's queues
        // hold, so the appending thread waits for room in the band queue, not for a buffer.
        QTest::newRow("adaptive, 64 threads") << true << 64;
    }
    void adaptiveLevelFollowsTheCompression()
    {
        // Rows come far faster than one thread compresses noise at ZSTD 12: the appending thread
        // waits for nearly every band, so an adaptive writer steps the level down band by band.
        // The pixels are the same either way; a fixed writer keeps its level.
        QFETCH(bool, adaptive);
        QFETCH(int, threads);
        QTemporaryDir tmp;
        const std::string path = tmpFile(tmp, "a.tif").toStdString();
        const Image src = scene(1024, 4096, 1, 9);
        TiledWriteOptions o;
        o.tileSize = 128;
        o.compressionLevel = 12;
        o.threads = threads;
        o.adaptiveLevel = adaptive;
        auto w = TiledTiffWriter::create(path, src.width, src.height, src.channels, o);
        QVERIFY(w);
        QVERIFY((*w)->appendRows(src));
        QVERIFY((*w)->finish());
        const TiledWriteStats st = (*w)->stats();
        qInfo("levels %d..%d, %d of %d bands below 12, %llu bytes", st.lowestLevel, st.highestLevel,
              st.bandsBelowLevel, st.bands, (unsigned long long)st.bytesOut);
        QCOMPARE(st.bands, 32);
        QCOMPARE(st.highestLevel, 12);
        // The pool's CPU time: some, and no more than its tasks' wall time (a little slack for
        // the clocks' granularity).
        QVERIFY(st.compressCpuSeconds > 0.0);
        QVERIFY(st.compressCpuSeconds <= st.compressSeconds + 0.01);
        if (adaptive) {
            QVERIFY(st.bandsBelowLevel >= 16);
            // With many bands in flight each rate is measured later, so a step comes later: how
            // far down it gets in 32 bands depends on the machine's load.
            QVERIFY(st.lowestLevel < (threads == 1 ? 6 : 12));
            QVERIFY(st.lowestLevel >= kAdaptiveFloorLevel);
            // Every level-0 band counted once, lowered or not.
            QCOMPARE(st.lowerBytesIn + st.askedBytesIn, uint64_t(1024) * 4096);
            QCOMPARE(st.lowerBytesIn, uint64_t(st.bandsBelowLevel) * 1024 * 128);
            QVERIFY(st.lowerBytesOut > 0 && st.askedBytesOut > 0);
            // A sample tile of each lowered band, also at the level asked for.
            QVERIFY(st.sampleBytesOut > 0 && st.sampleBytesAsked > 0);
            QVERIFY(st.sampleBytesOut < st.lowerBytesOut);
            QVERIFY(adaptiveSizeIncrease(st) >= 0.0);
        } else {
            QCOMPARE(st.lowestLevel, 12);
            QCOMPARE(st.bandsBelowLevel, 0);
            QCOMPARE(st.lowerBytesIn, uint64_t(0));
            QCOMPARE(st.sampleBytesAsked, uint64_t(0));
            QCOMPARE(adaptiveSizeIncrease(st), 0.0);
        }
        auto im = TiledImage::open(path);
        QVERIFY2(im, im.status().toString().c_str());
        auto got = (*im)->readLevel(0);
        QVERIFY2(got, got.status().toString().c_str());
        QVERIFY(got->pixels == src.pixels);
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
        const TiledWriteOptions o = smallTiles();
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
        const TiledWriteOptions o = smallTiles(2);
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

    // The file's layout depends on the rows only: not on how they come, nor on how the pool's
    // threads happen to finish (overview bands wait a fixed count of bands for their halving),
    // so a fixed compression level writes the same bytes every time.
    void sameRowsWriteTheSameBytes()
    {
        QTemporaryDir tmp;
        const Image src = scene(1500, 1100, 1, 5);
        const auto write = [&](const char* name, int threads, int chunk) -> QByteArray {
            const QString path = tmpFile(tmp, name);
            auto w = TiledTiffWriter::create(path.toStdString(), src.width, src.height, 1,
                                             smallTiles(threads));
            if (!w)
                return {};
            for (int y = 0; y < src.height; y += chunk)
                if (!(*w)->appendRows(crop(src, 0, y, src.width, std::min(chunk, src.height - y))))
                    return {};
            if (!(*w)->finish())
                return {};
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray one = write("one.tif", 1, src.height);
        QVERIFY(one.size() > 10000);
        QVERIFY(write("eight.tif", 8, 100) == one);
        QVERIFY(write("three.tif", 3, 7) == one);
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

    // The input's blocks go to the writer a block row at a time: block rows that straddle the
    // output's bands, clipped edge blocks and one-row strips give the input's pixels back.
    void pyramidOfAnyBlockLayout_data()
    {
        QTest::addColumn<bool>("tiled");
        QTest::addColumn<int>("rowsPerStrip");
        QTest::addColumn<int>("channels");
        QTest::newRow("tiles 48x32, clipped edges") << true << 0 << 3;
        QTest::newRow("strips of 100 rows across bands") << false << 100 << 3;
        QTest::newRow("strips of one row") << false << 1 << 1;
        QTest::newRow("one strip") << false << 200 << 4;
    }
    void pyramidOfAnyBlockLayout()
    {
        QFETCH(bool, tiled);
        QFETCH(int, rowsPerStrip);
        QFETCH(int, channels);
        QTemporaryDir tmp;
        Variant v;
        v.tiled = tiled;
        v.rowsPerStrip = std::max(1, rowsPerStrip);
        v.channels = channels;
        v.width = 300, v.height = 200;
        const std::string src = tmpFile(tmp, "in.tif").toStdString();
        const std::string out = tmpFile(tmp, "o.tif").toStdString();
        QVERIFY(fixtures::write(src, v));
        TiledWriteOptions o;
        o.tileSize = 64;
        o.maxOverviewSide = 64;
        o.threads = 2;
        auto r = makePyramid(src, out, o, CancelToken(), nullptr);
        QVERIFY2(r, r.status().toString().c_str());
        auto a = TiledImage::open(src), b = TiledImage::open(out);
        QVERIFY(a && b);
        QCOMPARE((*b)->levelCount(), r->levels);
        QVERIFY(r->levels >= 3);
        const Image in = *(*a)->readLevel(0);
        QVERIFY((*b)->readLevel(0)->pixels == in.pixels);
        QVERIFY((*b)->readLevel(1)->pixels == halve(in).pixels);
        QVERIFY((*b)->readLevel(2)->pixels == halve(halve(in)).pixels);
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
};

QTEST_GUILESS_MAIN(TstTiledWriter)
#include "tst_tiledwriter.moc"
