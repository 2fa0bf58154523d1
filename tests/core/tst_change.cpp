// Inspections over time on generated pairs with known truth: a textured surface with cracks, and
// a second date warped by a known similarity or homography with other lighting, where some cracks
// grew longer, some wider and some are new. Registration within 1 px of the truth; every new
// crack found and none invented; length growth within 3 px (or 3 %), width growth within 0.5 px.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>
#include <memory>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>
#include <opencv2/imgproc.hpp>

#include "drawn_cracks.h"
#include "fisura/change.h"
#include "fisura/synth.h"
#include "fisura/vectorexport.h"
#include "image_mat.h"

using namespace fisura;
using fisura::testing_mat::asMat;
using fisura::testing_mat::sceneTexture;
using fisura::testing_mat::toImage;

namespace
{

constexpr int kSize = 1600;
constexpr double kWidth = 3.0;

cv::Mat texture(uint64_t seed)
{
    cv::Mat t = sceneTexture(seed, kSize);
    if (t.empty())
        qFatal("synth failed");
    return t;
}

/// One crack of the truth: a straight segment centred in a cell of a 4 x 4 grid.
struct TruthCrack {
    cv::Point2d a, b;
    double extendPx = 0; ///< the second date: longer at b by this much
    double widenPx = 0;  ///< the second date: this much wider
    bool isNew = false;  ///< only in the second date
    cv::Point2d mid() const { return (a + b) / 2; }
};

std::vector<TruthCrack> truthCracks()
{
    std::vector<TruthCrack> t;
    for (int k = 0; k < 16; ++k) {
        const cv::Point2d c(400 + 250 * (k % 4), 400 + 250 * (k / 4));
        const double angle = (17 + 37 * k) % 180 * CV_PI / 180;
        const cv::Point2d d(std::cos(angle), std::sin(angle));
        TruthCrack tc{c - 60 * d, c + 60 * d};
        if (k < 3)
            tc.extendPx = 40 + 20 * k;
        else if (k < 6)
            tc.widenPx = 2;
        else if (k >= 10)
            tc.isNew = true;
        t.push_back(tc);
    }
    return t;
}

/// Draws the cracks of one date into the scan (darkened) and the mask.
void drawDate(cv::Mat& scan, cv::Mat& mask, const std::vector<TruthCrack>& cracks, bool second)
{
    mask = cv::Mat::zeros(scan.size(), CV_8UC1);
    for (const auto& c : cracks) {
        if (c.isNew && !second)
            continue;
        const cv::Point2d d = (c.b - c.a) / cv::norm(c.b - c.a);
        const cv::Point2d b = second ? c.b + c.extendPx * d : c.b;
        test::bar(mask, c.a, b, second ? kWidth + c.widenPx : kWidth);
    }
    cv::Mat dark = scan * 0.35;
    dark.copyTo(scan, mask);
}

struct Warp {
    double rotationDeg = 0, scale = 1, tx = 0, ty = 0, perspective = 0;
    /// after -> before, about the image centre.
    cv::Mat matrix() const
    {
        const double c = kSize / 2.0, a = rotationDeg * CV_PI / 180;
        cv::Mat T = (cv::Mat_<double>(3, 3) << scale * std::cos(a), -scale * std::sin(a), 0,
                     scale * std::sin(a), scale * std::cos(a), 0, perspective, 0, 1);
        cv::Mat C = (cv::Mat_<double>(3, 3) << 1, 0, -c, 0, 1, -c, 0, 0, 1);
        cv::Mat Cb = (cv::Mat_<double>(3, 3) << 1, 0, c + tx, 0, 1, c + ty, 0, 0, 1);
        return Cb * T * C;
    }
};

cv::Point2d applyH(const cv::Mat& H, cv::Point2d p)
{
    const double w = H.at<double>(2, 0) * p.x + H.at<double>(2, 1) * p.y + H.at<double>(2, 2);
    return {(H.at<double>(0, 0) * p.x + H.at<double>(0, 1) * p.y + H.at<double>(0, 2)) / w,
            (H.at<double>(1, 0) * p.x + H.at<double>(1, 1) * p.y + H.at<double>(1, 2)) / w};
}

/// The second date as the camera saw it: warped (after pixel x shows truth at T x), another
/// exposure (contrast 0.75, +30) and a lighting gradient.
cv::Mat secondDate(const cv::Mat& truth, const Warp& w, int interpolation)
{
    cv::Mat out;
    cv::warpPerspective(truth, out, w.matrix(), truth.size(), interpolation | cv::WARP_INVERSE_MAP,
                        cv::BORDER_REFLECT);
    if (truth.channels() == 1)
        return out;
    cv::Mat f;
    out.convertTo(f, CV_32F, 0.75, 30);
    for (int y = 0; y < f.rows; ++y)
        f.row(y) += cv::Scalar::all(20.0 * y / f.rows);
    f.convertTo(out, CV_8U);
    return out;
}

struct Pair {
    QString before, beforeMap, after, afterMap;
};

Pair writePair(const QTemporaryDir& dir, const Warp& w, uint64_t seed)
{
    const auto cracks = truthCracks();
    cv::Mat first = texture(seed), firstMask, second = first.clone(), secondMask;
    drawDate(first, firstMask, cracks, false);
    drawDate(second, secondMask, cracks, true);
    Pair p{
        dir.filePath(QStringLiteral("before.tif")), dir.filePath(QStringLiteral("before_map.tif")),
        dir.filePath(QStringLiteral("after.tif")), dir.filePath(QStringLiteral("after_map.tif"))};
    const auto write = [](const QString& path, const cv::Mat& m) {
        if (!writeTiff(path.toStdString(), toImage(m)))
            qFatal("cannot write %s", qPrintable(path));
    };
    write(p.before, first);
    write(p.beforeMap, firstMask);
    write(p.after, secondDate(second, w, cv::INTER_LINEAR));
    write(p.afterMap, secondDate(secondMask, w, cv::INTER_LINEAR));
    return p;
}

/// RMS distance between the found and the true model over the after pixels inside both scans.
double registrationRms(const AlignResult& r, const cv::Mat& truth)
{
    const cv::Mat H(3, 3, CV_64F, const_cast<double*>(r.matrix.data()));
    double sum = 0;
    int n = 0;
    for (int y = 0; y <= kSize; y += 100)
        for (int x = 0; x <= kSize; x += 100) {
            const cv::Point2d t = applyH(truth, {double(x), double(y)});
            if (t.x < 0 || t.y < 0 || t.x >= kSize || t.y >= kSize)
                continue;
            const cv::Point2d d = applyH(H, {double(x), double(y)}) - t;
            sum += d.dot(d), ++n;
        }
    return std::sqrt(sum / std::max(1, n));
}

const CrackChange* changeAt(const ChangeResult& r, cv::Point2d p, bool afterSide)
{
    for (const auto& c : r.changes)
        if ((c.afterId > 0) == afterSide && p.x >= c.box.x - 2 && p.y >= c.box.y - 2 &&
            p.x <= c.box.x + c.box.width + 2 && p.y <= c.box.y + c.box.height + 2)
            return &c;
    return nullptr;
}

} // namespace

class TestChange : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void alignsAndClassifies_data();
    void alignsAndClassifies();
    void unrelatedScansFail();
    void refusedPairs_data();
    void refusedPairs();
    void scanTooSmall_data();
    void scanTooSmall();
    void mapOfAnotherSize();
    void cancelled();
    void modelNames();
    void millimetresNullOnlyWithoutPixelSize();
};

/// The changes written as a GeoPackage and read back with OGR: one feature per change with its
/// kind, the kinds' counts as the totals, and each new crack's lines around its drawn middle
/// (millimetres from the top-left corner, y up).
void checkChangeVectors(const ChangeResult& r, const QTemporaryDir& dir)
{
    const std::string path = dir.filePath(QStringLiteral("changes.gpkg")).toStdString();
    auto v = exportChangeVectors(r, path);
    QVERIFY2(v.isOk(), v.status().toString().c_str());
    QCOMPARE(v->coordinates, CoordinateKind::Millimetres);
    QCOMPARE(v->cracks, int(r.changes.size()));
    GDALAllRegister();
    std::unique_ptr<GDALDataset> ds(
        GDALDataset::Open(path.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY));
    QVERIFY(ds);
    OGRLayer* layer = ds->GetLayerByName("changes");
    QVERIFY(layer);
    QCOMPARE(int(layer->GetFeatureCount()), int(r.changes.size()));
    std::array<int, 5> counts{};
    std::vector<OGREnvelope> fresh;
    layer->ResetReading();
    while (std::unique_ptr<OGRFeature> f{layer->GetNextFeature()}) {
        const std::string kind = f->GetFieldAsString("change");
        for (int k = 0; k < 5; ++k)
            counts[size_t(k)] += kind == changeKindName(ChangeKind(k));
        QVERIFY(f->GetGeometryRef() && !f->GetGeometryRef()->IsEmpty());
        if (kind == "new") {
            OGREnvelope e;
            f->GetGeometryRef()->getEnvelope(&e);
            fresh.push_back(e);
            QVERIFY(f->GetFieldAsDouble("len_mm") > 0);
        }
    }
    for (int k = 0; k < 5; ++k)
        QCOMPARE(counts[size_t(k)], r.totals[size_t(k)].count);
    for (const auto& t : truthCracks())
        if (t.isNew) {
            const double x = t.mid().x * 0.1, y = -t.mid().y * 0.1;
            bool found = false;
            for (const OGREnvelope& e : fresh)
                found = found || (x >= e.MinX - 0.5 && x <= e.MaxX + 0.5 && y >= e.MinY - 0.5 &&
                                  y <= e.MaxY + 0.5);
            QVERIFY2(found, qPrintable(QStringLiteral("no new line at %1, %2").arg(x).arg(y)));
        }
    // DXF: a CAD layer per kind of change.
    const QString dxf = dir.filePath(QStringLiteral("changes.dxf"));
    QVERIFY(exportChangeVectors(r, dxf.toStdString()).isOk());
    QFile f(dxf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    for (const char* layerName : {"fisura_new", "fisura_grown", "fisura_unchanged"})
        QVERIFY2(text.contains(layerName), layerName);
}

void TestChange::alignsAndClassifies_data()
{
    QTest::addColumn<double>("rotation");
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("tx");
    QTest::addColumn<double>("ty");
    QTest::addColumn<double>("perspective");
    QTest::addColumn<QString>("model");
    QTest::newRow("7 deg, +6 %, auto")
        << 7.0 << 1.06 << 35.0 << -25.0 << 0.0 << QStringLiteral("auto");
    QTest::newRow("-10 deg, -9 %, similarity")
        << -10.0 << 0.91 << -20.0 << 40.0 << 0.0 << QStringLiteral("similarity");
    QTest::newRow("3 deg, +4 %, tilted, homography")
        << 3.0 << 1.04 << 10.0 << 15.0 << 2e-5 << QStringLiteral("homography");
}

void TestChange::alignsAndClassifies()
{
    QFETCH(double, rotation);
    QFETCH(double, scale);
    QFETCH(double, tx);
    QFETCH(double, ty);
    QFETCH(double, perspective);
    QFETCH(QString, model);
    QTemporaryDir dir;
    const Warp w{rotation, scale, tx, ty, perspective};
    const Pair p = writePair(dir, w, 7);

    AlignOptions ao;
    ao.model = *alignModelFromName(model.toStdString());
    auto al = alignScans(p.before.toStdString(), p.after.toStdString(), ao);
    QVERIFY2(al.isOk(), al.status().toString().c_str());
    const double rms = registrationRms(*al, w.matrix());
    qInfo("model %s, %d matches, %d inliers, %d/%d windows, fit rms %.3f px, truth rms %.3f px, "
          "overlap %.2f",
          alignModelName(al->model), al->matches, al->inliers, al->refined, al->windows, al->rmsPx,
          rms, al->overlap);
    QVERIFY(rms <= 1.0);
    QVERIFY(al->inliers >= ao.minInliers);
    QCOMPARE(int(al->regions.size()), ao.regionGrid * ao.regionGrid);
    if (model == QLatin1String("auto"))
        QCOMPARE(al->model, AlignModel::Similarity);

    const std::string aligned = dir.filePath(QStringLiteral("aligned.tif")).toStdString();
    QVERIFY(warpMapToBefore(p.afterMap.toStdString(), *al, aligned).isOk());
    CompareOptions co;
    co.measure.pixelSizeMm = 0.1;
    auto r = compareCrackMaps(p.beforeMap.toStdString(), aligned, *al, co);
    QVERIFY2(r.isOk(), r.status().toString().c_str());

    int newFound = 0, newTruth = 0;
    double worstGain = 0, worstWidth = 0;
    for (const auto& t : truthCracks()) {
        const CrackChange* c = changeAt(*r, t.mid(), true);
        QVERIFY2(c, "a crack of the second date was not measured");
        if (t.isNew) {
            ++newTruth;
            newFound += c->kind == ChangeKind::New;
        } else if (t.extendPx > 0) {
            QCOMPARE(c->kind, ChangeKind::Grown);
            worstGain = std::max(worstGain, std::abs(c->lengthGainPx - t.extendPx));
            QVERIFY2(std::abs(c->lengthGainPx - t.extendPx) <= std::max(3.0, 0.03 * t.extendPx),
                     qPrintable(QStringLiteral("%1 vs %2").arg(c->lengthGainPx).arg(t.extendPx)));
        } else if (t.widenPx > 0) {
            QCOMPARE(c->kind, ChangeKind::Grown);
            worstWidth = std::max(worstWidth, std::abs(c->widthChangePx - t.widenPx));
            QVERIFY2(std::abs(c->widthChangePx - t.widenPx) <= 0.5,
                     qPrintable(QString::number(c->widthChangePx)));
        } else {
            QCOMPARE(c->kind, ChangeKind::Unchanged);
        }
    }
    const int reportedNew = r->totals[size_t(ChangeKind::New)].count;
    qInfo("new: %d of %d found, %d reported; worst length-gain error %.2f px, worst width-change "
          "error %.2f px",
          newFound, newTruth, reportedNew, worstGain, worstWidth);
    QVERIFY(newFound >= 0.95 * newTruth);
    QVERIFY(reportedNew - newFound <= 0.05 * reportedNew);
    QCOMPARE(r->totals[size_t(ChangeKind::Gone)].count, 0);
    QVERIFY(r->widestIndex >= 0);
    QVERIFY(r->changes[size_t(r->widestIndex)].afterMaxWidthPx >= kWidth + 1.5);
    QVERIFY(changeJson(*r).find("\"grown\"") != std::string::npos);
    QVERIFY(changeCsv(*r).rfind("change,after_id", 0) == 0);
    checkChangeVectors(*r, dir);
}

void TestChange::unrelatedScansFail()
{
    QTemporaryDir dir;
    const auto a = dir.filePath(QStringLiteral("a.tif")).toStdString(),
               b = dir.filePath(QStringLiteral("b.tif")).toStdString();
    QVERIFY(writeTiff(a, toImage(texture(1))).isOk());
    QVERIFY(writeTiff(b, toImage(texture(2))).isOk());
    auto r = alignScans(a, b);
    QVERIFY(!r.isOk());
    QCOMPARE(r.status().code(), ErrorCode::AlignNotSameSurface);
}

// Pairs that align with the default options, refused once one option is tightened: each
// refusal has its own code. Shifted by 1100 px, the later scan covers about 30 % of the earlier
// one; refinement windows as large as the scans all leave it.
void TestChange::refusedPairs_data()
{
    QTest::addColumn<int>("seed");
    QTest::addColumn<double>("rotationDeg");
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("tx");
    QTest::addColumn<double>("minOverlap");
    QTest::addColumn<double>("maxScaleChange");
    QTest::addColumn<int>("windowPx");
    QTest::addColumn<int>("expected"); // an ErrorCode
    const AlignOptions d;
    QTest::newRow("too little overlap") << 3 << 0.0 << 1.0 << 1100.0 << 0.5 << d.maxScaleChange
                                        << d.windowPx << int(ErrorCode::AlignNoOverlap);
    QTest::newRow("implausible scale") << 4 << 2.0 << 1.08 << 0.0 << d.minOverlap << 1.05
                                       << d.windowPx << int(ErrorCode::AlignDegenerateModel);
    QTest::newRow("windows outside the later scan")
        << 3 << 0.0 << 1.0 << 1100.0 << d.minOverlap << d.maxScaleChange << 2048
        << int(ErrorCode::AlignTooFewWindows);
}

void TestChange::refusedPairs()
{
    QFETCH(int, seed);
    QFETCH(double, rotationDeg);
    QFETCH(double, scale);
    QFETCH(double, tx);
    QFETCH(double, minOverlap);
    QFETCH(double, maxScaleChange);
    QFETCH(int, windowPx);
    QFETCH(int, expected);
    QTemporaryDir dir;
    const cv::Mat t = texture(seed);
    const auto a = dir.filePath(QStringLiteral("a.tif")).toStdString(),
               b = dir.filePath(QStringLiteral("b.tif")).toStdString();
    QVERIFY(writeTiff(a, toImage(t)).isOk());
    const Warp w{rotationDeg, scale, tx, 0, 0};
    QVERIFY(writeTiff(b, toImage(secondDate(t, w, cv::INTER_LINEAR))).isOk());
    QVERIFY(alignScans(a, b, AlignOptions{}).isOk());
    AlignOptions o;
    o.minOverlap = minOverlap;
    o.maxScaleChange = maxScaleChange;
    o.windowPx = windowPx;
    auto r = alignScans(a, b, o);
    QVERIFY(!r.isOk());
    QCOMPARE(QString::fromLatin1(errorCodeName(r.status().code())),
             QString::fromLatin1(errorCodeName(ErrorCode(expected))));
}

void TestChange::scanTooSmall_data()
{
    QTest::addColumn<bool>("smallBefore");
    QTest::newRow("earlier") << true;
    QTest::newRow("later") << false;
}

void TestChange::scanTooSmall()
{
    QFETCH(bool, smallBefore);
    QTemporaryDir dir;
    const cv::Mat t = texture(5);
    const cv::Mat small = t(cv::Rect(100, 100, kMinAlignSidePx + 40, kMinAlignSidePx - 1)).clone();
    const auto a = dir.filePath(QStringLiteral("a.tif")).toStdString(),
               b = dir.filePath(QStringLiteral("b.tif")).toStdString();
    QVERIFY(writeTiff(a, toImage(smallBefore ? small : t)).isOk());
    QVERIFY(writeTiff(b, toImage(smallBefore ? t : small)).isOk());
    auto r = alignScans(a, b);
    QVERIFY(!r.isOk());
    QCOMPARE(r.status().code(), ErrorCode::AlignScanTooSmall);
    QVERIFY2(r.status().detail().find(smallBefore ? a : b) != std::string::npos,
             r.status().detail().c_str());
}

// A later map that is not its scan's size cannot be warped, and maps on different grids cannot
// be compared: MapSizeMismatch, nothing written.
void TestChange::mapOfAnotherSize()
{
    QTemporaryDir dir;
    const auto map = dir.filePath(QStringLiteral("map.tif")).toStdString(),
               other = dir.filePath(QStringLiteral("other.tif")).toStdString(),
               out = dir.filePath(QStringLiteral("aligned.tif")).toStdString();
    QVERIFY(writeTiff(map, toImage(cv::Mat(cv::Size(200, 150), CV_8UC1, cv::Scalar(0)))).isOk());
    QVERIFY(writeTiff(other, toImage(cv::Mat(cv::Size(180, 150), CV_8UC1, cv::Scalar(0)))).isOk());
    AlignResult al;
    al.beforeWidth = al.afterWidth = 200;
    al.beforeHeight = al.afterHeight = 150;
    QVERIFY(warpMapToBefore(map, al, out).isOk());
    QCOMPARE(warpMapToBefore(other, al, dir.filePath(QStringLiteral("x.tif")).toStdString()).code(),
             ErrorCode::MapSizeMismatch);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.tif"))));
    QVERIFY(compareCrackMaps(map, out, al, {}).isOk());
    QCOMPARE(compareCrackMaps(map, other, al, {}).status().code(), ErrorCode::MapSizeMismatch);
}

void TestChange::cancelled()
{
    QTemporaryDir dir;
    const Pair p = writePair(dir, Warp{5, 1.02, 10, 10, 0}, 9);
    CancelToken cancel;
    cancel.cancel();
    auto al = alignScans(p.before.toStdString(), p.after.toStdString(), {}, cancel);
    QCOMPARE(al.status().code(), ErrorCode::Cancelled);
    auto ok = alignScans(p.before.toStdString(), p.after.toStdString());
    QVERIFY(ok.isOk());
    const std::string aligned = dir.filePath(QStringLiteral("aligned.tif")).toStdString();
    QCOMPARE(warpMapToBefore(p.afterMap.toStdString(), *ok, aligned, {}, cancel).code(),
             ErrorCode::Cancelled);
    QVERIFY(!QFile::exists(QString::fromStdString(aligned)));
    QVERIFY(warpMapToBefore(p.afterMap.toStdString(), *ok, aligned).isOk());
    QCOMPARE(compareCrackMaps(p.beforeMap.toStdString(), aligned, *ok, {}, cancel).status().code(),
             ErrorCode::Cancelled);
}

void TestChange::modelNames()
{
    QCOMPARE(*alignModelFromName("homography"), AlignModel::Homography);
    QCOMPARE(alignModelFromName("rigid").status().code(), ErrorCode::InvalidArgument);
    QCOMPARE(std::string(changeKindName(ChangeKind::Gone)), std::string("gone"));
    QCOMPARE(std::string(errorCodeName(ErrorCode::AlignNoOverlap)),
             std::string("align_no_overlap"));
    QCOMPARE(std::string(errorCodeName(ErrorCode::MapSizeMismatch)),
             std::string("map_size_mismatch"));
}

// A crack that shrank by exactly 1 mm is -1 mm in JSON and CSV, not "unknown" (the value -1
// marks an unknown millimetre field); without a pixel size the fields are null / empty.
void TestChange::millimetresNullOnlyWithoutPixelSize()
{
    ChangeResult r;
    CrackChange c;
    c.kind = ChangeKind::Grown;
    c.lengthGainPx = -10;
    c.lengthGainMm = -1;
    c.widthChangeMm = -1;
    r.changes.push_back(c);
    r.before.pixelSizeMm = 0.1;
    std::string json = changeJson(r);
    QVERIFY2(json.find("\"length_gain_mm\": -1.0") != std::string::npos, json.c_str());
    QVERIFY(changeCsv(r).find(",-1.0000,") != std::string::npos);
    r.before.pixelSizeMm = 0;
    json = changeJson(r);
    QVERIFY2(json.find("\"length_gain_mm\": null") != std::string::npos, json.c_str());
}

QTEST_GUILESS_MAIN(TestChange)
#include "tst_change.moc"
