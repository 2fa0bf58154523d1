// Scoring a map against a ground-truth mask: exact counts on hand-built cases, agreement with a
// brute-force evaluation of the definitions (histograms and layers, pixel by pixel), every input
// layout, band seams, and the error paths (sizes, missing files, cancellation).
#include <QtTest>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <array>
#include <random>

#include <tiffio.h>

#include "fisura/image.h"
#include "fisura/score.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_kinds.h"

#ifdef FISURA_HAVE_IMGCODECS
#include <opencv2/imgcodecs.hpp>
#endif

using namespace fisura;

namespace
{

// The hand-built case (20 x 12): a vertical crack at x = 5, rows 2..9, and map pixels placed on
// it, at exactly the tolerance from it, and just beyond.
constexpr int kW = 20, kH = 12;

Image handTruth()
{
    Image t = Image::make(kW, kH, 1);
    for (int y = 2; y <= 9; ++y)
        t.row(y)[5] = 255;
    return t;
}

Image handMap()
{
    Image m = Image::make(kW, kH, 1);
    m.row(2)[5] = 200; // on the crack
    m.row(3)[5] = 200;
    m.row(6)[7] = 150;  // 2 px right of (5, 6): within tolerance 2
    m.row(6)[8] = 150;  // 3 px: beyond
    m.row(11)[5] = 120; // 2 px below the crack's end (5, 9): within
    m.row(11)[6] = 120; // sqrt(5) px from (5, 9): beyond
    m.row(2)[15] = 100; // far away
    return m;
}

// Sparse blobs and lines with varied values: near misses at many distances.
Image randomMap(int w, int h, unsigned seed)
{
    std::mt19937 rng(seed);
    Image m = Image::make(w, h, 1);
    for (auto& p : m.pixels)
        p = rng() % 7 == 0 ? uint8_t(rng() % 256) : 0;
    return m;
}

Image randomTruth(int w, int h, unsigned seed)
{
    std::mt19937 rng(seed);
    Image t = Image::make(w, h, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            t.row(y)[x] = (x + 2 * y) % 11 == 0 || rng() % 29 == 0 ? 255 : 0;
    return t;
}

struct Reference {
    std::array<uint64_t, 256> map{}, near{}, nmax{};
    uint64_t truth = 0;
    Image tp, fp, fn;
};

// The definitions, evaluated pixel by pixel with no morphology library.
Reference reference(const Image& map, const Image& truth, int tol)
{
    const int w = map.width, h = map.height;
    Reference r;
    r.tp = Image::make(w, h, 1);
    r.fp = Image::make(w, h, 1);
    r.fn = Image::make(w, h, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            bool near = false;
            int best = 0;
            for (int dy = -tol; dy <= tol; ++dy)
                for (int dx = -tol; dx <= tol; ++dx) {
                    const int xx = x + dx, yy = y + dy;
                    if (dx * dx + dy * dy > tol * tol || xx < 0 || yy < 0 || xx >= w || yy >= h)
                        continue;
                    near = near || truth.row(yy)[xx] > 0;
                    best = std::max(best, int(map.row(yy)[xx]));
                }
            const uint8_t v = map.row(y)[x];
            const bool isTruth = truth.row(y)[x] > 0;
            ++r.map[v];
            if (near)
                ++r.near[v];
            if (isTruth) {
                ++r.nmax[size_t(best)];
                ++r.truth;
            }
            r.tp.row(y)[x] = near ? v : 0;
            r.fp.row(y)[x] = near ? 0 : v;
            r.fn.row(y)[x] = isTruth ? uint8_t(255 - best) : 0;
        }
    return r;
}

// A striped TIFF with `rowsPerStrip` rows per strip, written with libtiff directly.
bool writeStriped(const QString& path, const Image& im, int rowsPerStrip)
{
    TIFF* tif = TIFFOpen(path.toLocal8Bit().constData(), "w");
    if (!tif)
        return false;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(im.width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(im.height));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(im.channels));
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                 im.channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, uint32_t(rowsPerStrip));
    bool ok = true;
    std::vector<uint8_t> row(im.stride());
    for (int y = 0; y < im.height && ok; ++y) {
        std::copy_n(im.row(y), im.stride(), row.data());
        ok = TIFFWriteScanline(tif, row.data(), uint32_t(y), 0) >= 0;
    }
    TIFFClose(tif);
    return ok;
}

bool writePyramid(const QString& path, const Image& im)
{
    TiledWriteOptions o;
    o.tileSize = 16;
    o.maxOverviewSide = 16;
    auto w = TiledTiffWriter::create(path.toStdString(), im.width, im.height, im.channels, o);
    return w && (*w)->appendRows(im).isOk() && (*w)->finish().isOk();
}

// PNG rows run only where core reads PNG, i.e. where OpenCV's codecs are there to write it.
bool writePng(const QString& path, const Image& im)
{
#ifdef FISURA_HAVE_IMGCODECS
    const cv::Mat m(im.height, im.width, CV_8UC1, const_cast<uint8_t*>(im.row(0)), im.stride());
    return cv::imwrite(path.toStdString(), m);
#else
    Q_UNUSED(path);
    Q_UNUSED(im);
    return false;
#endif
}

Image toRgb(const Image& g)
{
    // The first channel carries the values; the others must not matter.
    Image c = Image::make(g.width, g.height, 3);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            uint8_t* p = c.row(y) + 3 * x;
            p[0] = g.row(y)[x];
            p[1] = uint8_t(255 - g.row(y)[x]);
            p[2] = uint8_t(x * 13);
        }
    return c;
}

Image readLayer(const std::string& path)
{
    auto img = TiledImage::open(path);
    if (!img)
        return {};
    auto lvl = (*img)->readLevel(0);
    return lvl ? *lvl : Image();
}

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden);
}

} // namespace

class TstScore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        map_ = dir_.filePath(QStringLiteral("map.tif"));
        truth_ = dir_.filePath(QStringLiteral("truth.tif"));
        QVERIFY(writeTiff(map_.toStdString(), handMap()).isOk());
        QVERIFY(writeTiff(truth_.toStdString(), handTruth()).isOk());
    }

    void handCounts_data()
    {
        QTest::addColumn<int>("tolerance");
        QTest::addColumn<int>("threshold");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("fp");
        QTest::addColumn<int>("fn");
        // t = 128: on-crack pair and (7,6) are true; (8,6) is 3 px away; (5,7..9) have no
        // prediction >= 128 within 2 px.
        QTest::newRow("tol 2, t 128") << 2 << 128 << 3 << 1 << 3;
        // t = 100: (5,11) finds (5,9) at exactly 2 px; (6,11) is sqrt(5) px away.
        QTest::newRow("tol 2, t 100") << 2 << 100 << 4 << 3 << 2;
        QTest::newRow("tol 2, t 151") << 2 << 151 << 2 << 0 << 4;
        QTest::newRow("tol 2, t 201: nothing predicted") << 2 << 201 << 0 << 0 << 8;
        QTest::newRow("tol 2, t 1") << 2 << 1 << 4 << 3 << 2;
        QTest::newRow("tol 0, t 128") << 0 << 128 << 2 << 2 << 6;
        QTest::newRow("tol 0, t 100") << 0 << 100 << 2 << 5 << 6;
        // Tolerance 3 reaches (8,6) and (6,11) (sqrt 5 <= 3); (5,7) and (5,8) see (7,6) at
        // sqrt(5) and sqrt(8) px.
        QTest::newRow("tol 3, t 100") << 3 << 100 << 6 << 1 << 0;
    }
    void handCounts()
    {
        QFETCH(int, tolerance);
        QFETCH(int, threshold);
        QFETCH(int, tp);
        QFETCH(int, fp);
        QFETCH(int, fn);
        ScoreOptions o;
        o.tolerance = tolerance;
        auto r = scoreMap(map_.toStdString(), truth_.toStdString(), o);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->width, kW);
        QCOMPARE(r->height, kH);
        QCOMPARE(r->truthPixels, uint64_t(8));
        const ScoreCounts c = r->at(threshold);
        QCOMPARE(c.truePositives, uint64_t(tp));
        QCOMPARE(c.falsePositives, uint64_t(fp));
        QCOMPARE(c.falseNegatives, uint64_t(fn));
        QCOMPARE(c.predictedPixels, uint64_t(tp + fp));
        QCOMPARE(c.truthPixels, uint64_t(8));
        const double precision = tp + fp ? double(tp) / (tp + fp) : 1.0;
        const double recall = (8.0 - fn) / 8.0;
        QCOMPARE(c.precision, precision);
        QCOMPARE(c.recall, recall);
        QCOMPARE(c.f1, precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0);
        QCOMPARE(c.iou, tp + fp + fn ? double(tp) / (tp + fp + fn) : 1.0);
    }

    void bestThresholdAndJson()
    {
        auto r = scoreMap(map_.toStdString(), truth_.toStdString());
        QVERIFY(r.isOk());
        const int best = r->bestThreshold();
        for (int t = 1; t < 256; ++t)
            QVERIFY(r->at(t).f1 <= r->at(best).f1);
        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(toJson(*r, 128))).object();
        QCOMPARE(j.value(QStringLiteral("threshold")).toInt(), 128);
        QCOMPARE(j.value(QStringLiteral("tolerance")).toInt(), 2);
        QCOMPARE(j.value(QStringLiteral("true_positives")).toInt(), 3);
        QCOMPARE(j.value(QStringLiteral("false_positives")).toInt(), 1);
        QCOMPARE(j.value(QStringLiteral("false_negatives")).toInt(), 3);
        QCOMPARE(j.value(QStringLiteral("precision")).toDouble(), 0.75);
        QCOMPARE(j.value(QStringLiteral("recall")).toDouble(), 5.0 / 8.0);
        QCOMPARE(j.value(QStringLiteral("iou")).toDouble(), 3.0 / 7.0);
        QCOMPARE(j.value(QStringLiteral("best_threshold")).toInt(), best);
        QCOMPARE(j.value(QStringLiteral("map")).toString(), map_);
        QVERIFY(!j.contains(QStringLiteral("layers")));
    }

    void emptyInputs()
    {
        const QString z = dir_.filePath(QStringLiteral("zero.tif"));
        QVERIFY(writeTiff(z.toStdString(), Image::make(9, 7, 1)).isOk());
        auto r = scoreMap(z.toStdString(), z.toStdString());
        QVERIFY(r.isOk());
        const ScoreCounts c = r->at(128);
        QCOMPARE(c.precision, 1.0);
        QCOMPARE(c.recall, 1.0);
        QCOMPARE(c.iou, 1.0);
        QCOMPARE(c.f1, 1.0);
    }

    // Histograms and layers agree with the definitions, whatever the band height.
    void matchesDefinition_data()
    {
        QTest::addColumn<int>("tolerance");
        QTest::addColumn<int>("bandRows");
        for (int tol : {0, 1, 2, 3, 5})
            for (int band : {1, 7, 1000})
                QTest::addRow("tol %d, band %d", tol, band) << tol << band;
    }
    void matchesDefinition()
    {
        QFETCH(int, tolerance);
        QFETCH(int, bandRows);
        QTemporaryDir d;
        const Image map = randomMap(37, 53, 7), truth = randomTruth(37, 53, 11);
        const QString mp = d.filePath(QStringLiteral("m.tif")),
                      tp = d.filePath(QStringLiteral("t.tif"));
        QVERIFY(writeTiff(mp.toStdString(), map).isOk());
        QVERIFY(writeTiff(tp.toStdString(), truth).isOk());
        ScoreOptions o;
        o.tolerance = tolerance;
        o.bandRows = bandRows;
        o.layersPrefix = d.filePath(QStringLiteral("layers/cmp")).toStdString();
        auto r = scoreMap(mp.toStdString(), tp.toStdString(), o);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        const Reference ref = reference(map, truth, tolerance);
        QVERIFY(r->mapHistogram == ref.map);
        QVERIFY(r->nearTruthHistogram == ref.near);
        QVERIFY(r->truthNeighbourMaxHistogram == ref.nmax);
        QCOMPARE(r->truthPixels, ref.truth);
        QCOMPARE(r->tpPath, o.layersPrefix + ".tp.tif");
        const Image tpL = readLayer(r->tpPath), fpL = readLayer(r->fpPath),
                    fnL = readLayer(r->fnPath);
        QCOMPARE(tpL.width, map.width);
        QCOMPARE(tpL.channels, 1);
        QVERIFY(tpL.pixels == ref.tp.pixels);
        QVERIFY(fpL.pixels == ref.fp.pixels);
        QVERIFY(fnL.pixels == ref.fn.pixels);
        // The layers turn the colouring into a threshold: counting their pixels at t gives the
        // curve's counts at t.
        for (int t : {1, 50, 128, 255}) {
            const auto count = [](const Image& im, int from) {
                return uint64_t(std::count_if(im.pixels.begin(), im.pixels.end(),
                                              [from](uint8_t v) { return v >= from; }));
            };
            const ScoreCounts c = r->at(t);
            QCOMPARE(count(tpL, t), c.truePositives);
            QCOMPARE(count(fpL, t), c.falsePositives);
            QCOMPARE(count(fnL, 256 - t), c.falseNegatives);
        }
    }

    // Striped, tiled and pyramidal TIFFs, PNG truth and an RGB map: the same numbers.
    void inputLayouts_data()
    {
        QTest::addColumn<QString>("mapKind");
        QTest::addColumn<QString>("truthKind");
        QTest::newRow("striped 3 rows / tiled") << "striped"
                                                << "tiled";
        QTest::newRow("tiled / striped 3 rows") << "tiled"
                                                << "striped";
        QTest::newRow("pyramid / png") << "pyramid"
                                       << "png";
        QTest::newRow("rgb striped / pyramid") << "rgb"
                                               << "pyramid";
        // Masks saved 1-bit (plain and CCITT G4) or as float 0..1 are ground truth as well.
        QTest::newRow("tiled / 1-bit") << "tiled"
                                       << "1-bit";
        QTest::newRow("tiled / g4") << "tiled"
                                    << "g4";
        QTest::newRow("striped / float") << "striped"
                                         << "float";
    }
    void inputLayouts()
    {
        QFETCH(QString, mapKind);
        QFETCH(QString, truthKind);
        if ((mapKind == QLatin1String("png") || truthKind == QLatin1String("png")) &&
            !hasImageCodecs())
            QSKIP("this build reads TIFF only");
        QTemporaryDir d;
        const Image map = randomMap(70, 90, 3), truth = randomTruth(70, 90, 5);
        const auto write = [&d](const QString& kind, const QString& name, const Image& im) {
            const QString p =
                d.filePath(name + (kind == QLatin1String("png") ? QStringLiteral(".png")
                                                                : QStringLiteral(".tif")));
            bool ok = false;
            if (kind == QLatin1String("striped"))
                ok = writeStriped(p, im, 3);
            else if (kind == QLatin1String("rgb"))
                ok = writeStriped(p, toRgb(im), 5);
            else if (kind == QLatin1String("tiled")) {
                TiffWriteOptions t;
                t.tileSize = 16;
                ok = writeTiff(p.toStdString(), im, t).isOk();
            } else if (kind == QLatin1String("pyramid"))
                ok = writePyramid(p, im);
            else if (kind == QLatin1String("1-bit"))
                ok = kinds::write(p, im, kinds::Kind::Bit1, 16);
            else if (kind == QLatin1String("g4"))
                ok = kinds::write(p, im, kinds::Kind::Fax4, 0, 7);
            else if (kind == QLatin1String("float"))
                ok = kinds::write(p, im, kinds::Kind::FloatMask, 0, 9);
            else
                ok = writePng(p, im);
            return ok ? p : QString();
        };
        const QString mp = write(mapKind, QStringLiteral("map"), map);
        const QString tp = write(truthKind, QStringLiteral("truth"), truth);
        QVERIFY(!mp.isEmpty() && !tp.isEmpty());
        ScoreOptions o;
        o.bandRows = 8;
        auto r = scoreMap(mp.toStdString(), tp.toStdString(), o);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        const Reference ref = reference(map, truth, 2);
        QVERIFY(r->mapHistogram == ref.map);
        QVERIFY(r->nearTruthHistogram == ref.near);
        QVERIFY(r->truthNeighbourMaxHistogram == ref.nmax);
    }

    // A map much taller than a band: seams between bands change nothing, counts or layers.
    void bandSeams()
    {
        QTemporaryDir d;
        const Image map = randomMap(41, 301, 21), truth = randomTruth(41, 301, 22);
        const QString mp = d.filePath(QStringLiteral("m.tif")),
                      tp = d.filePath(QStringLiteral("t.tif"));
        TiffWriteOptions tiled;
        tiled.tileSize = 32;
        QVERIFY(writeTiff(mp.toStdString(), map, tiled).isOk());
        QVERIFY(writeStriped(tp, truth, 4));
        ScoreOptions small, big;
        small.bandRows = 7;
        small.tolerance = big.tolerance = 4;
        big.bandRows = 4096;
        small.layersPrefix = d.filePath(QStringLiteral("small")).toStdString();
        big.layersPrefix = d.filePath(QStringLiteral("big")).toStdString();
        int reports = 0;
        CallbackProgressSink sink([&reports](const Progress&) { ++reports; });
        auto a = scoreMap(mp.toStdString(), tp.toStdString(), small, {}, &sink);
        auto b = scoreMap(mp.toStdString(), tp.toStdString(), big);
        QVERIFY(a.isOk() && b.isOk());
        QVERIFY(reports >= 2);
        QVERIFY(a->mapHistogram == b->mapHistogram);
        QVERIFY(a->nearTruthHistogram == b->nearTruthHistogram);
        QVERIFY(a->truthNeighbourMaxHistogram == b->truthNeighbourMaxHistogram);
        QVERIFY(readLayer(a->tpPath).pixels == readLayer(b->tpPath).pixels);
        QVERIFY(readLayer(a->fpPath).pixels == readLayer(b->fpPath).pixels);
        QVERIFY(readLayer(a->fnPath).pixels == readLayer(b->fnPath).pixels);
    }

    void differentSizesRefused()
    {
        const QString other = dir_.filePath(QStringLiteral("wide.tif"));
        QVERIFY(writeTiff(other.toStdString(), Image::make(kW + 1, kH, 1)).isOk());
        ScoreOptions o;
        o.layersPrefix = dir_.filePath(QStringLiteral("sizes/cmp")).toStdString();
        auto r = scoreMap(map_.toStdString(), other.toStdString(), o);
        QVERIFY(!r.isOk());
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        const QString detail = QString::fromStdString(r.status().detail());
        QVERIFY2(detail.contains(QStringLiteral("20 x 12 px")), qPrintable(detail));
        QVERIFY2(detail.contains(QStringLiteral("21 x 12 px")), qPrintable(detail));
        QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("sizes"))));
    }

    void missingFilesAndBadOptions()
    {
        const std::string missing = dir_.filePath(QStringLiteral("nope.tif")).toStdString();
        QCOMPARE(scoreMap(missing, truth_.toStdString()).status().code(), ErrorCode::NotFound);
        QCOMPARE(scoreMap(map_.toStdString(), missing).status().code(), ErrorCode::NotFound);
        ScoreOptions o;
        o.tolerance = 33;
        QCOMPARE(scoreMap(map_.toStdString(), truth_.toStdString(), o).status().code(),
                 ErrorCode::InvalidArgument);
        o.tolerance = 2;
        o.bandRows = 0;
        QCOMPARE(scoreMap(map_.toStdString(), truth_.toStdString(), o).status().code(),
                 ErrorCode::InvalidArgument);
        // Not an image at all.
        const QString junk = dir_.filePath(QStringLiteral("junk.tif"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("II*\0not really a tiff", 21);
        f.close();
        const Status bad = scoreMap(junk.toStdString(), truth_.toStdString()).status();
        QVERIFY2(bad.code() == ErrorCode::Corrupt || bad.code() == ErrorCode::Unsupported,
                 bad.toString().c_str());
    }

    void cancelLeavesNoLayers()
    {
        QTemporaryDir d;
        const Image map = randomMap(30, 200, 1), truth = randomTruth(30, 200, 2);
        const QString mp = d.filePath(QStringLiteral("m.tif")),
                      tp = d.filePath(QStringLiteral("t.tif"));
        QVERIFY(writeTiff(mp.toStdString(), map).isOk());
        QVERIFY(writeTiff(tp.toStdString(), truth).isOk());
        const QString out = d.filePath(QStringLiteral("out"));
        ScoreOptions o;
        o.bandRows = 5;
        o.layersPrefix = (out + QStringLiteral("/cmp")).toStdString();
        // Cancelled after the first band.
        CancelToken cancel;
        CallbackProgressSink sink([&cancel](const Progress&) { cancel.cancel(); });
        auto r = scoreMap(mp.toStdString(), tp.toStdString(), o, cancel, &sink);
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        QCOMPARE(filesIn(out), QStringList());
        // Cancelled before it starts.
        CancelToken early;
        early.cancel();
        r = scoreMap(mp.toStdString(), tp.toStdString(), o, early);
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        QCOMPARE(filesIn(out), QStringList());
        // And the same job, not cancelled, writes all three.
        r = scoreMap(mp.toStdString(), tp.toStdString(), o);
        QVERIFY(r.isOk());
        QCOMPARE(filesIn(out).size(), 3);
    }

private:
    QTemporaryDir dir_;
    QString map_, truth_;
};

QTEST_GUILESS_MAIN(TstScore)
#include "tst_score.moc"
