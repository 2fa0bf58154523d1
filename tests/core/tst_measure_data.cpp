// The ground-truth masks of the public crack sets, measured: crack count, length and width
// distributions in px per set (printed for tests/bench/RESULTS.md), with sanity bounds.
// Skips when ../shared/data is absent.
#include <QDir>
#include <QTest>

#include <algorithm>
#include <vector>

#include "fisura/measure.h"

using namespace fisura;

namespace
{

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[size_t(q * double(v.size() - 1) + 0.5)];
}

} // namespace

class TestMeasureData : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void groundTruth_data();
    void groundTruth();
};

void TestMeasureData::groundTruth_data()
{
    QTest::addColumn<QString>("folder");
    for (const char* s :
         {"DeepCrack/train", "DeepCrack/test", "CrackForest", "UAV75", "CrackConglomerate"})
        QTest::newRow(s) << QString::fromLatin1(s);
}

void TestMeasureData::groundTruth()
{
    QFETCH(QString, folder);
    // The environment may point elsewhere (a worktree beside the shared folder's usual place).
    const QString root = qEnvironmentVariableIsSet("FISURA_SHARED_DATA")
                             ? qEnvironmentVariable("FISURA_SHARED_DATA")
                             : QStringLiteral(FISURA_SHARED_DATA);
    const QDir dir(root + QStringLiteral("/") + folder + QStringLiteral("/masks"));
    if (!dir.exists())
        QSKIP("shared data absent");
    const auto files = dir.entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
    QVERIFY(!files.isEmpty());
    MeasureOptions o;
    o.closingRadiusPx = 0; // ground truth: measure what was drawn
    o.minAreaPx = 10;
    std::vector<double> perImageCount, lengths, widths, maxWidths;
    double totalLength = 0;
    for (const auto& f : files) {
        auto r = measureCracks(dir.filePath(f).toStdString(), o);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        perImageCount.push_back(r->totals.cracks);
        totalLength += r->totals.lengthPx;
        for (const auto& c : r->cracks) {
            lengths.push_back(c.lengthPx);
            widths.push_back(c.width.meanPx);
            maxWidths.push_back(c.width.maxPx);
        }
    }
    qInfo("%s: %d masks, cracks/image median %.0f (max %.0f), %zu cracks, length px "
          "p10/p50/p90 %.0f/%.0f/%.0f, total %.0f px/image, mean width px p10/p50/p90 "
          "%.1f/%.1f/%.1f, max width p50/p90 %.1f/%.1f",
          qPrintable(folder), int(files.size()), quantile(perImageCount, 0.5),
          quantile(perImageCount, 1.0), lengths.size(), quantile(lengths, 0.1),
          quantile(lengths, 0.5), quantile(lengths, 0.9), totalLength / double(files.size()),
          quantile(widths, 0.1), quantile(widths, 0.5), quantile(widths, 0.9),
          quantile(maxWidths, 0.5), quantile(maxWidths, 0.9));
    // Sanity: annotated cracks are thin, elongated structures.
    if (!widths.empty()) {
        QVERIFY(quantile(widths, 0.5) >= 1.0);
        QVERIFY(quantile(widths, 0.5) <= 30.0);
        QVERIFY(quantile(lengths, 0.5) > 2 * quantile(widths, 0.5));
    }
}

QTEST_GUILESS_MAIN(TestMeasureData)
#include "tst_measure_data.moc"
