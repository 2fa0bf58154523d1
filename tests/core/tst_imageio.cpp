#include <QtTest>

#include <QTemporaryDir>

#include "fisura/image.h"
#include "tiff_kinds.h"

using namespace fisura;

namespace
{

Image pattern(int w, int h, int c)
{
    Image im = Image::make(w, h, c);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k)
                im.row(y)[x * c + k] = k == 3
                                           ? 255 // opaque: alpha is premultiplied on read
                                           : static_cast<uint8_t>((x * 7 + y * 13 + k * 50) & 0xFF);
    return im;
}

void put16(QByteArray& b, uint16_t v)
{
    b.append(char(v & 0xFF)).append(char(v >> 8));
}
void put32(QByteArray& b, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        b.append(char((v >> (8 * i)) & 0xFF));
}

// A classic little-endian TIFF whose IFD claims `w` x `h` 8-bit gray pixels in one strip of 16
// bytes: a header that lies about its size.
QByteArray liarTiff(uint32_t w, uint32_t h)
{
    QByteArray b("II");
    put16(b, 42);
    put32(b, 8);
    const uint16_t n = 8;
    put16(b, n);
    auto entry = [&](uint16_t tag, uint16_t type, uint32_t count, uint32_t value) {
        put16(b, tag);
        put16(b, type);
        put32(b, count);
        put32(b, value);
    };
    const uint32_t dataOffset = 8 + 2 + n * 12 + 4;
    entry(256, 4, 1, w);          // ImageWidth
    entry(257, 4, 1, h);          // ImageLength
    entry(258, 3, 1, 8);          // BitsPerSample
    entry(259, 3, 1, 1);          // Compression none
    entry(262, 3, 1, 1);          // MinIsBlack
    entry(273, 4, 1, dataOffset); // StripOffsets
    entry(278, 4, 1, h);          // RowsPerStrip
    entry(279, 4, 1, 16);         // StripByteCounts
    put32(b, 0);
    b.append(QByteArray(16, '\x7f'));
    return b;
}

} // namespace

class TstImageIo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void imageExtensions()
    {
        for (const char* yes : {"a.tif", "b/c.TIFF", "d.png", "e.Jpg", "f.jpeg", "g.bmp"})
            QVERIFY2(hasImageExtension(yes), yes);
        for (const char* no : {"a.txt", "tif", "b.tif.json", "c.gif", "d"})
            QVERIFY2(!hasImageExtension(no), no);
    }

    void tiffRoundTrip_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("tile");
        QTest::addColumn<bool>("deflate");
        QTest::newRow("gray striped raw") << 1 << 0 << false;
        QTest::newRow("gray tiled deflate") << 1 << 32 << true;
        QTest::newRow("rgb striped deflate") << 3 << 0 << true;
        QTest::newRow("rgb tiled raw") << 3 << 16 << false;
        QTest::newRow("rgba tiled deflate") << 4 << 64 << true;
    }
    void tiffRoundTrip()
    {
        QFETCH(int, channels);
        QFETCH(int, tile);
        QFETCH(bool, deflate);
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("x.tif")).toStdString();
        const Image im = pattern(77, 45, channels); // not a multiple of the tile size
        TiffWriteOptions o;
        o.tileSize = tile;
        o.deflate = deflate;
        QVERIFY(writeTiff(path, im, o));
        auto back = readImage(path);
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(back->width, 77);
        QCOMPARE(back->height, 45);
        QCOMPARE(back->channels, channels);
        QVERIFY(back->pixels == im.pixels);
    }

    // A mask saved 1-bit (plain, min-is-white, CCITT G4) or as float 0..1 reads as 0/255 gray.
    void masksOfEveryKind_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("1-bit") << int(kinds::Kind::Bit1);
        QTest::newRow("1-bit min-is-white") << int(kinds::Kind::Bit1White);
        QTest::newRow("ccitt g4") << int(kinds::Kind::Fax4);
        QTest::newRow("float 0..1") << int(kinds::Kind::FloatMask);
    }
    void masksOfEveryKind()
    {
        QFETCH(int, kind);
        Image mask = Image::make(40, 23, 1);
        for (int y = 0; y < mask.height; ++y)
            for (int x = 0; x < mask.width; ++x)
                mask.row(y)[x] = (x * 3 + y) % 13 == 0 ? 255 : 0;
        QTemporaryDir d;
        const QString p = d.filePath(QStringLiteral("mask.tif"));
        QVERIFY(kinds::write(p, mask, kinds::Kind(kind), 0, 6));
        auto r = readImage(p.toStdString());
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->channels, 1);
        QVERIFY(r->pixels == mask.pixels);
    }

    void missingFileIsNotFound()
    {
        auto r = readImage("/definitely/not/here.tif");
        QCOMPARE(r.status().code(), ErrorCode::NotFound);
    }

    void garbageIsCorrupt()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("junk.tif")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(300, 'z'));
        f.close();
        auto r = readImage(f.fileName().toStdString());
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY(QString::fromStdString(r.status().detail()).contains(QStringLiteral("junk.tif")));
    }

    void truncatedFileFailsCleanly()
    {
        QTemporaryDir tmp;
        QFile liar(tmp.filePath(QStringLiteral("short.tif")));
        QVERIFY(liar.open(QIODevice::WriteOnly));
        liar.write(liarTiff(64, 64)); // claims 4096 bytes, holds 16
        liar.close();
        auto r = readImage(liar.fileName().toStdString());
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
    }

    void absurdDimensionsAreRefusedBeforeAllocating()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("huge.tif")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(liarTiff(1000000, 1000000)); // 10^12 px in a ~130-byte file
        f.close();
        auto r = readImage(f.fileName().toStdString());
        QVERIFY(!r);
        QVERIFY(r.status().code() == ErrorCode::Unsupported ||
                r.status().code() == ErrorCode::Corrupt);
    }

    void invalidWritesLeaveNothing_data()
    {
        QTest::addColumn<int>("tile");
        QTest::addColumn<int>("channels");
        QTest::newRow("odd tile") << 10 << 3;
        QTest::newRow("two channels") << 0 << 2;
    }
    void invalidWritesLeaveNothing()
    {
        QFETCH(int, tile);
        QFETCH(int, channels);
        QTemporaryDir tmp;
        TiffWriteOptions o;
        o.tileSize = tile;
        const Status s = writeTiff(tmp.filePath(QStringLiteral("o.tif")).toStdString(),
                                   pattern(32, 32, channels), o);
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 0);
    }

    void unwritableTargetIsIoError()
    {
        const Status s = writeTiff("/proc/fisura-cannot-write-here.tif", pattern(8, 8, 1));
        QVERIFY(!s);
        QCOMPARE(s.code(), ErrorCode::IoError);
    }

    void replacesExistingFileAtomically()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("a.tif")).toStdString();
        QVERIFY(writeTiff(path, pattern(16, 16, 1)));
        QVERIFY(writeTiff(path, pattern(20, 10, 3)));
        auto r = readImage(path);
        QCOMPARE(r->width, 20);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 1);
    }

    void pngGoesThroughCodecsWhenBuilt()
    {
        if (!hasImageCodecs())
            QSKIP("this build has no OpenCV imgcodecs");
        const QString sample = QStringLiteral(FISURA_SHARED_DATA "/CrackForest/masks");
        QDir d(sample);
        const QStringList pngs = d.entryList({QStringLiteral("*.png")});
        if (pngs.isEmpty())
            QSKIP("shared crack data not present");
        auto r = readImage(d.filePath(pngs.first()).toStdString());
        QVERIFY2(r, r.status().toString().c_str());
        QCOMPARE(r->channels, 1);
        QVERIFY(r->width > 0);
    }
};

QTEST_GUILESS_MAIN(TstImageIo)
#include "tst_imageio.moc"
