// Georeferenced pairs start from their georeferencing: a small later scan of a large survey, both
// GeoTIFFs in one CRS, is matched only where the georeferences say it lies. The georeference
// chooses where to look, never the model: one that is 15 m off is refuted by the features (the
// whole scans are matched instead, and the pair aligns where it truly is), and one in another
// CRS is not used. The offset between the georeference and the alignment is reported.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

#include <gdal_priv.h>
#include <ogr_spatialref.h>
#include <opencv2/imgproc.hpp>

#include "fisura/change.h"
#include "fisura/options.h"
#include "image_mat.h"

using namespace fisura;
using fisura::testing_mat::sceneTexture;

namespace
{

constexpr int kBefore = 2560;   ///< the survey's side, px
constexpr int kAfter = 640;     ///< the later scan's side, px
constexpr double kGsd = 0.01;   ///< map units (m) per before pixel
constexpr double kX0 = 440000;  ///< the survey's top-left corner, EPSG:25830
constexpr double kY0 = 4470000; ///< ...

/// The truth: after pixel a shows before pixel T a, T a similarity (3° and 1.02) placing the
/// later scan's centre at before pixel (1700, 1100).
cv::Mat truth()
{
    const double r = 3 * CV_PI / 180, s = 1.02, c = (kAfter - 1) / 2.0;
    cv::Mat T = (cv::Mat_<double>(3, 3) << s * std::cos(r), -s * std::sin(r), 0, s * std::sin(r),
                 s * std::cos(r), 0, 0, 0, 1);
    const cv::Mat centre = T * (cv::Mat_<double>(3, 1) << c, c, 1);
    T.at<double>(0, 2) = 1700 - centre.at<double>(0);
    T.at<double>(1, 2) = 1100 - centre.at<double>(1);
    return T;
}

/// GDAL's geotransform of a raster whose pixel centres map to before pixels through M (GDAL
/// counts from the pixel's corner, Fisura's centres are integers).
std::array<double, 6> geoTransformOf(const cv::Mat& M, double shiftX = 0)
{
    const cv::Mat toMap = (cv::Mat_<double>(3, 3) << kGsd, 0, kX0, 0, -kGsd, kY0, 0, 0, 1);
    const cv::Mat half = (cv::Mat_<double>(3, 3) << 1, 0, 0.5, 0, 1, 0.5, 0, 0, 1);
    const cv::Mat g = toMap * half * M * half.inv();
    return {g.at<double>(0, 2) + shiftX, g.at<double>(0, 0), g.at<double>(0, 1),
            g.at<double>(1, 2),          g.at<double>(1, 0), g.at<double>(1, 1)};
}

/// A one-band GeoTIFF of `m`, georeferenced by `gt` in `epsg` (no georeference when epsg is 0).
void writeGeoTiff(const std::string& path, const cv::Mat& m, const std::array<double, 6>& gt,
                  int epsg)
{
    GDALAllRegister();
    GDALDriver* d = GetGDALDriverManager()->GetDriverByName("GTiff");
    std::unique_ptr<GDALDataset> ds(d->Create(path.c_str(), m.cols, m.rows, 1, GDT_Byte, nullptr));
    QVERIFY(ds);
    QCOMPARE(ds->GetRasterBand(1)->RasterIO(GF_Write, 0, 0, m.cols, m.rows,
                                            const_cast<uchar*>(m.data), m.cols, m.rows, GDT_Byte, 0,
                                            int(m.step)),
             CE_None);
    if (epsg == 0)
        return;
    double g[6];
    std::copy(gt.begin(), gt.end(), g);
    QCOMPARE(ds->SetGeoTransform(g), CE_None);
    OGRSpatialReference srs;
    srs.importFromEPSG(epsg);
    QCOMPARE(ds->SetSpatialRef(&srs), CE_None);
}

struct Pair {
    std::string before, after;
};

/// The survey and the later scan (other exposure), the later one georeferenced `offsetM` map
/// units east of where it is, in `afterEpsg` (0: not georeferenced).
Pair writePair(const QTemporaryDir& dir, double offsetM, int afterEpsg)
{
    Pair p{dir.filePath(QStringLiteral("before.tif")).toStdString(),
           dir.filePath(QStringLiteral("after.tif")).toStdString()};
    const cv::Mat survey = sceneTexture(7, kBefore);
    cv::Mat gray, later;
    if (survey.channels() == 1)
        gray = survey;
    else
        cv::cvtColor(survey, gray,
                     survey.channels() == 3 ? cv::COLOR_RGB2GRAY : cv::COLOR_RGBA2GRAY);
    const cv::Mat T = truth();
    cv::warpPerspective(gray, later, T, cv::Size(kAfter, kAfter),
                        cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REFLECT);
    later.convertTo(later, -1, 0.8, 25);
    writeGeoTiff(p.before, gray, geoTransformOf(cv::Mat::eye(3, 3, CV_64F)), 25830);
    writeGeoTiff(p.after, later, geoTransformOf(T, offsetM), afterEpsg);
    return p;
}

/// RMS over a grid of after pixels of the distance between the truth's before pixel and the
/// alignment's.
double registrationRms(const AlignResult& r)
{
    const cv::Mat T = truth();
    const cv::Mat H(3, 3, CV_64F, const_cast<double*>(r.matrix.data()));
    double sum = 0;
    int n = 0;
    for (int y = 0; y < kAfter; y += 32)
        for (int x = 0; x < kAfter; x += 32) {
            const cv::Mat a = (cv::Mat_<double>(3, 1) << x, y, 1);
            cv::Mat t = T * a, h = H * a;
            t /= t.at<double>(2), h /= h.at<double>(2);
            sum += std::pow(t.at<double>(0) - h.at<double>(0), 2) +
                   std::pow(t.at<double>(1) - h.at<double>(1), 2);
            ++n;
        }
    return std::sqrt(sum / n);
}

} // namespace

class TestChangeGeoref : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsWhereTheGeoreferenceSays_data();
    void startsWhereTheGeoreferenceSays();
    void georeferenceFindsTheSmallScan();
    void settingNames();
};

void TestChangeGeoref::startsWhereTheGeoreferenceSays_data()
{
    QTest::addColumn<double>("offsetM");
    QTest::addColumn<int>("afterEpsg");
    QTest::addColumn<int>("start");
    QTest::addColumn<double>("offsetPx"); ///< -1: none reported
    QTest::newRow("right") << 0.0 << 25830 << int(AlignStart::Georeference) << 0.0;
    QTest::newRow("15 m off") << 15.0 << 25830 << int(AlignStart::GeoreferenceRefuted) << 1500.0;
    QTest::newRow("other CRS") << 0.0 << 25831 << int(AlignStart::GeoreferenceOtherCrs) << -1.0;
    QTest::newRow("later scan not georeferenced") << 0.0 << 0 << int(AlignStart::Features) << -1.0;
}

void TestChangeGeoref::startsWhereTheGeoreferenceSays()
{
    QFETCH(double, offsetM);
    QFETCH(int, afterEpsg);
    QFETCH(int, start);
    QFETCH(double, offsetPx);
    QTemporaryDir dir;
    const Pair p = writePair(dir, offsetM, afterEpsg);
    auto r = alignScans(p.before, p.after, AlignOptions{});
    QVERIFY2(r.isOk(), r.status().toString().c_str());
    const double rms = registrationRms(*r);
    qInfo("start %s, %d of %d matches, residual %.2f px, truth rms %.3f px, georeference offset "
          "%.1f px",
          alignStartName(r->start), r->inliers, r->matches, r->rmsPx, rms, r->georeferenceOffsetPx);
    QCOMPARE(int(r->start), start);
    QVERIFY2(rms <= 1.0, qPrintable(QString::number(rms))); // the features decided, not the start
    if (offsetPx < 0) {
        QCOMPARE(r->georeferenceOffsetPx, -1.0);
    } else {
        QVERIFY2(std::abs(r->georeferenceOffsetPx - offsetPx) < 2.0,
                 qPrintable(QString::number(r->georeferenceOffsetPx)));
        QCOMPARE(r->georeferenceUnitsPerPx, kGsd);
    }
    ChangeResult cr;
    cr.alignment = *r;
    const std::string json = changeJson(cr);
    QVERIFY(json.find(std::string("\"start\": \"") + alignStartName(r->start) + "\"") !=
            std::string::npos);
}

void TestChangeGeoref::georeferenceFindsTheSmallScan()
{
    // Coarse overviews of 512 px: the whole survey's overview shows the later scan at a sixth of
    // its size, too small to match; where the georeference says it lies, it is matched.
    QTemporaryDir dir;
    const Pair p = writePair(dir, 0.0, 25830);
    AlignOptions o;
    o.overviewSide = 512;
    auto geo = alignScans(p.before, p.after, o);
    QVERIFY2(geo.isOk(), geo.status().toString().c_str());
    QCOMPARE(geo->start, AlignStart::Georeference);
    QVERIFY(registrationRms(*geo) <= 1.0);
    o.georeference = AlignGeoreference::Off;
    auto whole = alignScans(p.before, p.after, o);
    qInfo("whole scans: %s", whole ? "aligned" : whole.status().toString().c_str());
    QVERIFY(!whole || registrationRms(*whole) > 1.0);
}

void TestChangeGeoref::settingNames()
{
    for (AlignGeoreference g : {AlignGeoreference::Auto, AlignGeoreference::Off}) {
        auto back = alignGeoreferenceFromName(alignGeoreferenceName(g));
        QVERIFY(back.isOk());
        QCOMPARE(*back, g);
    }
    QCOMPARE(alignGeoreferenceFromName("on").status().code(), ErrorCode::InvalidArgument);
    QCOMPARE(QString::fromStdString(optionRangeText(compareOption("align.georeference"))),
             QStringLiteral("auto or off"));
    AlignOptions bad;
    bad.georeference = AlignGeoreference(9);
    const Status s = validate(bad);
    QVERIFY2(s.detail().rfind("align.georeference ", 0) == 0, s.detail().c_str());
    QCOMPARE(std::string(alignStartName(AlignStart::GeoreferenceRefuted)), "georeference_refuted");
}

QTEST_GUILESS_MAIN(TestChangeGeoref)
#include "tst_change_georef.moc"
