// One way to open a raster: the file's bytes decide (fisura/raster.h). A PNG named .tif and a
// TIFF named .png open in every reader of core (labels, masks, proposals' and inference's sources,
// comparison, measurement), and a file that is no image fails in all of them with one message.
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include "fisura/image.h"
#include "fisura/labels.h"
#include "fisura/measure.h"
#include "fisura/raster.h"
#include "fisura/score.h"
#include "infer/scan_source.h"

#ifdef FISURA_HAVE_IMGCODECS
#include <opencv2/imgcodecs.hpp>
#endif

using namespace fisura;

namespace
{

constexpr int kW = 120, kH = 80;

/// A crack mask: one horizontal line 3 px thick, 255 on 0.
Image crackMask()
{
    Image im = Image::make(kW, kH, 1);
    for (int y = 39; y <= 41; ++y)
        for (int x = 10; x < 110; ++x)
            im.row(y)[x] = 255;
    return im;
}

/// PNG bytes whatever the file is called (cv::imwrite would pick the format by the name). The
/// tests run only where core reads PNG, i.e. where OpenCV's codecs are there to write it.
bool writePng(const QString& path, const Image& im)
{
#ifdef FISURA_HAVE_IMGCODECS
    const cv::Mat m(im.height, im.width, CV_8UC1, const_cast<uint8_t*>(im.row(0)), im.stride());
    std::vector<uchar> png;
    if (!cv::imencode(".png", m, png))
        return false;
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(reinterpret_cast<const char*>(png.data()),
                                                   qint64(png.size())) == qint64(png.size());
#else
    Q_UNUSED(path);
    Q_UNUSED(im);
    return false;
#endif
}

/// The mask written as `format` ("png" or "tiff") into a file called `name`.
QString writeAs(const QTemporaryDir& dir, const QString& name, const QString& format)
{
    const QString path = dir.filePath(name);
    const Image m = crackMask();
    const bool ok = format == QLatin1String("png") ? writePng(path, m)
                                                   : writeTiff(path.toStdString(), m).isOk();
    return ok ? path : QString();
}

QString writeBytes(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return f.fileName();
}

} // namespace

class TstRaster : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!hasImageCodecs())
            QSKIP("this build decodes TIFF only");
    }

    void formatFromBytes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("writtenAs");
        QTest::addColumn<int>("format");
        QTest::newRow("tiff named .tif") << "a.tif"
                                         << "tiff" << int(RasterFormat::Tiff);
        QTest::newRow("tiff named .png") << "a.png"
                                         << "tiff" << int(RasterFormat::Tiff);
        QTest::newRow("png named .tif") << "a.tif"
                                        << "png" << int(RasterFormat::Png);
        QTest::newRow("png named .jpg") << "a.jpg"
                                        << "png" << int(RasterFormat::Png);
        QTest::newRow("bigtiff magic") << "a.png"
                                       << "bigtiff" << int(RasterFormat::Tiff);
        QTest::newRow("motorola tiff magic") << "a.bmp"
                                             << "mm" << int(RasterFormat::Tiff);
        QTest::newRow("jpeg magic") << "a.tif"
                                    << "jpeg" << int(RasterFormat::Jpeg);
        QTest::newRow("bmp magic") << "a.tif"
                                   << "bmp" << int(RasterFormat::Bmp);
        QTest::newRow("II but no 42") << "a.tif"
                                      << "ii" << int(RasterFormat::Unknown);
        QTest::newRow("text") << "a.tif"
                              << "junk" << int(RasterFormat::Unknown);
        QTest::newRow("empty") << "a.tif"
                               << "empty" << int(RasterFormat::Unknown);
    }
    void formatFromBytes()
    {
        QFETCH(QString, name);
        QFETCH(QString, writtenAs);
        QFETCH(int, format);
        QTemporaryDir dir;
        const QMap<QString, QByteArray> magic = {
            {QStringLiteral("bigtiff"), QByteArray("II+\0\x08\0\0\0", 8)},
            {QStringLiteral("mm"), QByteArray("MM\0*\0\0\0\x08", 8)},
            {QStringLiteral("jpeg"), QByteArray("\xff\xd8\xff\xe0", 4)},
            {QStringLiteral("bmp"), QByteArray("BM\x36\0\0\0", 6)},
            {QStringLiteral("ii"), QByteArray("II\x07\0", 4)},
            {QStringLiteral("junk"), QByteArray("not an image at all")},
            {QStringLiteral("empty"), QByteArray()}};
        const QString path = magic.contains(writtenAs)
                                 ? writeBytes(dir, name, magic.value(writtenAs))
                                 : writeAs(dir, name, writtenAs);
        QVERIFY(!path.isEmpty());
        QCOMPARE(int(rasterFormatOf(path.toStdString())), format);
        QCOMPARE(int(rasterFormatOf(dir.filePath(QStringLiteral("missing.tif")).toStdString())),
                 int(RasterFormat::Unknown));
    }

    // Every reader that opens an image it did not write takes both misnamed files.
    void misnamedFilesOpenEverywhere_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("writtenAs");
        QTest::newRow("png named .tif") << "mask.tif"
                                        << "png";
        QTest::newRow("tiff named .png") << "mask.png"
                                         << "tiff";
    }
    void misnamedFilesOpenEverywhere()
    {
        QFETCH(QString, name);
        QFETCH(QString, writtenAs);
        QTemporaryDir dir;
        const std::string path = writeAs(dir, name, writtenAs).toStdString();
        QVERIFY(!path.empty());
        const Image expected = crackMask();

        auto src = RasterSource::open(path);
        QVERIFY2(src, src.status().toString().c_str());
        QCOMPARE(src->width(), kW);
        QCOMPARE(src->height(), kH);
        QCOMPARE(bool(src->tiled()), writtenAs == QLatin1String("tiff"));
        auto all = src->readAll();
        QVERIFY(all);
        QVERIFY(all->pixels == expected.pixels);
        auto part = src->readRegion(5, 38, 20, 4);
        QVERIFY(part);
        QCOMPARE(part->row(1)[10], uint8_t(255)); // x 15, y 39
        QCOMPARE(src->readRegion(110, 0, 20, 4).status().code(), ErrorCode::InvalidArgument);

        auto decoded = readImage(path);
        QVERIFY2(decoded, decoded.status().toString().c_str());
        QVERIFY(decoded->pixels == expected.pixels);

        auto probed = probeRaster(path);
        QVERIFY(probed);
        QCOMPARE(probed->width, kW);

        InferOptions io;
        auto scan = detail::ScanSource::open(path, io);
        QVERIFY2(scan, scan.status().toString().c_str());
        QCOMPARE(scan->width, kW);
        auto tile = scan->region(0, 40, kW, 1);
        QVERIFY(tile);
        QCOMPARE(tile->pixels[50], uint8_t(255));

        auto layer = LabelLayer::open(path);
        QVERIFY2(layer, layer.status().toString().c_str());
        QCOMPARE((*layer)->width(), kW);
        QCOMPARE((*layer)->height(), kH);

        auto score = scoreMap(path, path);
        QVERIFY2(score, score.status().toString().c_str());
        QCOMPARE(score->at(128).f1, 1.0);
        QCOMPARE(score->truthPixels, uint64_t(3 * 100));

        MeasureOptions mo;
        mo.minAreaPx = 0;
        auto measured = measureCracks(path, mo);
        QVERIFY2(measured, measured.status().toString().c_str());
        QCOMPARE(measured->width, kW);
        QCOMPARE(measured->totals.cracks, 1);
    }

    // A misnamed mask beside an image is the image's label (decoded, or read by its tiles).
    void misnamedMaskIsTheLabel_data() { misnamedFilesOpenEverywhere_data(); }
    void misnamedMaskIsTheLabel()
    {
        QFETCH(QString, writtenAs);
        QTemporaryDir dir;
        Image photo = Image::make(kW, kH, 3, 90);
        QVERIFY(writeTiff(dir.filePath(QStringLiteral("photo.tif")).toStdString(), photo));
        // labelPathsFor: <dir>/<stem>.mask.tif, whatever is inside.
        QVERIFY(!writeAs(dir, QStringLiteral("photo.mask.tif"), writtenAs).isEmpty());
        auto layer = LabelLayer::open(dir.filePath(QStringLiteral("photo.tif")).toStdString());
        QVERIFY2(layer, layer.status().toString().c_str());
        auto px = (*layer)->readRegion({0, 0, kW, kH});
        QVERIFY(px);
        QVERIFY(px->pixels == crackMask().pixels);
    }

    // A file that is no image fails alike in every reader, whatever its name.
    void junkFailsWithOneMessage_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("named .tif") << "junk.tif";
        QTest::newRow("named .png") << "junk.png";
    }
    void junkFailsWithOneMessage()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const std::string path = writeBytes(dir, name, QByteArray(300, 'z')).toStdString();
        QVERIFY(!path.empty());
        const QString good = writeAs(dir, QStringLiteral("good.tif"), QStringLiteral("tiff"));
        InferOptions io;
        const std::vector<Status> failures = {
            RasterSource::open(path).status(),
            readImage(path).status(),
            probeRaster(path).status(),
            detail::ScanSource::open(path, io).status(),
            LabelLayer::open(path).status(),
            scoreMap(path, good.toStdString()).status(),
            scoreMap(good.toStdString(), path).status(),
            measureCracks(path).status(),
        };
        for (const Status& s : failures) {
            QCOMPARE(s.code(), ErrorCode::Corrupt);
            QVERIFY2(QString::fromStdString(s.detail())
                         .contains(QStringLiteral("not an image Fisura reads")),
                     s.toString().c_str());
            QVERIFY2(s.detail().find(name.toStdString()) != std::string::npos,
                     s.toString().c_str());
        }
        const std::string missing = dir.filePath(QStringLiteral("missing.tif")).toStdString();
        QCOMPARE(RasterSource::open(missing).status().code(), ErrorCode::NotFound);
        QCOMPARE(RasterSource::open(dir.path().toStdString()).status().code(), ErrorCode::IoError);
    }
};

QTEST_GUILESS_MAIN(TstRaster)
#include "tst_raster.moc"
