// io::OutputFile, the map writer's output: blocks appended behind what libtiff wrote, and tiles
// "placed" (libtiff records where they already are and writes none of their bytes); a placement
// libtiff does not take as planned is noticed; a folder that cannot hold the file is an error
// value.
#include <QtTest>

#include <QTemporaryDir>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <tiffio.h>

#include "io/output_file.h"
#include "io/tiff_handle.h"

using namespace fisura;

namespace
{
std::vector<uint8_t> block(size_t n, uint8_t seed)
{
    std::vector<uint8_t> b(n);
    for (size_t i = 0; i < n; ++i)
        b[i] = uint8_t(seed + i * 7);
    return b;
}

std::vector<uint8_t> fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A 64 x 64 tiled directory of 16 x 16 uncompressed tiles (16 of them).
void setupDirectory(TIFF* t)
{
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 64u);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 64u);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, uint16_t(1));
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_TILEWIDTH, 16u);
    TIFFSetField(t, TIFFTAG_TILELENGTH, 16u);
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
}
} // namespace

class TstOutputFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void appendsBlocksOneAfterTheOther()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("a.bin")).toStdString();
        auto f = io::OutputFile::create(path);
        QVERIFY(f);
        std::vector<std::vector<uint8_t>> blocks;
        for (size_t i = 0; i < 1500; ++i) // more than one pwritev can take (IOV_MAX = 1024)
            blocks.push_back(block(1 + i % 97, uint8_t(i)));
        std::vector<uint64_t> offsets;
        QVERIFY((*f)->append(blocks, offsets));
        QCOMPARE(offsets.size(), blocks.size());
        std::vector<uint8_t> expected;
        for (size_t i = 0; i < blocks.size(); ++i) {
            QCOMPARE(offsets[i], uint64_t(expected.size()));
            expected.insert(expected.end(), blocks[i].begin(), blocks[i].end());
        }
        QCOMPARE(uint64_t(io::OutputFile::size(f->get())), uint64_t(expected.size()));
        QCOMPARE(fileBytes(path), expected);
    }

    // Level 0 through libtiff, a second directory's tiles appended by the caller between level
    // 0's and placed: a plain libtiff reader finds every tile's bytes where they were put.
    void placedTilesAreWhereTheyWereAppended()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("p.tif")).toStdString();
        auto f = io::OutputFile::create(path);
        QVERIFY(f);
        io::TiffHandle h;
        QVERIFY(h.open(std::move(*f), "w8"));
        io::OutputFile& out = *h.output();
        setupDirectory(h.get());
        std::vector<std::vector<uint8_t>> second;
        std::vector<uint64_t> offsets;
        for (uint32_t t = 0; t < 16; ++t) {
            std::vector<uint8_t> mine = block(256, uint8_t(t));
            QCOMPARE(TIFFWriteRawTile(h.get(), t, mine.data(), 256), tmsize_t(256));
            second.push_back(block(256, uint8_t(100 + t)));
            QVERIFY(out.append({second.back()}, offsets)); // between level 0's tiles
        }
        QVERIFY(TIFFWriteDirectory(h.get()));
        setupDirectory(h.get());
        std::vector<uint8_t> unused(256);
        for (uint32_t t = 0; t < 16; ++t) {
            out.placeNext(offsets[t], 256);
            QCOMPARE(TIFFWriteRawTile(h.get(), t, unused.data(), 256), tmsize_t(256));
            QVERIFY(out.placementTaken());
        }
        QVERIFY(TIFFWriteDirectory(h.get()));
        const auto before = fileBytes(path); // placing wrote nothing over the appended tiles
        for (uint32_t t = 0; t < 16; ++t)
            QVERIFY(std::equal(second[t].begin(), second[t].end(), before.begin() + offsets[t]));
        QVERIFY(h.close());

        TIFF* r = TIFFOpen(path.c_str(), "r");
        QVERIFY(r);
        std::vector<uint8_t> got(256);
        bool same = true;
        for (uint32_t t = 0; t < 16; ++t) {
            same = same && TIFFReadRawTile(r, t, got.data(), 256) == 256 &&
                   got == block(256, uint8_t(t));
        }
        same = same && TIFFReadDirectory(r);
        for (uint32_t t = 0; t < 16 && same; ++t)
            same = TIFFReadRawTile(r, t, got.data(), 256) == 256 && got == second[t];
        TIFFClose(r);
        QVERIFY(same);
    }

    // The procedures see anything but "seek to the end, then write that size": not taken.
    void aPlacementTakenOtherwiseIsNoticed()
    {
        QTemporaryDir tmp;
        auto f = io::OutputFile::create(tmp.filePath(QStringLiteral("b.bin")).toStdString());
        QVERIFY(f);
        io::OutputFile& o = **f;
        char bytes[8] = {};
        o.placeNext(0, 8);
        QCOMPARE(io::OutputFile::write(&o, bytes, 8), tmsize_t(8)); // written, not placed
        QVERIFY(!o.placementTaken());
        o.placeNext(0, 8);
        io::OutputFile::seek(&o, 0, SEEK_END);
        QCOMPARE(io::OutputFile::write(&o, bytes, 4), tmsize_t(-1)); // another size
        QVERIFY(!o.placementTaken());
        o.placeNext(0, 8);
        io::OutputFile::seek(&o, 0, SEEK_SET);
        io::OutputFile::write(&o, bytes, 8);
        QVERIFY(!o.placementTaken());
        o.placeNext(4, 8);
        QCOMPARE(uint64_t(io::OutputFile::seek(&o, 0, SEEK_END)), uint64_t(4));
        QCOMPARE(io::OutputFile::write(&o, bytes, 8), tmsize_t(8));
        QVERIFY(o.placementTaken());
        QCOMPARE(uint64_t(io::OutputFile::size(&o)), uint64_t(8)); // the placed write added nothing
    }

    void aFolderThatIsNotThereIsAnError()
    {
        QTemporaryDir tmp;
        auto f =
            io::OutputFile::create(tmp.filePath(QStringLiteral("no/such/x.tif")).toStdString());
        QVERIFY(!f);
        QCOMPARE(int(f.status().code()), int(ErrorCode::IoError));
        QVERIFY(f.status().detail().find("x.tif") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstOutputFile)
#include "tst_outputfile.moc"
