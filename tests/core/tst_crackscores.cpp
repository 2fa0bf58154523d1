// The crack protocol (ODS, OIS, mIoU at a pixel tolerance) on hand-made maps whose scores were
// worked out by hand (the numbers in the comments), and its error paths.
#include <QtTest>

#include "fisura/evaluate.h"
#include "fisura/image.h"

using namespace fisura;

namespace
{

Image blank(int w, int h)
{
    return Image::make(w, h, 1, 0);
}

void set(Image& im, int x, int y, uint8_t v)
{
    im.row(y)[x] = v;
}

/// Image A (20 x 20): truth x = 5, rows 0..9 (10 px). Map: x = 6, rows 0..9 at 200 (1 px off:
/// all within 2 px), and one false alarm at (15, 15) of 170.
/// Image B (20 x 20): truth x = 10, rows 0..9. Map: x = 10, rows 0..4 at 150 (the truth's rows
/// 0..6 have a prediction within 2 px: 7 found), and a false alarm at (3, 15) of 120.
void handMade(Image& mapA, Image& truthA, Image& mapB, Image& truthB)
{
    mapA = blank(20, 20), truthA = blank(20, 20), mapB = blank(20, 20), truthB = blank(20, 20);
    for (int y = 0; y < 10; ++y) {
        set(truthA, 5, y, 255);
        set(mapA, 6, y, 200);
        set(truthB, 10, y, 255);
        if (y < 5)
            set(mapB, 10, y, 150);
    }
    set(mapA, 15, 15, 170);
    set(mapB, 3, 15, 120);
}

} // namespace

class TstCrackScores : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handMadeScores()
    {
        Image mapA, truthA, mapB, truthB;
        handMade(mapA, truthA, mapB, truthB);
        CrackScoreAccumulator acc(2);
        QVERIFY(acc.add(mapA, truthA));
        QVERIFY(acc.add(mapB, truthB));
        QCOMPARE(acc.images(), 2);
        const CrackScores s = acc.scores(0.5);
        QCOMPARE(s.images, 2);
        QCOMPARE(s.tolerancePx, 2);
        // ODS: thresholds 121..150 keep A's line and alarm and B's 5 px: predicted 16, of them
        // 15 near the truth (P 15/16); found 10 + 7 of 20 (R 0.85): F1 0.89164. Higher
        // thresholds lose B (F1 0.667 / 0.645), lower ones add B's alarm (0.8916 -> 0.8658).
        QCOMPARE(s.odsThreshold, 121 / 255.0);
        QVERIFY(qAbs(s.odsPrecision - 15.0 / 16) < 1e-9);
        QVERIFY(qAbs(s.odsRecall - 0.85) < 1e-9);
        QVERIFY(qAbs(s.odsF1 - 2 * (15.0 / 16) * 0.85 / (15.0 / 16 + 0.85)) < 1e-9);
        // OIS: A at 171..200 (its line only: P 1, R 1), B at 121..150 (P 1, R 0.7): summed,
        // predicted 15, all near; found 17 of 20: F1 2 x 0.85 / 1.85 = 0.91892 > ODS.
        QVERIFY(qAbs(s.oisPrecision - 1.0) < 1e-9);
        QVERIFY(qAbs(s.oisRecall - 0.85) < 1e-9);
        QVERIFY(qAbs(s.oisF1 - 1.7 / 1.85) < 1e-9);
        QVERIFY(s.oisF1 > s.odsF1);
        // At the model's threshold 0.5 (byte 128, inside 121..150): the ODS counts.
        QVERIFY(qAbs(s.f1 - s.odsF1) < 1e-12);
        // mIoU at the ODS threshold, pixel-exact: A's line misses its truth (TP 0, FP 11,
        // FN 10), B hits 5 (FP 0, FN 5): TP 5, FP 11, FN 15, TN 800 - 31 = 769.
        QVERIFY(qAbs(s.crackIou - 5.0 / 31) < 1e-9);
        QVERIFY(qAbs(s.miou - (5.0 / 31 + 769.0 / 795) / 2) < 1e-9);
    }

    void toleranceChangesTheMatch()
    {
        Image mapA, truthA, mapB, truthB;
        handMade(mapA, truthA, mapB, truthB);
        CrackScoreAccumulator exact(0);
        QVERIFY(exact.add(mapA, truthA));
        const CrackScores s = exact.scores(0.5);
        // One pixel off is a miss without tolerance: the best A can do is predict nothing.
        QVERIFY(s.odsF1 < 1e-12);
        QCOMPARE(s.tolerancePx, 0);
    }

    void crackFreeImageRewardsSilence()
    {
        // OIS lets a crack-free image choose "nothing predicted"; its false alarms still count
        // at the dataset's one threshold (ODS).
        Image mapA, truthA, mapB, truthB;
        handMade(mapA, truthA, mapB, truthB);
        Image quiet = blank(20, 20), clean = blank(20, 20);
        set(quiet, 2, 2, 250);
        CrackScoreAccumulator acc(2);
        QVERIFY(acc.add(mapA, truthA));
        QVERIFY(acc.add(quiet, clean));
        const CrackScores s = acc.scores(0.5);
        QVERIFY(qAbs(s.oisF1 - 1.0) < 1e-9);
        QVERIFY(s.odsF1 < 1.0);
    }

    void colourMaskCountsItsLargestChannel()
    {
        Image mapA, truthA, mapB, truthB;
        handMade(mapA, truthA, mapB, truthB);
        Image rgb = Image::make(20, 20, 3, 0);
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 20; ++x)
                rgb.row(y)[3 * x + 2] = truthA.row(y)[x]; // blue strokes
        CrackScoreAccumulator a(2), b(2);
        QVERIFY(a.add(mapA, truthA));
        QVERIFY(b.add(mapA, rgb));
        QCOMPARE(a.scores(0.5).odsF1, b.scores(0.5).odsF1);
    }

    void errors()
    {
        CrackScoreAccumulator acc(2);
        const Status size = acc.add(blank(20, 20), blank(21, 20));
        QCOMPARE(size.code(), ErrorCode::InvalidArgument);
        const Status channels = acc.add(Image::make(20, 20, 3), blank(20, 20));
        QCOMPARE(channels.code(), ErrorCode::InvalidArgument);
        QCOMPARE(acc.add(Image(), blank(20, 20)).code(), ErrorCode::InvalidArgument);
        CrackScoreAccumulator far(33);
        QCOMPARE(far.add(blank(20, 20), blank(20, 20)).code(), ErrorCode::InvalidArgument);
        QCOMPARE(acc.images(), 0);
    }
};

QTEST_GUILESS_MAIN(TstCrackScores)
#include "tst_crackscores.moc"
