// The correction field of the alignment on generated pairs with known truth: the second date is
// the first seen through a similarity and a smooth non-planar displacement (a surface that
// bulged), so no single model registers it; with the field the registration is within 1 px of
// the truth, without it several px off. A planar pair gets no field and keeps its accuracy.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <optional>

#include <opencv2/imgproc.hpp>

#include "change/change_internal.h"
#include "fisura/change.h"
#include "fisura/image.h"
#include "fisura/options.h"
#include "image_mat.h"

using namespace fisura;
using fisura::testing_mat::asMat;
using fisura::testing_mat::sceneTexture;
using fisura::testing_mat::toImage;

namespace
{

constexpr int kSize = 1600;

/// The truth: after pixel a shows before pixel S a + b(S a), S a similarity about the centre and
/// b a displacement of `bulgePx` amplitude, one period across the scan.
struct Truth {
    double bulgePx = 0;
    cv::Point2d similarity(cv::Point2d a) const
    {
        const double c = kSize / 2.0, r = 4 * CV_PI / 180, s = 1.03;
        const cv::Point2d d = a - cv::Point2d(c, c);
        return {c + 20 + s * (std::cos(r) * d.x - std::sin(r) * d.y),
                c - 15 + s * (std::sin(r) * d.x + std::cos(r) * d.y)};
    }
    cv::Point2d bulge(cv::Point2d q) const
    {
        return {bulgePx * std::sin(2 * CV_PI * q.y / kSize),
                0.8 * bulgePx * std::sin(2 * CV_PI * q.x / kSize + 0.5)};
    }
    cv::Point2d beforeOf(cv::Point2d a) const
    {
        const cv::Point2d q = similarity(a);
        return q + bulge(q);
    }
    /// The second date of `first` (other exposure for scans when `relight`).
    cv::Mat secondDate(const cv::Mat& first, int interpolation, bool relight) const
    {
        cv::Mat mx(kSize, kSize, CV_32F), my(kSize, kSize, CV_32F);
        for (int y = 0; y < kSize; ++y)
            for (int x = 0; x < kSize; ++x) {
                const cv::Point2d p = beforeOf({double(x), double(y)});
                mx.at<float>(y, x) = float(p.x), my.at<float>(y, x) = float(p.y);
            }
        cv::Mat out;
        cv::remap(first, out, mx, my, interpolation, cv::BORDER_REFLECT);
        if (relight)
            out.convertTo(out, -1, 0.8, 25);
        return out;
    }
};

/// Thin lines every 80 px: a map whose overlap after warping shows registration errors.
cv::Mat lineMap()
{
    cv::Mat m = cv::Mat::zeros(kSize, kSize, CV_8UC1);
    for (int k = 40; k < kSize; k += 80) {
        cv::line(m, {k, 0}, {k, kSize - 1}, cv::Scalar(255), 3);
        cv::line(m, {0, k}, {kSize - 1, k}, cv::Scalar(255), 3);
    }
    return m;
}

struct Pair {
    std::string before, after, beforeMap, afterMap;
};

Pair writePair(const QTemporaryDir& dir, const Truth& t)
{
    const auto path = [&](const char* name) {
        return dir.filePath(QString::fromLatin1(name)).toStdString();
    };
    Pair p{path("before.tif"), path("after.tif"), path("before_map.tif"), path("after_map.tif")};
    const cv::Mat first = sceneTexture(11, kSize);
    if (first.empty())
        qFatal("synth failed");
    const cv::Mat map = lineMap();
    const auto write = [](const std::string& f, const cv::Mat& m) {
        if (!writeTiff(f, toImage(m)))
            qFatal("cannot write %s", f.c_str());
    };
    write(p.before, first);
    write(p.after, t.secondDate(first, cv::INTER_LINEAR, true));
    write(p.beforeMap, map);
    write(p.afterMap, t.secondDate(map, cv::INTER_NEAREST, false));
    return p;
}

/// RMS over a grid of after pixels a whose truth lies in the before scan, `margin` px or more
/// from its border, of the distance between a and the after pixel the alignment assigns to a's
/// true before pixel.
double registrationRms(const AlignResult& r, const Truth& t, double margin = 0)
{
    double sum = 0;
    int n = 0;
    for (int y = 0; y < kSize; y += 40)
        for (int x = 0; x < kSize; x += 40) {
            const cv::Point2d p = t.beforeOf({double(x), double(y)});
            if (p.x < margin || p.y < margin || p.x > kSize - 1 - margin ||
                p.y > kSize - 1 - margin)
                continue;
            const auto a = afterPixelOf(r, p.x, p.y);
            const cv::Point2d d(a[0] - x, a[1] - y);
            sum += d.dot(d), ++n;
        }
    return std::sqrt(sum / std::max(1, n));
}

/// Intersection over union of the before map and the after map warped onto it.
double warpedOverlap(const QTemporaryDir& dir, const Pair& p, const AlignResult& r)
{
    const std::string out = dir.filePath(QStringLiteral("warped.tif")).toStdString();
    WarpMapOptions wo;
    wo.nearest = true;
    wo.tileSize = 256; // several tiles, the field's maps built per tile
    if (const Status s = warpMapToBefore(p.afterMap, r, out, wo); !s)
        qFatal("%s", s.toString().c_str());
    auto warped = readImage(out);
    auto before = readImage(p.beforeMap);
    if (!warped || !before)
        qFatal("cannot read the maps back");
    const cv::Mat a = asMat(*warped) > 0, b = asMat(*before) > 0;
    // Away from the border, where the after scan's reflected edge does not reach.
    const cv::Rect inner(100, 100, kSize - 200, kSize - 200);
    return double(cv::countNonZero(a(inner) & b(inner))) /
           std::max(1, cv::countNonZero(a(inner) | b(inner)));
}

/// `p` aligned with the default options (field: auto) and with the field off; a failure fails
/// the calling test and leaves the results empty.
void alignBothWays(const Pair& p, std::optional<AlignResult>& with,
                   std::optional<AlignResult>& without)
{
    AlignOptions ao;
    auto a = alignScans(p.before, p.after, ao);
    QVERIFY2(a.isOk(), a.status().toString().c_str());
    ao.field = AlignField::Off;
    auto b = alignScans(p.before, p.after, ao);
    QVERIFY2(b.isOk(), b.status().toString().c_str());
    with = *a;
    without = *b;
}

} // namespace

class TestChangeField : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bulgedSurfaceNeedsTheField();
    void planarSurfaceGetsNoField();
    void badWindowsAreRejected();
    void settingNames();
};

void TestChangeField::bulgedSurfaceNeedsTheField()
{
    QTemporaryDir dir;
    const Truth t{5.0};
    const Pair p = writePair(dir, t);
    const AlignOptions ao;
    std::optional<AlignResult> with, without;
    alignBothWays(p, with, without);
    QVERIFY(with && without);

    // Where the windows measured the surface (within their outer centres, half a window from
    // the border), and everywhere: beyond the windows the field is extrapolated.
    const double inner = ao.windowPx / 2.0;
    const double rmsWith = registrationRms(*with, t, inner);
    const double rmsWithout = registrationRms(*without, t, inner);
    const double rmsAllWith = registrationRms(*with, t),
                 rmsAllWithout = registrationRms(*without, t);
    const CorrectionField& f = with->field;
    const double iouWith = warpedOverlap(dir, p, *with),
                 iouWithout = warpedOverlap(dir, p, *without);
    qInfo("model %s; field: %d nodes, %d rejected, largest %.2f px, window residual %.2f -> %.2f "
          "px; truth rms %.3f px with, %.3f px without (whole scan: %.3f, %.3f); map overlap %.3f "
          "with, %.3f without",
          alignModelName(with->model), f.nodes, f.rejected, f.maxPx, f.rmsBeforePx, f.rmsAfterPx,
          rmsWith, rmsWithout, rmsAllWith, rmsAllWithout, iouWith, iouWithout);
    QVERIFY(f.used);
    QVERIFY(f.maxPx >= 2.0);
    QVERIFY(f.rmsAfterPx < f.rmsBeforePx);
    QCOMPARE(f.dx.size(), f.xs.size() * f.ys.size());
    QVERIFY(rmsWith <= 1.0);
    QVERIFY(rmsWithout > 2.0);
    QVERIFY(!without->field.used);
    QCOMPARE(without->field.rmsBeforePx, -1.0); // off: not even fitted
    // The warp applies the field: the lines of the two dates meet.
    QVERIFY(iouWith > 0.8);
    QVERIFY(iouWith > iouWithout + 0.2);
    // Reported in the JSON.
    ChangeResult cr;
    cr.alignment = *with;
    const std::string json = changeJson(cr);
    QVERIFY(json.find("\"correction_field\"") != std::string::npos);
    QVERIFY(json.find("\"used\": true") != std::string::npos);
}

void TestChangeField::planarSurfaceGetsNoField()
{
    QTemporaryDir dir;
    const Truth t{0.0};
    const Pair p = writePair(dir, t);
    std::optional<AlignResult> with, without;
    alignBothWays(p, with, without);
    QVERIFY(with && without);
    const double rmsWith = registrationRms(*with, t), rmsWithout = registrationRms(*without, t);
    const CorrectionField& f = with->field;
    qInfo("field: %d nodes, used %d, largest %.2f px, window residual %.2f -> %.2f px; truth rms "
          "%.3f px with, %.3f px without",
          f.nodes, int(f.used), f.maxPx, f.rmsBeforePx, f.rmsAfterPx, rmsWith, rmsWithout);
    QVERIFY(f.nodes > 0);              // fitted ...
    QVERIFY(!f.used || f.maxPx < 0.5); // ... and not used (or negligible)
    QVERIFY(rmsWith <= 1.0);
    QVERIFY(rmsWith <= rmsWithout + 0.05);
}

void TestChangeField::badWindowsAreRejected()
{
    // The window grid of the default options on a 1600 px scan, shifted by a smooth field; three
    // windows matched wrongly (12 px off) and five did not match.
    using namespace change_detail;
    const AlignOptions o;
    const int n = o.regionGrid * o.windowsPerRegion;
    const std::vector<double> centres = windowCentres(kSize, n, o.windowPx);
    QCOMPARE(int(centres.size()), n);
    const auto truth = [](double x, double y) {
        return cv::Point2d(4 * std::sin(2 * CV_PI * y / kSize),
                           3 * std::cos(2 * CV_PI * x / kSize));
    };
    const std::vector<std::pair<int, int>> wrong{{2, 2}, {6, 3}, {4, 7}},
        missing{{0, 0}, {5, 5}, {5, 6}, {8, 1}, {1, 8}};
    const auto in = [](const std::vector<std::pair<int, int>>& v, int i, int j) {
        return std::find(v.begin(), v.end(), std::make_pair(i, j)) != v.end();
    };
    Pairs pairs;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            if (in(missing, i, j))
                continue;
            const cv::Point2d p(centres[size_t(i)], centres[size_t(j)]);
            pairs.before.push_back(p);
            pairs.after.push_back(p + truth(p.x, p.y) +
                                  (in(wrong, i, j) ? cv::Point2d(12, -9) : cv::Point2d()));
        }
    const cv::Mat identity = cv::Mat::eye(3, 3, CV_64F);
    const CorrectionField f = fitField(identity, pairs, o, kSize, kSize);
    qInfo("%d nodes, %d rejected, residual %.2f -> %.2f px", f.nodes, f.rejected, f.rmsBeforePx,
          f.rmsAfterPx);
    QVERIFY(f.used);
    QCOMPARE(f.nodes, n * n - int(missing.size()));
    QCOMPARE(f.rejected, int(wrong.size()));
    double worst = 0;
    for (int y = 0; y < kSize; y += 50)
        for (int x = 0; x < kSize; x += 50) {
            const cv::Point2d d = fieldAt(f, x, y) - truth(x, y);
            if (x >= centres.front() && y >= centres.front() && x <= centres.back() &&
                y <= centres.back())
                worst = std::max(worst, cv::norm(d));
        }
    qInfo("worst field error inside the windows: %.2f px", worst);
    QVERIFY(worst < 1.0); // two neighbouring windows missing: filled from a plane
    // The same windows without the field's shift: nothing to correct, only the bad windows.
    Pairs flat = pairs;
    for (size_t k = 0; k < flat.after.size(); ++k)
        flat.after[k] -= truth(flat.before[k].x, flat.before[k].y);
    const CorrectionField none = fitField(identity, flat, o, kSize, kSize);
    QCOMPARE(none.rejected, int(wrong.size()));
    QVERIFY(!none.used);
}

void TestChangeField::settingNames()
{
    for (AlignField f : {AlignField::Auto, AlignField::Off}) {
        auto back = alignFieldFromName(alignFieldName(f));
        QVERIFY(back.isOk());
        QCOMPARE(*back, f);
    }
    QCOMPARE(alignFieldFromName("on").status().code(), ErrorCode::InvalidArgument);
    QCOMPARE(QString::fromStdString(optionRangeText(compareOption("align.field"))),
             QStringLiteral("auto or off"));
    AlignOptions bad;
    bad.field = AlignField(7);
    const Status s = validate(bad);
    QVERIFY2(s.detail().rfind("align.field ", 0) == 0, s.detail().c_str());
    auto r = alignScans("/nonexistent/a.tif", "/nonexistent/b.tif", bad);
    QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
}

QTEST_GUILESS_MAIN(TestChangeField)
#include "tst_change_field.moc"
