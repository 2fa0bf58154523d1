// One meaning of a threshold (fisura/threshold.h): a crack probability t, crack where the map's
// value b/255 >= t, so the map byte is ceil(255 t). Pins the rounding (0, 0.201, 0.5, 1 and
// values exactly on a byte), the probability shown for a byte, score maps and the old byte form.
#include <QtTest>

#include <cmath>

#include "fisura/threshold.h"

using namespace fisura;

class TstThreshold : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mapByte_data()
    {
        QTest::addColumn<double>("probability");
        QTest::addColumn<int>("byte");
        QTest::newRow("0") << 0.0 << 0;
        QTest::newRow("0.001") << 0.001 << 1;
        QTest::newRow("0.2 = 51/255") << 0.2 << 51;
        QTest::newRow("0.201") << 0.201 << 52; // 51.255: 51/255 = 0.2 is below 0.201
        QTest::newRow("0.4 = 102/255") << 0.4 << 102;
        QTest::newRow("0.5") << 0.5 << 128; // 127.5: 127/255 = 0.498 is below
        QTest::newRow("0.502") << 0.502 << 129;
        QTest::newRow("128/255") << 128.0 / 255.0 << 128;
        QTest::newRow("0.9") << 0.9 << 230;
        QTest::newRow("254/255") << 254.0 / 255.0 << 254;
        QTest::newRow("1") << 1.0 << 255;
        QTest::newRow("below 0") << -0.5 << 0;
        QTest::newRow("above 1") << 3.0 << 255;
        QTest::newRow("NaN") << std::nan("") << 255;
    }
    void mapByte()
    {
        QFETCH(double, probability);
        QFETCH(int, byte);
        QCOMPARE(mapByteThreshold(probability), byte);
    }

    // Exactly on a byte, however the decimal is written, gives that byte; a hair above gives the
    // next one: a pixel is crack exactly when b/255 >= t.
    void everyByteIsItsOwnThreshold()
    {
        for (int b = 0; b <= 255; ++b) {
            QCOMPARE(mapByteThreshold(b / 255.0), b);
            if (b == 255)
                break;
            const double above = b / 255.0 + 1e-4;
            QCOMPARE(mapByteThreshold(above), b + 1);
            for (int v = 0; v <= 255; ++v) // the rule itself, pixel by pixel
                QCOMPARE(v >= mapByteThreshold(above), v / 255.0 >= above);
        }
    }

    void probabilityOfByte_data()
    {
        QTest::addColumn<int>("byte");
        QTest::addColumn<double>("probability");
        QTest::newRow("0") << 0 << 0.0;
        QTest::newRow("1") << 1 << 0.003;
        QTest::newRow("51") << 51 << 0.2;
        QTest::newRow("52") << 52 << 0.203;
        QTest::newRow("127") << 127 << 0.498;
        QTest::newRow("128") << 128 << 0.5;
        QTest::newRow("200") << 200 << 0.784;
        QTest::newRow("230") << 230 << 0.9;
        QTest::newRow("255") << 255 << 1.0;
        QTest::newRow("clamped") << 300 << 1.0;
    }
    void probabilityOfByte()
    {
        QFETCH(int, byte);
        QFETCH(double, probability);
        QCOMPARE(probabilityOfMapByte(byte), probability);
    }

    // What a person reads for a byte (at most three places) means that byte again.
    void probabilityRoundTrips()
    {
        for (int b = 0; b <= 255; ++b) {
            const double p = probabilityOfMapByte(b);
            QCOMPARE(mapByteThreshold(p), b);
            QVERIFY2(std::abs(p * 1000 - std::round(p * 1000)) < 1e-9,
                     qPrintable(QString::number(p)));
        }
    }

    // Score maps put the model's threshold at 128 (autoencoder reconstruction error, PaDiM
    // distance); the same ceil rule.
    void scoreMaps()
    {
        QCOMPARE(scoreMapByteThreshold(0.02, 0.02), 128);
        QCOMPARE(scoreMapByteThreshold(0.04, 0.02), 255);
        QCOMPARE(scoreMapByteThreshold(1.0, 0.02), 255);
        QCOMPARE(scoreMapByteThreshold(3.5 * 0.75, 3.5), 96);
        QCOMPARE(scoreMapByteThreshold(0.01 + 1e-9, 0.02), 65); // 64.0000064: above 64
        QCOMPARE(scoreMapByteThreshold(0, 0.02), 0);
    }

    void modelsOwnThreshold()
    {
        QCOMPARE(modelMapByteThreshold(MapKind::Probability, 0.4), 102);
        QCOMPARE(modelMapByteThreshold(MapKind::Probability, 0.201), 52);
        QCOMPARE(modelMapByteThreshold(MapKind::Probability, 0.4, 0.9), 230);
        QCOMPARE(modelMapByteThreshold(MapKind::Heatmap, 0.9), 128); // a classifier: 0.5
        QCOMPARE(modelMapByteThreshold(MapKind::Heatmap, 0.9, 0.75), 192);
        QCOMPARE(modelMapByteThreshold(MapKind::Score, 0.02), 128);
        QCOMPARE(modelMapByteThreshold(MapKind::Score, 3.5, 7.0), 255);
        QCOMPARE(modelMapByteThreshold(MapKind::Score, 3.5, 1.75), 64);
    }

    void oldByteForm_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("byte");
        QTest::newRow("0 is a probability") << 0.0 << -1;
        QTest::newRow("1 is a probability") << 1.0 << -1;
        QTest::newRow("0.5") << 0.5 << -1;
        QTest::newRow("2") << 2.0 << 2;
        QTest::newRow("128") << 128.0 << 128;
        QTest::newRow("255") << 255.0 << 255;
        QTest::newRow("256") << 256.0 << -1;
        QTest::newRow("1.5") << 1.5 << -1;
        QTest::newRow("NaN") << std::nan("") << -1;
    }
    void oldByteForm()
    {
        QFETCH(double, value);
        QFETCH(int, byte);
        QCOMPARE(legacyByteThreshold(value), byte);
        QCOMPARE(isProbability(value), value >= 0 && value <= 1);
    }
};

QTEST_GUILESS_MAIN(TstThreshold)
#include "tst_threshold.moc"
