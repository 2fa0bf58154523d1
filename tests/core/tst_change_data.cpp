// Alignment on real photographs: images of the public crack sets (UAV75 drone images of
// concrete, DeepCrack) against a copy under another warp and exposure. The residual and the
// error against the known warp are printed (tests/bench/RESULTS.md). Skips when ../shared/data
// is absent.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <opencv2/imgproc.hpp>

#include "fisura/change.h"
#include "fisura/image.h"
#include "image_mat.h"

using namespace fisura;
using fisura::testing_mat::asMat;
using fisura::testing_mat::toImage;

namespace
{

QString dataRoot()
{
    return qEnvironmentVariableIsSet("FISURA_SHARED_DATA")
               ? qEnvironmentVariable("FISURA_SHARED_DATA")
               : QStringLiteral(FISURA_SHARED_DATA);
}

/// after -> before: rotation about the centre, scale and shift.
cv::Mat warpOf(int w, int h, double deg, double scale, double tx, double ty)
{
    cv::Mat A = cv::getRotationMatrix2D(cv::Point2f(w / 2.0f, h / 2.0f), -deg, scale);
    cv::Mat H = cv::Mat::eye(3, 3, CV_64F);
    A.copyTo(H.rowRange(0, 2));
    H.at<double>(0, 2) += tx;
    H.at<double>(1, 2) += ty;
    return H;
}

} // namespace

class TestChangeData : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realImages_data();
    void realImages();
};

void TestChangeData::realImages_data()
{
    QTest::addColumn<QString>("file");
    for (const char* f :
         {"UAV75/images/DSC00555.jpg", "UAV75/images/DSC00556.jpg", "DeepCrack/test/images"})
        QTest::newRow(f) << QString::fromLatin1(f);
}

void TestChangeData::realImages()
{
    QFETCH(QString, file);
    QString path = dataRoot() + QStringLiteral("/") + file;
    if (QDir(path).exists()) { // a folder: its first image
        const auto names = QDir(path).entryList(QDir::Files, QDir::Name);
        if (names.isEmpty())
            QSKIP("shared data absent");
        path += QStringLiteral("/") + names.first();
    }
    if (!QFile::exists(path))
        QSKIP("shared data absent");
    auto im = readImage(path.toStdString());
    if (!im && im.status().code() == ErrorCode::Unsupported)
        QSKIP("this build reads no JPEG");
    QVERIFY2(im.isOk(), im.status().toString().c_str());
    const cv::Mat before = asMat(*im);
    const cv::Mat H = warpOf(before.cols, before.rows, 4, 1.03, 9, -6);
    cv::Mat after;
    cv::warpPerspective(before, after, H, before.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                        cv::BORDER_REFLECT);
    after.convertTo(after, -1, 0.8, 25); // another exposure
    QTemporaryDir dir;
    const auto a = dir.filePath(QStringLiteral("a.tif")).toStdString();
    const auto b = dir.filePath(QStringLiteral("b.tif")).toStdString();
    QVERIFY(writeTiff(a, toImage(before)).isOk());
    QVERIFY(writeTiff(b, toImage(after)).isOk());
    AlignOptions o; // photographs of a few hundred px: small windows
    o.windowPx = 96;
    o.regionGrid = 2;
    auto r = alignScans(a, b, o);
    QVERIFY2(r.isOk(), r.status().toString().c_str());
    double sum = 0;
    int n = 0;
    const cv::Mat F(3, 3, CV_64F, r->matrix.data());
    for (int y = 0; y < before.rows; y += 32)
        for (int x = 0; x < before.cols; x += 32) {
            cv::Mat p = (cv::Mat_<double>(3, 1) << x, y, 1), q = H * p, f = F * p;
            const double dx = f.at<double>(0) / f.at<double>(2) - q.at<double>(0) / q.at<double>(2);
            const double dy = f.at<double>(1) / f.at<double>(2) - q.at<double>(1) / q.at<double>(2);
            sum += dx * dx + dy * dy, ++n;
        }
    const double truthRms = std::sqrt(sum / n);
    qInfo("%s: %d x %d, model %s, %d/%d inliers, %d/%d windows, residual %.3f px, error against "
          "the known warp %.3f px",
          qPrintable(file), before.cols, before.rows, alignModelName(r->model), r->inliers,
          r->matches, r->refined, r->windows, r->rmsPx, truthRms);
    QVERIFY(truthRms <= 1.0);
}

QTEST_GUILESS_MAIN(TestChangeData)
#include "tst_change_data.moc"
