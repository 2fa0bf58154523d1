// The real TIFF corpus (files from other projects' test suites): every file opens or is refused
// with a clean error, what opens decodes to the same pixels as libtiff's own tools, and every
// file libvips decodes (tests/data/tiff_corpus_vips.tsv, made by tests/data/vips_reference.py)
// Fisura decodes too: same size, and the same 8-bit pixels where the source is 8 bits or less.
#include <QtTest>

#include <QCryptographicHash>
#include <QHash>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <random>

#include <tiffio.h>

#include "fisura/tiledimage.h"

using namespace fisura;

namespace
{

// FISURA_TIFF_CORPUS overrides where the corpus is (a checkout without ../shared/data).
const QString kCorpus = qEnvironmentVariableIsSet("FISURA_TIFF_CORPUS")
                            ? qEnvironmentVariable("FISURA_TIFF_CORPUS")
                            : QStringLiteral(FISURA_SHARED_DATA "/tiff_corpus");

// What libvips made of one file.
struct VipsRef {
    bool decodes = false;
    int width = 0, height = 0, bands = 0;
    QString format;    // vips band format: uchar, char, ushort, short, uint, int, float, ...
    QByteArray sha256; // first 16 hex digits, uchar results only
};

QHash<QString, VipsRef> loadVipsTable()
{
    QHash<QString, VipsRef> table;
    QFile f(QStringLiteral(FISURA_VIPS_TABLE));
    if (!f.open(QIODevice::ReadOnly))
        return table;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('#')) || line.startsWith(QLatin1String("file\t")))
            continue;
        const QStringList c = line.split(QLatin1Char('\t'));
        if (c.size() < 2)
            continue;
        VipsRef r;
        r.decodes = c[1] == QLatin1String("yes");
        if (r.decodes && c.size() >= 6) {
            r.width = c[2].toInt(), r.height = c[3].toInt(), r.bands = c[4].toInt();
            r.format = c[5];
            if (c.size() >= 7)
                r.sha256 = c[6].toLatin1();
        }
        table.insert(c[0], r);
    }
    return table;
}

const QHash<QString, VipsRef>& vipsTable()
{
    static const QHash<QString, VipsRef> t = loadVipsTable();
    return t;
}

// Fisura's pixels in libvips's band layout, where one maps onto the other: same bands, a gray
// palette that libvips keeps as one band, gray+alpha (two bands in libvips, four here). Empty
// when the layouts differ (CMYK, 5-band gray, RGB that libvips gives an alpha band).
QByteArray inVipsLayout(const Image& im, const std::string& colour, int vipsBands)
{
    std::vector<int> pick;
    if (vipsBands == im.channels)
        for (int k = 0; k < vipsBands; ++k)
            pick.push_back(k);
    else if (vipsBands == 1 && im.channels == 3 && colour == "palette")
        pick = {0};
    else if (vipsBands == 2 && im.channels == 4 && colour == "gray+alpha")
        pick = {0, 3};
    else if (vipsBands == 4 && im.channels == 3 && colour == "rgb")
        pick = {0, 1, 2, -1}; // libvips (openslide) adds an opaque alpha band
    if (pick.empty())
        return {};
    QByteArray out;
    out.reserve(int(size_t(im.width) * im.height * pick.size()));
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x)
            for (int k : pick)
                out.append(k < 0 ? char(255) : char(im.row(y)[size_t(x) * im.channels + k]));
    return out;
}

// One sample of a plain TIFF written by tiffcp, as a double.
double plainSample(const uint8_t* p, int bps, uint16_t format)
{
    switch (bps) {
    case 8:
        return format == SAMPLEFORMAT_INT ? double(int8_t(*p)) : double(*p);
    case 16: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return format == SAMPLEFORMAT_INT ? double(int16_t(v)) : double(v);
    }
    case 32: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        float f;
        std::memcpy(&f, &v, 4);
        return format == SAMPLEFORMAT_IEEEFP
                   ? double(f)
                   : (format == SAMPLEFORMAT_INT ? double(int32_t(v)) : double(v));
    }
    default: {
        double d;
        std::memcpy(&d, p, 8);
        return d;
    }
    }
}

struct Raw {
    int width = 0, height = 0, spp = 0, bps = 0;
    uint16_t photometric = PHOTOMETRIC_MINISBLACK, format = SAMPLEFORMAT_UINT;
    std::vector<uint8_t> bytes; // interleaved samples, host order
};

// Reads an uncompressed, contiguous, striped TIFF (what tiff2rgba / tiffcp -c none write).
bool readPlain(const QString& path, Raw& out)
{
    TIFF* tif = TIFFOpen(path.toLocal8Bit().constData(), "r");
    if (!tif)
        return false;
    uint32_t w = 0, h = 0;
    uint16_t spp = 1, bps = 8;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &out.photometric); // absent: min-is-black
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &out.format);
    out.width = int(w), out.height = int(h), out.spp = spp, out.bps = bps;
    const size_t row = size_t(TIFFScanlineSize64(tif));
    out.bytes.resize(row * h);
    bool ok = !TIFFIsTiled(tif);
    for (uint32_t y = 0; ok && y < h; ++y)
        ok = TIFFReadScanline(tif, out.bytes.data() + y * row, y, 0) >= 0;
    TIFFClose(tif);
    return ok;
}

// True when the tool exited 0 and reported no error (libtiff tools exit 0 after decode errors).
bool run(const QString& exe, const QStringList& args)
{
    QProcess p;
    p.start(exe, args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return false;
    }
    const QStringList lines = QString::fromLocal8Bit(p.readAllStandardError())
                                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& l : lines)
        if (!l.contains(QLatin1String("Warning")))
            return false;
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

struct Tally {
    int opened = 0, refused = 0, matched = 0, noReference = 0;
    int vipsDecodes = 0, vipsPixelsSame = 0;
    ~Tally()
    {
        qInfo("corpus: %d opened (%d matched the reference decoder, %d without reference), "
              "%d refused cleanly; libvips decodes %d, of which %d with identical 8-bit pixels",
              opened, matched, noReference, refused, vipsDecodes, vipsPixelsSame);
    }
};
Tally g_tally;

} // namespace

class TstTiffCorpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFile_data()
    {
        QTest::addColumn<QString>("file");
        QFile manifest(kCorpus + QStringLiteral("/manifest.tsv"));
        if (!manifest.open(QIODevice::ReadOnly))
            QSKIP("the TIFF corpus is not present");
        manifest.readLine(); // header
        while (!manifest.atEnd()) {
            const QString name =
                QString::fromUtf8(manifest.readLine()).section(QLatin1Char('\t'), 0, 0);
            if (!name.isEmpty())
                QTest::newRow(name.toUtf8().constData()) << kCorpus + QLatin1Char('/') + name;
        }
    }
    void everyFile()
    {
        QFETCH(QString, file);
        const QString tiff2rgba = QStandardPaths::findExecutable(QStringLiteral("tiff2rgba"));
        const QString tiffcp = QStandardPaths::findExecutable(QStringLiteral("tiffcp"));
        if (tiff2rgba.isEmpty() || tiffcp.isEmpty())
            QSKIP("libtiff-tools (tiff2rgba, tiffcp) not installed");
        QVERIFY(QFile::exists(file));
        const QString name = QFileInfo(file).fileName();

        QElapsedTimer timer;
        timer.start();
        const VipsRef vips = vipsTable().value(name);
        if (vips.decodes)
            ++g_tally.vipsDecodes;
        auto im = TiledImage::open(file.toStdString());
        if (!im) {
            const Status& s = im.status();
            QVERIFY2(!vips.decodes,
                     qPrintable(QStringLiteral("libvips decodes it, Fisura refused: ") +
                                QString::fromStdString(s.toString())));
            QVERIFY2(s.code() == ErrorCode::Unsupported || s.code() == ErrorCode::Corrupt,
                     s.toString().c_str());
            QVERIFY2(QString::fromStdString(s.detail()).contains(name), s.toString().c_str());
            qInfo("refused: %s", s.toString().c_str());
            ++g_tally.refused;
            return;
        }
        const TiledImageInfo& info = (*im)->info();
        // Every level decodes or fails cleanly; no level may take the process down.
        for (int k = 0; k < (*im)->levelCount(); ++k) {
            auto lv = (*im)->readLevel(k, 32ull << 20);
            if (!lv)
                QVERIFY2(lv.status().code() == ErrorCode::Corrupt ||
                             lv.status().code() == ErrorCode::Unsupported,
                         lv.status().toString().c_str());
        }
        auto full = (*im)->readLevel(0, 32ull << 20);
        if (!full) {
            QVERIFY2(!vips.decodes,
                     qPrintable(QStringLiteral("libvips decodes it, Fisura failed: ") +
                                QString::fromStdString(full.status().toString())));
            QVERIFY2(QString::fromStdString(full.status().detail()).contains(name),
                     full.status().toString().c_str());
            qInfo("refused: %s", full.status().toString().c_str());
            ++g_tally.refused;
            return;
        }
        ++g_tally.opened;
        const Image& got = *full;
        if (vips.decodes) {
            QCOMPARE(got.width, vips.width);
            QCOMPARE(got.height, vips.height);
            const QByteArray mine = inVipsLayout(got, info.colour, vips.bands);
            // Same bands wherever the layouts correspond (CMYK and SGILog differ).
            // libvips keeps every sample of a gray image with unspecified extra samples (3- or
            // 5-band gray); Fisura shows the first.
            const bool extraGray = info.colour == "gray" && info.samplesPerPixel > 1;
            if (info.colour != "cmyk" && info.colour.rfind("log", 0) != 0 && !extraGray)
                QVERIFY2(!mine.isEmpty(), qPrintable(QStringLiteral("%1 channels (%2), libvips %3")
                                                         .arg(got.channels)
                                                         .arg(QString::fromStdString(info.colour))
                                                         .arg(vips.bands)));
            // libvips unpremultiplies associated alpha; Fisura returns pixels as stored.
            if (vips.format == QLatin1String("uchar") && !vips.sha256.isEmpty() &&
                info.bitsPerSample <= 8 && info.sampleFormat == "uint" && !mine.isEmpty() &&
                !info.alphaPremultiplied) {
                const QByteArray h =
                    QCryptographicHash::hash(mine, QCryptographicHash::Sha256).toHex().left(16);
                QCOMPARE(h, vips.sha256);
                ++g_tally.vipsPixelsSame;
            }
        }

        // Region reads agree with the whole decode.
        std::mt19937 rng(11);
        for (int i = 0; i < 5; ++i) {
            const int w = 1 + int(rng() % got.width), h = 1 + int(rng() % got.height);
            const int x = int(rng() % (got.width - w + 1)), y = int(rng() % (got.height - h + 1));
            auto r = (*im)->readRegion(0, x, y, w, h);
            QVERIFY2(r, r.status().toString().c_str());
            for (int yy = 0; yy < h; ++yy)
                QVERIFY(std::memcmp(r->row(yy), got.row(y + yy) + size_t(x) * got.channels,
                                    r->stride()) == 0);
        }

        QTemporaryDir tmp;
        const QString ref = tmp.filePath(QStringLiteral("ref.tif"));
        const int C = got.channels;
        const bool stretched = info.sampleFormat != "uint" || info.bitsPerSample > 8;
        if (!stretched || info.colour == "palette" || info.colour == "cmyk") {
            // libtiff's RGBA interface: an independent decode path (YCbCr, palettes, alpha).
            Raw r;
            if (!run(tiff2rgba, {QStringLiteral("-c"), QStringLiteral("none"), file, ref}) ||
                !readPlain(ref, r) || r.spp != 4) {
                qInfo("no reference decode for %s", qPrintable(name));
                ++g_tally.noReference;
                return;
            }
            QCOMPARE(r.width, got.width);
            QCOMPARE(r.height, got.height);
            const bool unassociated = C == 4 && !info.alphaPremultiplied;
            int worst = 0;
            for (int y = 0; y < got.height; ++y)
                for (int x = 0; x < got.width; ++x) {
                    const uint8_t* g = got.row(y) + size_t(x) * C;
                    const uint8_t* e = &r.bytes[(size_t(y) * r.width + x) * 4];
                    const int a = C == 4 ? g[3] : 255;
                    // Without alpha, libtiff may still call an unspecified extra sample alpha.
                    for (int k = 0; k < (C == 4 ? 4 : 3); ++k) {
                        int v = k == 3 ? a : g[C == 1 ? 0 : k];
                        // libtiff premultiplies unassociated alpha; compare like for like.
                        if (k < 3 && C == 4 && unassociated)
                            v = (v * a + 127) / 255;
                        worst = std::max(worst, std::abs(v - int(e[k])));
                    }
                }
            QVERIFY2(worst <= (C == 4 ? 1 : 0),
                     qPrintable(QStringLiteral("max diff %1").arg(worst)));
        } else {
            // Deep, signed and float: raw samples from tiffcp, mapped through the reported
            // stretch (NaN to 0).
            Raw r;
            if (!run(tiffcp, {QStringLiteral("-c"), QStringLiteral("none"), QStringLiteral("-s"),
                              QStringLiteral("-p"), QStringLiteral("contig"),
                              file + QStringLiteral(",0"), ref}) ||
                !readPlain(ref, r) || r.bps != info.bitsPerSample) {
                qInfo("no reference decode for %s", qPrintable(name));
                ++g_tally.noReference;
                return;
            }
            const double lo = info.stretchLow, hi = info.stretchHigh;
            const size_t sb = size_t(r.bps / 8);
            const int colour = info.colour == "gray" || info.colour == "gray+alpha" ? 1 : 3;
            int worst = 0;
            for (int y = 0; y < got.height; ++y)
                for (int x = 0; x < got.width; ++x) {
                    const uint8_t* e = &r.bytes[(size_t(y) * r.width + x) * r.spp * sb];
                    const uint8_t* g = got.row(y) + size_t(x) * C;
                    for (int k = 0; k < colour; ++k) {
                        const double ev = plainSample(e + k * sb, r.bps, r.format);
                        int v = std::isnan(ev) ? 0
                                               : int(std::lround(std::clamp(
                                                     (ev - lo) * 255.0 / (hi - lo), 0.0, 255.0)));
                        if (r.photometric == PHOTOMETRIC_MINISWHITE)
                            v = 255 - v;
                        worst =
                            std::max(worst, std::abs(v - int(g[colour == 1 && C == 4 ? 0 : k])));
                    }
                }
            QVERIFY2(worst == 0, qPrintable(QStringLiteral("max diff %1").arg(worst)));
        }
        ++g_tally.matched;
        QVERIFY(timer.elapsed() < 60000);
    }
};

QTEST_GUILESS_MAIN(TstTiffCorpus)
#include "tst_tiffcorpus.moc"
