// Label masks as QuPath GeoJSON: a drawn mask with a hole (a ring), a crack and a lone pixel
// survives mask -> GeoJSON -> mask (IoU >= 0.99; in fact exactly), the text has QuPath's shape
// (FeatureCollection of annotation Polygons with a classification), QuPath's other spellings (a
// bare array, one Feature) are read, and bad input is refused with the feature named: not JSON,
// not a FeatureCollection, a LineString or Point, coordinates outside the image, a bad size.
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "drawn_cracks.h"
#include "fisura/image.h"
#include "fisura/labelgeojson.h"

using namespace fisura;
using Json = nlohmann::json;

namespace
{

constexpr int kW = 320, kH = 240;

Image drawnMask()
{
    cv::Mat m = cv::Mat::zeros(kH, kW, CV_8U);
    cv::circle(m, {100, 100}, 50, 255, cv::FILLED); // a disc with a hole: a ring
    cv::circle(m, {100, 100}, 20, 0, cv::FILLED);
    test::bar(m, {180, 40}, {300, 200}, 4); // a diagonal crack
    m.at<uint8_t>(230, 10) = 255;           // a lone pixel
    m.at<uint8_t>(0, kW - 1) = 255;         // and one in the corner (edge coordinates)
    Image im = Image::make(kW, kH, 1);
    for (int y = 0; y < kH; ++y)
        std::copy_n(m.ptr<uint8_t>(y), kW, im.row(y));
    return im;
}

double iou(const Image& a, const Image& b)
{
    uint64_t both = 0, either = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        both += (a.pixels[i] != 0) && (b.pixels[i] != 0);
        either += (a.pixels[i] != 0) || (b.pixels[i] != 0);
    }
    return either ? double(both) / double(either) : 1.0;
}

const char* kSquare =
    R"({"type": "Polygon", "coordinates": [[[10,10],[20,10],[20,20],[10,20],[10,10]]]})";

std::string feature(const std::string& geometry)
{
    return R"({"type": "Feature", "geometry": )" + geometry +
           R"(, "properties": {"objectType": "annotation"}})";
}

} // namespace

class TestLabelGeoJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip();
    void quPathShape();
    void otherSpellings();
    void refused_data();
    void refused();
    void files();
};

void TestLabelGeoJson::roundTrip()
{
    const Image mask = drawnMask();
    auto text = labelMaskToGeoJson(mask);
    QVERIFY2(text.isOk(), text.isOk() ? "" : text.status().toString().c_str());
    auto back = labelMaskFromGeoJson(*text, kW, kH);
    QVERIFY2(back.isOk(), back.isOk() ? "" : back.status().toString().c_str());
    QCOMPARE(back->width, kW);
    QCOMPARE(back->channels, 1);
    const double overlap = iou(mask, *back);
    QVERIFY2(overlap >= 0.99, qPrintable(QString::number(overlap)));
    QCOMPARE(back->row(100)[100], uint8_t(0)); // the hole stays a hole
    QCOMPARE(back->row(100)[60], uint8_t(255));
    QCOMPARE(back->row(230)[10], uint8_t(255));
    QCOMPARE(back->row(0)[kW - 1], uint8_t(255));
    QCOMPARE(back->pixels, mask.pixels); // pixel edges: exact
    // An empty mask: an empty collection, read back as an empty mask.
    auto none = labelMaskToGeoJson(Image::make(8, 8, 1));
    QVERIFY(none.isOk());
    QCOMPARE(Json::parse(*none)["features"].size(), size_t(0));
    QCOMPARE(labelMaskFromGeoJson(*none, 8, 8)->pixels, Image::make(8, 8, 1).pixels);
}

void TestLabelGeoJson::quPathShape()
{
    LabelGeoJsonOptions o;
    o.className = "Fisura";
    o.colour = {1, 2, 3};
    const Json j = Json::parse(*labelMaskToGeoJson(drawnMask(), o));
    QCOMPARE(j["type"].get<std::string>(), std::string("FeatureCollection"));
    QVERIFY(j["features"].size() >= 4); // ring, crack, two pixels
    bool holed = false;
    for (const Json& f : j["features"]) {
        QCOMPARE(f["type"].get<std::string>(), std::string("Feature"));
        QCOMPARE(f["geometry"]["type"].get<std::string>(), std::string("Polygon"));
        QCOMPARE(f["properties"]["objectType"].get<std::string>(), std::string("annotation"));
        QCOMPARE(f["properties"]["classification"]["name"].get<std::string>(),
                 std::string("Fisura"));
        QVERIFY(f["properties"]["classification"]["color"] == Json::array({1, 2, 3}));
        holed |= f["geometry"]["coordinates"].size() == 2; // outer ring and the hole
    }
    QVERIFY(holed);
}

void TestLabelGeoJson::otherSpellings()
{
    // A bare array of features (QuPath without "FeatureCollection"), one Feature, a
    // MultiPolygon: pixels 10..19 in x and y are inside, 20 is not.
    const std::string multi =
        R"({"type": "MultiPolygon", "coordinates": [[[[10,10],[20,10],[20,20],[10,20],[10,10]]],
            [[[30,30],[31,30],[31,31],[30,31],[30,30]]]]})";
    for (const std::string& text :
         {"[" + feature(kSquare) + "]", feature(kSquare), feature(multi)}) {
        auto m = labelMaskFromGeoJson(text, 40, 40);
        QVERIFY2(m.isOk(), m.isOk() ? "" : m.status().toString().c_str());
        QCOMPARE(m->row(10)[10], uint8_t(255));
        QCOMPARE(m->row(19)[19], uint8_t(255));
        QCOMPARE(m->row(20)[20], uint8_t(0));
        QCOMPARE(m->row(9)[10], uint8_t(0));
    }
    QCOMPARE(labelMaskFromGeoJson(feature(multi), 40, 40)->row(30)[30], uint8_t(255));
}

void TestLabelGeoJson::refused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("detail");
    const int invalid = int(ErrorCode::InvalidArgument), corrupt = int(ErrorCode::Corrupt);
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    QTest::newRow("not JSON") << QStringLiteral("{\"type\": ") << 40 << corrupt << QString();
    QTest::newRow("not a collection") << QStringLiteral("{\"type\": \"Topology\"}") << 40 << invalid
                                      << QStringLiteral("FeatureCollection");
    QTest::newRow("line") << q(feature(R"({"type": "LineString", "coordinates": [[1,1],[5,5]]})"))
                          << 40 << invalid << QStringLiteral("feature 0 is a LineString");
    QTest::newRow("point in a collection")
        << q(R"({"type": "FeatureCollection", "features": [)" + feature(kSquare) + "," +
             feature(R"({"type": "Point", "coordinates": [1,1]})") + "]}")
        << 40 << invalid << QStringLiteral("feature 1 is a Point");
    QTest::newRow("no geometry") << QStringLiteral("[{\"type\": \"Feature\"}]") << 40 << invalid
                                 << QStringLiteral("feature 0 has no geometry");
    QTest::newRow("outside the image")
        << q(feature(kSquare)) << 15 << invalid << QStringLiteral("outside the 15 x 15 px image");
    QTest::newRow("negative coordinates")
        << q(feature(R"({"type": "Polygon", "coordinates": [[[-5,0],[5,0],[5,5],[-5,0]]]})")) << 40
        << invalid << QStringLiteral("outside");
    QTest::newRow("bad coordinates")
        << q(feature(R"({"type": "Polygon", "coordinates": [["a", "b"]]})")) << 40 << corrupt
        << QStringLiteral("feature 0");
    QTest::newRow("no size") << q(feature(kSquare)) << 0 << invalid << QStringLiteral("size");
}

void TestLabelGeoJson::refused()
{
    QFETCH(QString, text);
    QFETCH(int, width);
    QFETCH(int, code);
    QFETCH(QString, detail);
    auto m = labelMaskFromGeoJson(text.toStdString(), width, width, "labels.geojson");
    QVERIFY(!m.isOk());
    QCOMPARE(int(m.status().code()), code);
    QVERIFY2(QString::fromStdString(m.status().detail()).contains(detail),
             m.status().detail().c_str());
}

void TestLabelGeoJson::files()
{
    QTemporaryDir dir;
    const std::string mask = dir.filePath(QStringLiteral("mask.tif")).toStdString();
    const std::string json = dir.filePath(QStringLiteral("labels.geojson")).toStdString();
    QVERIFY(writeTiff(mask, drawnMask()).isOk());
    QVERIFY(writeLabelGeoJson(mask, json).isOk());
    auto back = readLabelGeoJson(json, kW, kH);
    QVERIFY(back.isOk());
    QCOMPARE(back->pixels, drawnMask().pixels);
    QCOMPARE(readLabelGeoJson(dir.filePath(QStringLiteral("none.geojson")).toStdString(), kW, kH)
                 .status()
                 .code(),
             ErrorCode::NotFound);
    QCOMPARE(writeLabelGeoJson(dir.filePath(QStringLiteral("none.tif")).toStdString(), json).code(),
             ErrorCode::NotFound);
}

QTEST_GUILESS_MAIN(TestLabelGeoJson)
#include "tst_labelgeojson.moc"
