// The real TIFF corpus (files from other projects' test suites): every file opens or is refused
// with a clean error, and what opens decodes to the same pixels as libtiff's own tools.
#include <QtTest>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <random>

#include <tiffio.h>

#include "fisura/tiledimage.h"

using namespace fisura;

namespace
{

const QString kCorpus = QStringLiteral(FISURA_SHARED_DATA "/tiff_corpus");

struct Raw {
    int width = 0, height = 0, spp = 0, bps = 0;
    uint16_t photometric = 0;
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
    TIFFGetFieldDefaulted(tif, TIFFTAG_PHOTOMETRIC, &out.photometric);
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
    ~Tally()
    {
        qInfo("corpus: %d opened (%d matched the reference decoder, %d without reference), "
              "%d refused cleanly",
              opened, matched, noReference, refused);
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
        auto im = TiledImage::open(file.toStdString());
        if (!im) {
            const Status& s = im.status();
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
            QVERIFY2(QString::fromStdString(full.status().detail()).contains(name),
                     full.status().toString().c_str());
            qInfo("refused: %s", full.status().toString().c_str());
            ++g_tally.refused;
            return;
        }
        ++g_tally.opened;
        const Image& got = *full;

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
        if (info.bitsPerSample == 8) {
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
            // 16-bit: raw samples from tiffcp, mapped through the reported stretch.
            Raw r;
            if (!run(tiffcp, {QStringLiteral("-c"), QStringLiteral("none"), QStringLiteral("-s"),
                              QStringLiteral("-p"), QStringLiteral("contig"),
                              file + QStringLiteral(",0"), ref}) ||
                !readPlain(ref, r) || r.bps != 16) {
                qInfo("no reference decode for %s", qPrintable(name));
                ++g_tally.noReference;
                return;
            }
            const auto* s = reinterpret_cast<const uint16_t*>(r.bytes.data());
            const double lo = info.stretchLow, hi = info.stretchHigh;
            const int colour = info.colour == "gray" || info.colour == "gray+alpha" ? 1 : 3;
            int worst = 0;
            for (int y = 0; y < got.height; ++y)
                for (int x = 0; x < got.width; ++x) {
                    const uint16_t* e = s + (size_t(y) * r.width + x) * r.spp;
                    const uint8_t* g = got.row(y) + size_t(x) * C;
                    for (int k = 0; k < colour; ++k) {
                        int v = int(
                            std::lround(std::clamp((e[k] - lo) * 255.0 / (hi - lo), 0.0, 255.0)));
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
