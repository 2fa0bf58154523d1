// The reader's own Deflate path (io/tile_decode.h): the vector loops that undo the horizontal
// predictor against the plain loop, and a tile inflated exactly or refused. (Whole files read
// through it: tst_tiledimage's Deflate rows; a corrupt tile: tst_tiledkinds.)
#include <QtTest>

#include <random>
#include <vector>

#include "io/tile_codec.h"
#include "io/tile_decode.h"

using namespace fisura;

class TstTileDecode : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void vectorLoopsEqualThePlainLoop()
    {
        std::mt19937 rng(7);
        std::uniform_int_distribution<int> byte(0, 255);
        std::vector<size_t> lengths;
        for (size_t n = 0; n <= 100; ++n)
            lengths.push_back(n);
        for (size_t n : {size_t(255), size_t(256), size_t(768), size_t(1536), size_t(4099)})
            lengths.push_back(n);
        for (int stride = 1; stride <= 8; ++stride)
            for (size_t n : lengths) {
                // A guard byte past the row: no loop may write beyond it.
                std::vector<uint8_t> row(n + 1);
                for (auto& b : row)
                    b = uint8_t(byte(rng));
                std::vector<uint8_t> want = row, got = row;
                io::undoHorizontalPredictor8Scalar(want.data(), n, stride);
                io::undoHorizontalPredictor8(got.data(), n, stride);
                QVERIFY2(got == want,
                         qPrintable(
                             QStringLiteral("stride %1, %2 bytes").arg(stride).arg(qulonglong(n))));
            }
    }

    void tileInflatesExactlyOrNotAtAll()
    {
        if (!io::directDeflateAvailable())
            QSKIP("this build reads Deflate through libtiff only");
        const int ts = 64, channels = 3;
        const size_t rowBytes = size_t(ts) * channels, bytes = rowBytes * ts;
        // A smooth band, predicted and compressed as the writer does.
        std::vector<uint8_t> band(bytes);
        for (int y = 0; y < ts; ++y)
            for (size_t i = 0; i < rowBytes; ++i)
                band[size_t(y) * rowBytes + i] =
                    uint8_t(3 * y + int(i / channels) + 40 * int(i % 3));
        std::vector<uint8_t> predicted(bytes), packed;
        io::extractPredicted(band.data(), rowBytes, ts, 0, ts, ts, channels, predicted.data());
        QVERIFY(io::compressTile(TileCompression::Deflate, 6, predicted.data(), bytes, packed));

        std::vector<uint8_t> out(bytes);
        QVERIFY(io::inflateTile(packed.data(), packed.size(), out.data(), bytes, rowBytes, channels,
                                true));
        QVERIFY(out == band);
        QVERIFY(io::inflateTile(packed.data(), packed.size(), out.data(), bytes, rowBytes, channels,
                                false));
        QVERIFY(out == predicted);

        // A stream that holds more or fewer bytes than the tile, or is damaged: refused.
        std::vector<uint8_t> big(bytes * 2);
        QVERIFY(!io::inflateTile(packed.data(), packed.size(), out.data(), bytes - rowBytes,
                                 rowBytes, channels, true));
        QVERIFY(!io::inflateTile(packed.data(), packed.size(), big.data(), big.size(), rowBytes,
                                 channels, true));
        std::vector<uint8_t> damaged = packed;
        for (size_t i = 2; i < damaged.size(); i += 3)
            damaged[i] ^= 0x5A;
        QVERIFY(!io::inflateTile(damaged.data(), damaged.size(), out.data(), bytes, rowBytes,
                                 channels, true));
        QVERIFY(!io::inflateTile(packed.data(), packed.size() / 2, out.data(), bytes, rowBytes,
                                 channels, true));
    }
};

QTEST_GUILESS_MAIN(TstTileDecode)
#include "tst_tiledecode.moc"
