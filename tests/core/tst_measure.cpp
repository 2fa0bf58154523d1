// Crack measurement on drawn cracks of known length and width, across tile borders, and on bad
// input. Lengths within 3 %, mean widths within 1 px.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "analysis/thinning.h"
#include "drawn_cracks.h"
#include "fisura/measure.h"
#include "fisura/testing.h"
#include "image_mat.h"

using namespace fisura;
using fisura::testing_mat::asMat;
using fisura::testing_mat::toImage;

namespace
{

MeasureResult measure(const cv::Mat& m, MeasureOptions o = {})
{
    auto r = measureCracks(toImage(m), o);
    if (!r)
        qFatal("measure failed: %s", r.status().toString().c_str());
    return std::move(*r);
}

using test::bar;

// An arc of radius r (centre line) from a0 to a1 degrees, `width` px across.
void arcOf(cv::Mat& m, cv::Point2d c, double r, double a0, double a1, double width)
{
    if (width <= 1) {
        cv::ellipse(m, cv::Point(cvRound(c.x), cvRound(c.y)), cv::Size(cvRound(r), cvRound(r)), 0,
                    a0, a1, 255, 1, cv::LINE_8);
        return;
    }
    std::vector<cv::Point> poly;
    for (int pass = 0; pass < 2; ++pass) {
        const double rr = pass == 0 ? r + (width - 1) / 2 : r - (width - 1) / 2;
        for (int k = 0; k <= 400; ++k) {
            const double t =
                (pass == 0 ? a0 + (a1 - a0) * k / 400 : a1 - (a1 - a0) * k / 400) * CV_PI / 180;
            poly.emplace_back(cvRound((c.x + rr * std::cos(t)) * 16),
                              cvRound((c.y + rr * std::sin(t)) * 16));
        }
    }
    std::vector<std::vector<cv::Point>> polys{poly};
    cv::fillPoly(m, polys, 255, cv::LINE_8, 4);
}

double totalBranchLength(const MeasureResult& r)
{
    double s = 0;
    for (const auto& b : r.branches)
        s += b.lengthPx;
    return s;
}

} // namespace

class TestMeasure : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void straightLine_data();
    void straightLine();
    void arc_data();
    void arc();
    void yShape();
    void xShape();
    void branchesNumberedCrackByCrack();
    void acrossTileBorders_data();
    void acrossTileBorders();
    void emptyMap();
    void closingAndMinimumArea();
    void pixelSizeAndClasses();
    void mapOfAnotherSizeThanItsScan();
    void badInputs();
    void cancelAndProgress();
    void exports();
    void exportsWrittenPieceByPiece();
    void widthLayer();
    void thinningMatchesOpenCv();
};

void TestMeasure::straightLine_data()
{
    QTest::addColumn<double>("angle");
    QTest::addColumn<int>("width");
    for (double a : {0.0, 30.0, 45.0, 90.0})
        for (int w : {1, 2, 3, 5, 8, 11, 15})
            QTest::addRow("%g deg, %d px", a, w) << a << w;
}

void TestMeasure::straightLine()
{
    QFETCH(double, angle);
    QFETCH(int, width);
    cv::Mat m = cv::Mat::zeros(500, 500, CV_8U);
    const double a = angle * CV_PI / 180, half = 180;
    const cv::Point2d p0(250 - half * std::cos(a), 250 + half * std::sin(a));
    const cv::Point2d p1(250 + half * std::cos(a), 250 - half * std::sin(a));
    bar(m, p0, p1, width);
    const double length = cv::norm(p1 - p0);
    const auto r = measure(m);
    QCOMPARE(r.totals.cracks, 1);
    const Crack& c = r.cracks[0];
    qInfo("length %.1f for %.1f (%+.2f %%), mean width %.2f for %d", c.lengthPx, length,
          100 * (c.lengthPx / length - 1), c.width.meanPx, width);
    QVERIFY2(std::abs(c.lengthPx - length) <= 0.03 * length,
             qPrintable(QStringLiteral("length %1 vs %2").arg(c.lengthPx).arg(length)));
    QVERIFY2(std::abs(c.width.meanPx - width) <= 1.0,
             qPrintable(QStringLiteral("mean width %1 vs %2").arg(c.width.meanPx).arg(width)));
    QCOMPARE(c.ends, 2);
    QCOMPARE(c.branches, 1);
    double d = std::abs(c.orientationDeg - angle);
    d = std::min(d, 180 - d);
    QVERIFY2(d < 2.0, qPrintable(QStringLiteral("orientation %1").arg(c.orientationDeg)));
}

void TestMeasure::arc_data()
{
    QTest::addColumn<int>("width");
    for (int w : {1, 4, 9, 15})
        QTest::addRow("%d px", w) << w;
}

void TestMeasure::arc()
{
    QFETCH(int, width);
    cv::Mat m = cv::Mat::zeros(500, 500, CV_8U);
    arcOf(m, {250, 250}, 180, 20, 250, width);
    const double length = 180 * (230.0 * CV_PI / 180);
    const auto r = measure(m);
    QCOMPARE(r.totals.cracks, 1);
    qInfo("length %.1f for %.1f (%+.2f %%), mean width %.2f for %d", r.cracks[0].lengthPx, length,
          100 * (r.cracks[0].lengthPx / length - 1), r.cracks[0].width.meanPx, width);
    QVERIFY2(std::abs(r.cracks[0].lengthPx - length) <= 0.03 * length,
             qPrintable(QStringLiteral("length %1 vs %2").arg(r.cracks[0].lengthPx).arg(length)));
    QVERIFY(std::abs(r.cracks[0].width.meanPx - width) <= 1.0);
}

void TestMeasure::yShape()
{
    cv::Mat m = cv::Mat::zeros(500, 500, CV_8U);
    const cv::Point2d c(250, 250);
    double length = 0;
    for (double deg : {90.0, 210.0, 330.0}) {
        const double a = deg * CV_PI / 180;
        const cv::Point2d e(250 + 160 * std::cos(a), 250 - 160 * std::sin(a));
        bar(m, c, e, 5);
        length += cv::norm(e - c);
    }
    const auto r = measure(m);
    QCOMPARE(r.totals.cracks, 1);
    const Crack& k = r.cracks[0];
    QVERIFY2(std::abs(k.lengthPx - length) <= 0.03 * length,
             qPrintable(QStringLiteral("length %1 vs %2").arg(k.lengthPx).arg(length)));
    QCOMPARE(k.ends, 3);
    QCOMPARE(k.branches, 3);
    QVERIFY(k.junctions >= 1);
    QVERIFY(std::abs(k.width.meanPx - 5) <= 1.0);
    QCOMPARE(int(r.branches.size()), 3);
    for (const auto& b : r.branches) {
        QCOMPARE(b.crackId, 1);
        QVERIFY2(std::abs(b.lengthPx - 160) < 0.06 * 160, qPrintable(QString::number(b.lengthPx)));
    }
    QVERIFY(totalBranchLength(r) <= k.lengthPx + 1e-6);
}

void TestMeasure::xShape()
{
    cv::Mat m = cv::Mat::zeros(500, 500, CV_8U);
    bar(m, {70, 100}, {430, 400}, 7);
    bar(m, {70, 400}, {430, 100}, 7);
    const double length = 2 * cv::norm(cv::Point(360, 300));
    const auto r = measure(m);
    QCOMPARE(r.totals.cracks, 1);
    QVERIFY2(std::abs(r.cracks[0].lengthPx - length) <= 0.03 * length,
             qPrintable(QStringLiteral("length %1 vs %2").arg(r.cracks[0].lengthPx).arg(length)));
    QCOMPARE(r.cracks[0].ends, 4);
    // Two thick lines cross in one junction or in two joined by a short branch.
    QVERIFY(r.cracks[0].branches == 4 || (r.cracks[0].branches == 5 && r.cracks[0].junctions == 2));
    QVERIFY(std::abs(r.cracks[0].width.meanPx - 7) <= 1.0);
}

// Branch ids run 1..n over the scan, crack after crack (each crack's branches together, in the
// cracks' order), and every branch names its crack; so do the width segments' ids.
void TestMeasure::branchesNumberedCrackByCrack()
{
    cv::Mat m = cv::Mat::zeros(900, 700, CV_8U);
    for (const cv::Point2d c : {cv::Point2d(200, 200), cv::Point2d(450, 600)})
        for (double deg : {90.0, 210.0, 330.0}) {
            const double a = deg * CV_PI / 180;
            bar(m, c, cv::Point2d(c.x + 120 * std::cos(a), c.y - 120 * std::sin(a)), 5);
        }
    bar(m, cv::Point2d(550, 80), cv::Point2d(650, 380), 4); // a third crack, one branch
    MeasureOptions o;
    o.tileSize = 256; // the cracks cross tile borders
    auto res = measureCracks(toImage(m), o, CancelToken());
    QVERIFY2(res, res.status().toString().c_str());
    const MeasureResult& r = *res;
    QCOMPARE(r.totals.cracks, 3);
    int expectedBranches = 0;
    for (const auto& k : r.cracks)
        expectedBranches += k.branches;
    QCOMPARE(expectedBranches, 7);
    QCOMPARE(int(r.branches.size()), expectedBranches);
    int crack = 1, inCrack = 0, segment = 1;
    for (size_t i = 0; i < r.branches.size(); ++i) {
        const CrackBranch& b = r.branches[i];
        QCOMPARE(b.id, int(i) + 1);
        if (b.crackId != crack) {
            QCOMPARE(inCrack, r.cracks[size_t(crack - 1)].branches);
            QCOMPARE(b.crackId, crack + 1);
            crack = b.crackId;
            inCrack = 0;
        }
        ++inCrack;
        QVERIFY(!b.centreLine.empty());
        for (const auto& s : b.segments)
            QCOMPARE(s.id, segment++);
    }
    QCOMPARE(crack, 3);
    QCOMPARE(inCrack, r.cracks[2].branches);

    // The same branches when none of their records stays in memory (all in the temporary file),
    // both while the map is read and in the result.
    o.branchMemoryMb = 0;
    auto onDisk = measureCracks(toImage(m), o, CancelToken());
    QVERIFY2(onDisk, onDisk.status().toString().c_str());
    QVERIFY(onDisk->branches.fileBytes() > 0);
    QCOMPARE(r.branches.fileBytes(), uint64_t(0));
    QCOMPARE(onDisk->branches.size(), r.branches.size());
    auto other = onDisk->branches.begin();
    for (const CrackBranch& b : r.branches) {
        const CrackBranch c = *other;
        ++other;
        QCOMPARE(c.id, b.id);
        QCOMPARE(c.crackId, b.crackId);
        QCOMPARE(c.lengthPx, b.lengthPx);
        QCOMPARE(c.box.y, b.box.y);
        QCOMPARE(c.centreLine.size(), b.centreLine.size());
        for (size_t k = 0; k < b.centreLine.size(); ++k) {
            QCOMPARE(c.centreLine[k].x, b.centreLine[k].x);
            QCOMPARE(c.centreLine[k].y, b.centreLine[k].y);
            QCOMPARE(c.centreLine[k].widthPx, b.centreLine[k].widthPx);
        }
        QCOMPARE(c.segments.size(), b.segments.size());
    }
    QVERIFY(other == onDisk->branches.end());
    auto strip = [](const MeasureResult& x) {
        auto j = nlohmann::json::parse(toJson(x));
        j.erase("seconds");
        return j.dump();
    };
    QCOMPARE(strip(*onDisk), strip(r));
}

void TestMeasure::acrossTileBorders_data()
{
    QTest::addColumn<int>("tile");
    QTest::addColumn<int>("threads");
    QTest::addRow("64 px tiles") << 64 << 1;
    QTest::addRow("100 px tiles, 2 threads") << 100 << 2;
    QTest::addRow("256 px tiles") << 256 << 1;
}

void TestMeasure::acrossTileBorders()
{
    QFETCH(int, tile);
    QFETCH(int, threads);
    cv::Mat m = cv::Mat::zeros(700, 900, CV_8U);
    cv::line(m, {20, 30}, {880, 670}, 255, 3, cv::LINE_8);  // diagonal through many tiles
    cv::line(m, {10, 128}, {890, 128}, 255, 4, cv::LINE_8); // along a tile row border
    std::vector<cv::Point> wave;
    for (int x = 30; x <= 870; x += 3)
        wave.emplace_back(x, cvRound(520 + 60 * std::sin(x / 40.0)));
    cv::polylines(m, wave, false, 255, 2, cv::LINE_8);         // wanders in and out of tiles
    cv::rectangle(m, {300, 600}, {303, 603}, 255, cv::FILLED); // a speck (kept: 16 px < 20)
    MeasureOptions whole;
    whole.tileSize = 1024;
    const auto ref = measure(m, whole);
    MeasureOptions o;
    o.tileSize = tile;
    o.threads = threads;
    const auto r = measure(m, o);
    QCOMPARE(r.totals.cracks, ref.totals.cracks);
    QCOMPARE(r.totals.cracks, 1); // the three lines cross: one network; the speck is dropped
    QCOMPARE(r.totals.branches, ref.totals.branches);
    QCOMPARE(r.totals.areaPx, ref.totals.areaPx);
    QVERIFY2(
        std::abs(r.totals.lengthPx - ref.totals.lengthPx) < 1e-6 * ref.totals.lengthPx,
        qPrintable(QStringLiteral("%1 vs %2").arg(r.totals.lengthPx).arg(ref.totals.lengthPx)));
    QCOMPARE(r.cracks[0].box.x, ref.cracks[0].box.x);
    QCOMPARE(r.cracks[0].box.width, ref.cracks[0].box.width);
    QCOMPARE(r.cracks[0].junctions, ref.cracks[0].junctions);
    QCOMPARE(r.cracks[0].width.medianPx, ref.cracks[0].width.medianPx);

    // One-pixel diagonals that cross tiles exactly at their corners (8-connected only there).
    cv::Mat d = cv::Mat::zeros(400, 400, CV_8U);
    cv::line(d, {0, 0}, {399, 399}, 255, 1, cv::LINE_8);
    cv::line(d, {399, 0}, {0, 399}, 255, 1, cv::LINE_8);
    MeasureOptions c64 = o;
    c64.tileSize = 64;
    c64.minAreaPx = 0;
    const auto cross = measure(d, c64);
    QCOMPARE(cross.totals.cracks, 1);
    QCOMPARE(cross.cracks[0].ends, 4);
    QVERIFY(std::abs(cross.totals.lengthPx - 2 * 399 * std::sqrt(2.0)) < 0.03 * 2 * 399 * 1.41);
    QCOMPARE(cross.totals.lengthPx, measure(d, whole).totals.lengthPx);

    // A single straight crack across many tiles: counted once, with its length.
    cv::Mat s = cv::Mat::zeros(300, 900, CV_8U);
    cv::line(s, {10, 150}, {890, 150}, 255, 5, cv::LINE_8);
    const auto one = measure(s, o);
    QCOMPARE(one.totals.cracks, 1);
    QCOMPARE(one.totals.branches, 1);
    QVERIFY(std::abs(one.totals.lengthPx - 880) < 0.03 * 880);
}

void TestMeasure::emptyMap()
{
    const auto r = measure(cv::Mat::zeros(300, 200, CV_8U));
    QCOMPARE(r.totals.cracks, 0);
    QCOMPARE(r.totals.lengthPx, 0.0);
    QCOMPARE(r.totals.areaPx, uint64_t(0));
    QVERIFY(r.cracks.empty());
    QVERIFY(r.branches.empty());
    QCOMPARE(r.width, 200);
    // Below the threshold is empty too.
    const auto low = measure(cv::Mat(100, 100, CV_8U, cv::Scalar(127)));
    QCOMPARE(low.totals.cracks, 0);
}

void TestMeasure::closingAndMinimumArea()
{
    cv::Mat m = cv::Mat::zeros(200, 400, CV_8U);
    cv::rectangle(m, cv::Point(20, 99), cv::Point(198, 101), 255, cv::FILLED);
    cv::rectangle(m, cv::Point(201, 99), cv::Point(380, 101), 255, cv::FILLED); // a 2 px gap
    cv::circle(m, {50, 30}, 1, 255, cv::FILLED);                                // a 5 px speck
    MeasureOptions o;
    o.closingRadiusPx = 0;
    o.minAreaPx = 0;
    QCOMPARE(measure(m, o).totals.cracks, 3);
    o.minAreaPx = 20;
    QCOMPARE(measure(m, o).totals.cracks, 2);
    o.closingRadiusPx = 2;
    const auto r = measure(m, o);
    QCOMPARE(r.totals.cracks, 1);
    QVERIFY(std::abs(r.cracks[0].lengthPx - 360) < 0.03 * 360);
}

void TestMeasure::pixelSizeAndClasses()
{
    QTemporaryDir dir;
    cv::Mat m = cv::Mat::zeros(400, 400, CV_8U);
    bar(m, {20, 50}, {380, 50}, 1);    // 0.05 mm: hairline
    bar(m, {20, 150}, {380, 150}, 4);  // 0.2 mm: fine
    bar(m, {20, 250}, {380, 250}, 11); // 0.55 mm: medium
    const std::string path = dir.filePath(QStringLiteral("map.tif")).toStdString();
    TiffWriteOptions w;
    w.pixelSizeMm = 0.05;
    QVERIFY(writeTiff(path, toImage(m), w).isOk());
    auto r = measureCracks(path);
    QVERIFY2(r.isOk(), r.status().toString().c_str());
    QCOMPARE(r->pixelSizeSource, std::string("map"));
    QVERIFY(std::abs(r->pixelSizeMm - 0.05) < 1e-4);
    QCOMPARE(r->totals.cracks, 3);
    QCOMPARE(r->cracks[0].widthClass, 0);
    QCOMPARE(r->cracks[1].widthClass, 1);
    QCOMPARE(r->cracks[2].widthClass, 2);
    QVERIFY(std::abs(r->cracks[1].width.meanMm - 0.2) <= 0.05);
    QVERIFY(std::abs(r->cracks[0].lengthMm - r->cracks[0].lengthPx * r->pixelSizeMm) < 1e-9);
    QCOMPARE(int(r->classes.size()), 4);
    QCOMPARE(r->classes[3].cracks, 0);
    QVERIFY(r->totals.densityMPerM2 > 0);
    // Length per class adds up to the branch total.
    double perClass = 0;
    for (const auto& k : r->classes)
        perClass += k.lengthPx;
    QVERIFY(std::abs(perClass - totalBranchLength(*r)) < 1e-6);

    // The user's value wins; edited limits move the classes.
    MeasureOptions o;
    o.pixelSizeMm = 0.5;
    o.classes.upperLimitsMm = {1.0, 3.0, 100.0};
    auto u = measureCracks(path, o);
    QVERIFY(u.isOk());
    QCOMPARE(u->pixelSizeSource, std::string("option"));
    QCOMPARE(u->cracks[0].widthClass, 0); // 1 px = 0.5 mm (measured 1.5 px = 0.75 mm)
    QCOMPARE(u->cracks[1].widthClass, 1); // 4 px = 2 mm
    QCOMPARE(u->cracks[2].widthClass, 2); // 11 px = 5.5 mm

    // Without a pixel size: px only, no classes.
    const auto none = measure(m);
    QCOMPARE(none.pixelSizeSource, std::string("none"));
    QCOMPARE(none.cracks[0].widthClass, -1);
    QCOMPARE(none.cracks[0].lengthMm, -1.0);
    QVERIFY(none.classes.empty());
}

void TestMeasure::mapOfAnotherSizeThanItsScan()
{
    QTemporaryDir dir;
    const std::string map = dir.filePath(QStringLiteral("map.tif")).toStdString();
    const std::string scan = dir.filePath(QStringLiteral("scan.tif")).toStdString();
    QVERIFY(writeTiff(map, Image::make(120, 80, 1)).isOk());
    QVERIFY(writeTiff(scan, Image::make(240, 160, 3)).isOk());
    MeasureOptions o;
    o.scanPath = scan;
    auto r = measureCracks(map, o);
    QVERIFY(!r.isOk());
    QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
    QVERIFY(r.status().detail().find("120 x 80") != std::string::npos);
    QVERIFY(r.status().detail().find("240 x 160") != std::string::npos);

    // Same size: the scan's pixel size is used when the map has none.
    TiffWriteOptions w;
    w.pixelSizeMm = 0.1;
    QVERIFY(writeTiff(scan, Image::make(120, 80, 3), w).isOk());
    auto ok = measureCracks(map, o);
    QVERIFY2(ok.isOk(), ok.status().toString().c_str());
    QCOMPARE(ok->pixelSizeSource, std::string("scan"));
}

void TestMeasure::badInputs()
{
    QTemporaryDir dir;
    auto missing = measureCracks(dir.filePath(QStringLiteral("nope.tif")).toStdString());
    QCOMPARE(missing.status().code(), ErrorCode::NotFound);

    const std::string junk = dir.filePath(QStringLiteral("junk.tif")).toStdString();
    std::ofstream(junk) << "not a tiff at all";
    auto corrupt = measureCracks(junk);
    QVERIFY(!corrupt.isOk());
    QVERIFY(corrupt.status().code() == ErrorCode::Corrupt ||
            corrupt.status().code() == ErrorCode::Unsupported);

    const Image im = Image::make(50, 50, 1);
    MeasureOptions o;
    o.threshold = 0;
    QCOMPARE(measureCracks(im, o).status().code(), ErrorCode::InvalidArgument);
    o = {};
    o.pixelSizeMm = -1;
    QCOMPARE(measureCracks(im, o).status().code(), ErrorCode::InvalidArgument);
    o = {};
    o.classes.upperLimitsMm = {0.3, 0.1, 1.0};
    auto unordered = measureCracks(im, o);
    QCOMPARE(unordered.status().code(), ErrorCode::InvalidArgument);
    QVERIFY(unordered.status().detail().find("ascending") != std::string::npos);
    o = {};
    o.classes.ids = {"a", "b"};
    QCOMPARE(measureCracks(im, o).status().code(), ErrorCode::InvalidArgument);
    o = {};
    o.tileSize = 10;
    QCOMPARE(measureCracks(im, o).status().code(), ErrorCode::InvalidArgument);
    QCOMPARE(measureCracks(Image{}, {}).status().code(), ErrorCode::InvalidArgument);
}

void TestMeasure::cancelAndProgress()
{
    cv::Mat m = cv::Mat::zeros(600, 600, CV_8U);
    cv::line(m, {0, 0}, {599, 599}, 255, 3);
    MeasureOptions o;
    o.tileSize = 64;
    CancelToken cancel;
    int reports = 0;
    CallbackProgressSink sink([&](const Progress& p) {
        ++reports;
        if (p.fraction > 0 && p.fraction < 1)
            cancel.cancel(); // at the first report, after the first tile row
    });
    auto r = measureCracks(toImage(m), o, cancel, &sink);
    QCOMPARE(r.status().code(), ErrorCode::Cancelled);
    QVERIFY(reports >= 1);

    double last = -1;
    CallbackProgressSink done([&](const Progress& p) { last = p.fraction; });
    QVERIFY(measureCracks(toImage(m), o, {}, &done).isOk());
    QCOMPARE(last, 1.0);
}

void TestMeasure::exports()
{
    cv::Mat m = cv::Mat::zeros(300, 300, CV_8U);
    cv::line(m, {20, 50}, {280, 50}, 255, 3);
    cv::line(m, {20, 200}, {280, 250}, 255, 5);
    MeasureOptions o;
    o.pixelSizeMm = 0.1;
    const auto r = measure(m, o);
    QCOMPARE(r.totals.cracks, 2);
    std::istringstream csv(cracksCsv(r));
    std::string header, line;
    std::getline(csv, header);
    QVERIFY(header.rfind("id,length_px,length_mm,", 0) == 0);
    int rows = 0;
    while (std::getline(csv, line))
        ++rows;
    QCOMPARE(rows, 2);
    QVERIFY(scanCsv(r).find("class_note") != std::string::npos);
    QVERIFY(branchesCsv(r).find("crack_id") != std::string::npos);
    const auto j = nlohmann::json::parse(toJson(r));
    QCOMPARE(j["cracks"].size(), size_t(2));
    QCOMPARE(j["totals"]["cracks"].get<int>(), 2);
    QCOMPARE(j["classes"].size(), size_t(4));
    QCOMPARE(j["class_note"].get<std::string>(), std::string(kWidthClassNoteText));

    QTemporaryDir dir;
    const std::string base = dir.filePath(QStringLiteral("out.csv")).toStdString();
    QVERIFY(writeMeasureCsv(r, base).isOk());
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("out.branches.csv"))));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("out.scan.csv"))));
    QVERIFY(writeMeasureJson(r, dir.filePath(QStringLiteral("out.json")).toStdString()).isOk());
    const auto bad =
        writeMeasureJson(r, dir.filePath(QStringLiteral("no/such/dir/x.json")).toStdString());
    QVERIFY(!bad.isOk());
}

// The JSON and the CSVs are written piece by piece (no document of the whole measurement in
// memory): the text is what nlohmann's dump of the whole document gives, the files are the
// strings, and a write that fails leaves nothing.
void TestMeasure::exportsWrittenPieceByPiece()
{
    // 124 x 124 short cracks: the branch CSV passes the 1 MB at which pieces are handed on.
    cv::Mat m = cv::Mat::zeros(1992, 1992, CV_8U);
    for (int y = 8; y < 1992; y += 16)
        for (int x = 8; x < 1992; x += 16)
            cv::line(m, {x, y}, {x + 6 + (x + y) % 5, y + (x % 3)}, 255, 2);
    MeasureOptions o;
    o.pixelSizeMm = 0.1;
    o.minAreaPx = 5;
    auto r = measure(m, o);
    QCOMPARE(r.totals.cracks, 124 * 124);
    r.mapPath = "odd \"name\"\n\u00f1.tif"; // quotes, a newline, UTF-8
    for (int indent : {2, -1}) {
        const std::string text = toJson(r, indent);
        QCOMPARE(text, nlohmann::json::parse(text).dump(indent));
    }
    MeasureResult none;
    QCOMPARE(toJson(none), nlohmann::json::parse(toJson(none)).dump(2));
    QVERIFY(toJson(none).find("\"branches\": []") != std::string::npos);

    QTemporaryDir dir;
    auto path = [&](const char* name) {
        return dir.filePath(QString::fromUtf8(name)).toStdString();
    };
    auto contents = [](const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    QVERIFY(writeMeasureJson(r, path("m.json")).isOk());
    QCOMPARE(contents(path("m.json")), toJson(r));
    QVERIFY(writeMeasureCsv(r, path("m.csv")).isOk());
    QCOMPARE(contents(path("m.csv")), cracksCsv(r));
    QCOMPARE(contents(path("m.branches.csv")), branchesCsv(r));
    QVERIFY(branchesCsv(r).size() > (1u << 20));
    QCOMPARE(contents(path("m.scan.csv")), scanCsv(r));

    // A full disk after 1 MB and a bit: the error, and no file, not even a temporary.
    testing::failNextAtomicWriteAfter((1 << 20) + 5000);
    const Status full = writeMeasureJson(r, path("full.json"));
    QVERIFY(!full.isOk());
    QCOMPARE(full.code(), ErrorCode::IoError);
    QVERIFY(full.detail().rfind("disk_full", 0) == 0);
    testing::failNextAtomicWriteAfter(100);
    QVERIFY(!writeMeasureCsv(r, path("full.csv")).isOk());
    testing::failNextAtomicWriteAfter(-1);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 4);
}

void TestMeasure::widthLayer()
{
    QTemporaryDir dir;
    cv::Mat m = cv::Mat::zeros(300, 400, CV_8U);
    bar(m, {20, 50}, {380, 50}, 1);                              // 0.075 mm measured: hairline -> 1
    bar(m, {20, 150}, {380, 150}, 4);                            // 0.2 mm: fine -> 2
    bar(m, {20, 250}, {380, 250}, 11);                           // 0.55 mm: medium -> 3
    cv::rectangle(m, cv::Rect(200, 100, 3, 3), 255, cv::FILLED); // a speck: not painted
    MeasureOptions o;
    o.pixelSizeMm = 0.05;
    o.tileSize = 128;
    o.widthLayerPath = dir.filePath(QStringLiteral("layer.tif")).toStdString();
    auto r = measureCracks(toImage(m), o);
    QVERIFY2(r.isOk(), r.status().toString().c_str());
    QCOMPARE(r->widthLayerPath, o.widthLayerPath);
    auto layer = readImage(o.widthLayerPath);
    QVERIFY(layer.isOk());
    QCOMPARE(layer->width, 400);
    QCOMPARE(layer->height, 300);
    auto at = [&](int x, int y) { return int(layer->row(y)[x]); };
    QCOMPARE(at(200, 50), 1);
    QCOMPARE(at(200, 150), 2);
    QCOMPARE(at(130, 250), 3);
    QCOMPARE(at(130, 245), 3); // near the edge: the class of the nearest skeleton pixel
    QCOMPARE(at(201, 101), 0);
    QCOMPARE(at(10, 10), 0);

    // Cancelled: no layer left behind.
    const std::string other = dir.filePath(QStringLiteral("cancelled.tif")).toStdString();
    o.widthLayerPath = other;
    CancelToken cancel;
    cancel.cancel();
    QCOMPARE(measureCracks(toImage(m), o, cancel).status().code(), ErrorCode::Cancelled);
    QVERIFY(!QFile::exists(QString::fromStdString(other)));
}

void TestMeasure::thinningMatchesOpenCv()
{
    cv::RNG rng(7);
    for (int k = 0; k < 5; ++k) {
        cv::Mat m = cv::Mat::zeros(200, 200, CV_8U);
        for (int i = 0; i < 6; ++i)
            cv::line(m, {rng.uniform(0, 200), rng.uniform(0, 200)},
                     {rng.uniform(0, 200), rng.uniform(0, 200)}, 255, rng.uniform(1, 12));
        cv::circle(m, {rng.uniform(0, 200), rng.uniform(0, 200)}, rng.uniform(3, 30), 255,
                   cv::FILLED);
        const cv::Mat a = analysis::thin(m), b = analysis::thinGuoHallFallback(m);
        QCOMPARE(cv::countNonZero(a != b), 0);
    }
}

QTEST_GUILESS_MAIN(TestMeasure)
#include "tst_measure.moc"
