// TiledImage, the reader: round trips of every fixture variant, regions into caller memory,
// SubIFD and page pyramids, the tile cache and concurrent readers. (Writing: tst_tiledwriter;
// bad input and every sample kind: tst_tiledkinds.)
#include <QtTest>

#include <QTemporaryDir>

#include <atomic>
#include <random>
#include <thread>

#include <tiffio.h>

#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_fixtures.h"
#include "tiled_helpers.h"

using namespace fisura;
using namespace tiledtest;
using fixtures::Variant;

Q_DECLARE_METATYPE(fixtures::Variant)

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
        // 8-bit Deflate tiles are inflated by Fisura itself (io/tile_decode.h): every pixel
        // width its predictor undoing has a vector loop for, and the codec's older tag.
        v = Variant();
        v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE, v.predictor = true;
        row("rgb8 tiles deflate predictor", v);
        v.bigEndian = true, v.compression = COMPRESSION_DEFLATE;
        row("rgb8 tiles old-deflate predictor big-endian", v);
        v = Variant();
        v.channels = 2, v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE;
        v.predictor = true;
        row("gray8+alpha tiles deflate predictor", v);
        v = Variant();
        v.channels = 4, v.tiled = true, v.compression = COMPRESSION_ADOBE_DEFLATE;
        row("rgba8 tiles deflate", v);
        v.predictor = true;
        row("rgba8 tiles deflate predictor", v);
        v.tiled = false, v.compression = COMPRESSION_NONE, v.predictor = false;
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
};

QTEST_GUILESS_MAIN(TstTiledImage)
#include "tst_tiledimage.moc"
