// Width segments: a crack drawn 3 px wide for half its length and 9 px for the rest is cut into a
// "fine" and a "medium" piece (0.05 mm pixels: 0.15 and 0.45 mm) with their own widths, in the
// measurement and in every vector format; a crack of one width stays one segment; single pixels
// of another width (noise) do not cut a branch; without a pixel size there are no cuts.
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>
#include <opencv2/imgproc.hpp>

#include "analysis/width_segments.h"
#include "drawn_cracks.h"
#include "fisura/image.h"
#include "fisura/measure.h"
#include "fisura/vectorexport.h"

using namespace fisura;

namespace
{

constexpr int kW = 600, kH = 300;
constexpr double kPixelMm = 0.05;
// The stepped crack along y = 100: thin (3 px) from x 60 to 300, wide (9 px) from 300 to 540;
// a crack of one width (5 px) along y = 220.
constexpr double kStepX = 300;

Image image(const cv::Mat& m)
{
    Image im = Image::make(m.cols, m.rows, 1);
    for (int y = 0; y < m.rows; ++y)
        std::copy_n(m.ptr<uint8_t>(y), m.cols, im.row(y));
    return im;
}

Image steppedMap()
{
    cv::Mat m = cv::Mat::zeros(kH, kW, CV_8U);
    test::bar(m, {60, 100}, {kStepX, 100}, 3);
    test::bar(m, {kStepX, 100}, {540, 100}, 9);
    test::bar(m, {60, 220}, {540, 220}, 5);
    return image(m);
}

MeasureResult measured(double pixelMm, int tileSize = 512)
{
    MeasureOptions o;
    o.pixelSizeMm = pixelMm;
    o.tileSize = tileSize;
    auto r = measureCracks(steppedMap(), o);
    if (!r)
        qFatal("measure failed: %s", r.status().toString().c_str());
    return std::move(*r);
}

// Copies: the list gives each branch back as a value (MeasureResult::branches is a BranchList).
std::vector<BranchSegment> segmentsOfRow(const MeasureResult& r, double y)
{
    std::vector<BranchSegment> out;
    for (const auto& b : r.branches)
        if (std::abs(b.centroidY - y) < 3)
            out.insert(out.end(), b.segments.begin(), b.segments.end());
    return out;
}

} // namespace

class TestWidthSegments : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { GDALAllRegister(); }
    void runs_data();
    void runs();
    void steppedCrackIsCut_data();
    void steppedCrackIsCut();
    void noPixelSizeNoCuts();
    void exported_data();
    void exported();
    void overLimitColour();
};

void TestWidthSegments::runs_data()
{
    QTest::addColumn<QVector<float>>("widths");
    QTest::addColumn<QVector<int>>("classes"); // of the runs, in order
    auto repeat = [](QVector<float> v, float w, int n) {
        for (int i = 0; i < n; ++i)
            v.push_back(w);
        return v;
    };
    // Limits 2 and 6 px: classes 0 (< 2), 1 (2..6), 2 (>= 6).
    QTest::newRow("one width") << repeat({}, 3, 40) << QVector<int>{1};
    QTest::newRow("step") << repeat(repeat({}, 3, 20), 8, 20) << QVector<int>{1, 2};
    QTest::newRow("three steps") << repeat(repeat(repeat({}, 1, 15), 3, 15), 8, 15)
                                 << QVector<int>{0, 1, 2};
    QTest::newRow("one noisy pixel")
        << repeat(repeat(repeat({}, 3, 20), 9, 1), 3, 20) << QVector<int>{1};
    QTest::newRow("short bulge") << repeat(repeat(repeat({}, 3, 20), 9, 6), 3, 20)
                                 << QVector<int>{1};
    QTest::newRow("long bulge") << repeat(repeat(repeat({}, 3, 20), 9, 12), 3, 20)
                                << QVector<int>{1, 2, 1};
    QTest::newRow("short branch") << repeat({}, 9, 3) << QVector<int>{2};
}

void TestWidthSegments::runs()
{
    QFETCH(QVector<float>, widths);
    QFETCH(QVector<int>, classes);
    const std::vector<float> w(widths.begin(), widths.end());
    const auto runs = analysis::widthRuns(w, {2.0, 6.0});
    QVector<int> got;
    size_t at = 0;
    for (const auto& r : runs) {
        QCOMPARE(r.begin, at); // the runs tile the branch
        QVERIFY(r.end > r.begin);
        at = r.end;
        got.push_back(r.widthClass);
    }
    QCOMPARE(at, w.size());
    QCOMPARE(got, classes);
    // Without limits (no pixel size): one run of no class.
    const auto none = analysis::widthRuns(w, {});
    QCOMPARE(int(none.size()), 1);
    QCOMPARE(none[0].widthClass, -1);
}

void TestWidthSegments::steppedCrackIsCut_data()
{
    QTest::addColumn<int>("tileSize");
    QTest::newRow("one tile") << 1024;
    QTest::newRow("tiles of 128 px") << 128; // the crack and its cut cross tile borders
}

void TestWidthSegments::steppedCrackIsCut()
{
    QFETCH(int, tileSize);
    const MeasureResult r = measured(kPixelMm, tileSize);
    const auto& ids = r.options.classes.ids;
    const auto stepped = segmentsOfRow(r, 100);
    QVERIFY2(stepped.size() >= 2, qPrintable(QStringLiteral("%1 segments").arg(stepped.size())));
    double fineLength = 0, mediumLength = 0;
    for (const BranchSegment& s : stepped) {
        const std::string& id = ids[size_t(s.widthClass)];
        const double drawn = id == "fine" ? 3 : 9;
        QVERIFY2(id == "fine" || id == "medium", id.c_str());
        QVERIFY2(std::abs(s.width.medianPx - drawn) <= 1.0,
                 qPrintable(QStringLiteral("%1: median %2 px")
                                .arg(QString::fromStdString(id))
                                .arg(s.width.medianPx)));
        QCOMPARE(s.width.meanMm, s.width.meanPx * kPixelMm);
        QCOMPARE(s.lengthMm, s.lengthPx * kPixelMm);
        QVERIFY(s.lastVertex > s.firstVertex);
        (id == "fine" ? fineLength : mediumLength) += s.lengthPx;
    }
    // Each half about 240 px long (the cut lies within a few pixels of the step).
    QVERIFY2(std::abs(fineLength - 240) <= 15, qPrintable(QString::number(fineLength)));
    QVERIFY2(std::abs(mediumLength - 240) <= 15, qPrintable(QString::number(mediumLength)));
    // The cut is a vertex of the centre line near the step; the pieces meet there.
    for (const auto& b : r.branches)
        for (size_t k = 1; k < b.segments.size(); ++k) {
            QCOMPARE(b.segments[k].firstVertex, b.segments[k - 1].lastVertex);
            const auto& cut = b.centreLine[size_t(b.segments[k].firstVertex)];
            QVERIFY2(std::abs(cut.x - kStepX) <= 12, qPrintable(QString::number(cut.x)));
        }
    // The crack of one width: one segment per branch, with the branch's own figures.
    for (const auto& b : r.branches)
        if (std::abs(b.centroidY - 220) < 3) {
            QCOMPARE(int(b.segments.size()), 1);
            QCOMPARE(b.segments[0].widthClass, b.widthClass);
            QCOMPARE(b.segments[0].width.meanPx, b.width.meanPx);
            QCOMPARE(b.segments[0].lengthPx, b.lengthPx);
            QCOMPARE(b.segments[0].lastVertex, int(b.centreLine.size()) - 1);
        }
    // Ids run 1..n over the scan.
    int next = 1;
    for (const auto& b : r.branches)
        for (const auto& s : b.segments)
            QCOMPARE(s.id, next++);
}

void TestWidthSegments::noPixelSizeNoCuts()
{
    const MeasureResult r = measured(0);
    for (const auto& b : r.branches) {
        QCOMPARE(int(b.segments.size()), 1);
        QCOMPARE(b.segments[0].widthClass, -1);
        QCOMPARE(b.segments[0].lengthMm, -1.0);
    }
}

void TestWidthSegments::exported_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("segmentsFile"); // empty: a layer of the main file
    QTest::newRow("gpkg") << QStringLiteral("c.gpkg") << QString();
    QTest::newRow("geojson") << QStringLiteral("c.geojson") << QStringLiteral("c_segments.geojson");
    QTest::newRow("shp") << QStringLiteral("c.shp") << QStringLiteral("c_segments.shp");
    QTest::newRow("dxf") << QStringLiteral("c.dxf") << QString();
}

void TestWidthSegments::exported()
{
    QFETCH(QString, file);
    QFETCH(QString, segmentsFile);
    QTemporaryDir dir;
    const MeasureResult r = measured(kPixelMm);
    int segments = 0;
    for (const auto& b : r.branches)
        segments += int(b.segments.size());
    const std::string path = dir.filePath(file).toStdString();
    auto sum = exportCrackVectors(r, path);
    QVERIFY2(sum.isOk(), sum.isOk() ? "" : sum.status().toString().c_str());
    QCOMPARE(sum->segments, segments);
    const bool dxf = file.endsWith(QLatin1String(".dxf"));
    const std::string read =
        segmentsFile.isEmpty() ? path : dir.filePath(segmentsFile).toStdString();
    std::unique_ptr<GDALDataset> ds(
        GDALDataset::Open(read.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY));
    QVERIFY(ds);
    OGRLayer* layer =
        file.endsWith(QLatin1String(".gpkg")) ? ds->GetLayerByName("segments") : ds->GetLayer(0);
    QVERIFY(layer);
    // Along y = 100 (map y -5 mm, y up): a fine piece left of the step, a medium one right of it.
    bool fineLeft = false, mediumRight = false;
    int features = 0;
    for (auto& f : *layer) {
        const std::string cls = dxf ? f->GetFieldAsString("Layer") : f->GetFieldAsString("w_class");
        if (dxf && cls.find("_outline") != std::string::npos)
            continue;
        ++features;
        OGREnvelope e;
        f->GetGeometryRef()->getEnvelope(&e);
        if (std::abs(e.MinY + 100.5 * kPixelMm) > 2 * kPixelMm)
            continue; // the crack of one width
        const double cx = (e.MinX + e.MaxX) / 2 / kPixelMm;
        fineLeft |= cls.find("fine") != std::string::npos && cx < kStepX;
        mediumRight |= cls.find("medium") != std::string::npos && cx > kStepX;
        if (!dxf) {
            const double want = cls == "fine" ? 3 : 9;
            QVERIFY(std::abs(f->GetFieldAsDouble("w_mean_px") - want) <= 1.0);
            QVERIFY(f->GetFieldAsInteger("segment_id") >= 1);
        }
    }
    QCOMPARE(features, segments);
    QVERIFY(fineLeft);
    QVERIFY(mediumRight);
}

// The class over a standard's tolerable width is the alarming colour everywhere classes are drawn
// (Okabe-Ito vermillion beside a blue within-limit class), also in the GIS overlay and the DXF.
void TestWidthSegments::overLimitColour()
{
    const WidthClasses aci = widthClassPreset("aci224r-humid")->classes;
    QCOMPARE(aci.ids[1], std::string("over_limit"));
    QCOMPARE(widthClassColour(aci, 1), (std::array<uint8_t, 3>{0xD5, 0x5E, 0x00}));
    QCOMPARE(widthClassColour(aci, 0), (std::array<uint8_t, 3>{0x00, 0x72, 0xB2}));
    QCOMPARE(overlayColour(aci, 1), (std::array<uint8_t, 4>{0xD5, 0x5E, 0x00, 255}));
    const WidthClasses fisura;
    QCOMPARE(widthClassColour(fisura, 3), (std::array<uint8_t, 3>{215, 30, 40})); // wide
    QCOMPARE(widthClassColour(fisura, -1), (std::array<uint8_t, 3>{128, 128, 128}));
    // The DXF layer of the over-limit class is drawn in it: 0.05 mm pixels, the 9 px half of the
    // stepped crack (0.45 mm) is over 0.30 mm.
    QTemporaryDir dir;
    MeasureOptions o;
    o.pixelSizeMm = kPixelMm;
    o.classes = aci;
    auto r = measureCracks(steppedMap(), o);
    QVERIFY(r.isOk());
    const std::string path = dir.filePath(QStringLiteral("c.dxf")).toStdString();
    QVERIFY(exportCrackVectors(*r, path).isOk());
    std::unique_ptr<GDALDataset> ds(GDALDataset::Open(path.c_str(), GDAL_OF_VECTOR));
    QVERIFY(ds);
    // DXF keeps AutoCAD colour indices: read back, the colours are the nearest ones (vermillion
    // #a55200, blue), still warm against cold.
    int over = 0, within = 0;
    for (auto& f : *ds->GetLayer(0)) {
        const std::string layer = f->GetFieldAsString("Layer");
        const std::string style = f->GetStyleString() ? f->GetStyleString() : "";
        const auto at = style.find("c:#");
        if (at == std::string::npos || layer.find("_outline") != std::string::npos)
            continue;
        const int r = std::stoi(style.substr(at + 3, 2), nullptr, 16);
        const int g = std::stoi(style.substr(at + 5, 2), nullptr, 16);
        const int b = std::stoi(style.substr(at + 7, 2), nullptr, 16);
        if (layer == "fisura_over_limit") {
            ++over;
            QVERIFY2(r > g && g > b && r >= 0x90, style.c_str());
        } else if (layer == "fisura_within_limit") {
            ++within;
            QVERIFY2(b > r && b > g, style.c_str());
        }
    }
    QVERIFY(over >= 1);
    QVERIFY(within >= 1);
}

QTEST_GUILESS_MAIN(TestWidthSegments)
#include "tst_widthsegments.moc"
