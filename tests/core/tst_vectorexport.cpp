// Vector export of measured cracks, read back with GDAL/OGR: drawn cracks of known geometry on a
// plain map and on a GeoTIFF scan, in every format: feature counts, lengths within 1 %, widths
// within 0.5 px (lengths of the lines; the length fields are the measurement's, within its 3 %),
// a known point within 1 px, the scan's CRS; width-class presets and their flags;
// error paths leave nothing behind; the crack overlay lies on the scan's grid.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

#include <unistd.h>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>
#include <opencv2/imgproc.hpp>

#include "drawn_cracks.h"
#include "fisura/image.h"
#include "fisura/measure.h"
#include "fisura/vectorexport.h"

using namespace fisura;

namespace
{

// The drawn cracks: two along the axes (widths checked) and a diagonal one (length and place).
struct Drawn {
    cv::Point2d a, b;
    int width;
};
const Drawn kCracks[] = {
    {{60, 80}, {540, 80}, 5}, {{100, 150}, {100, 370}, 4}, {{200, 200}, {520, 360}, 3}};
constexpr int kW = 600, kH = 420;
constexpr double kPixelMm = 0.2;
// The GeoTIFF scan: ETRS89 / UTM 30N, 0.05 m pixels, top-left corner at (440000, 4474000).
constexpr double kX0 = 440000, kY0 = 4474000, kGeoPixel = 0.05;

using test::bar;

Image drawnMap()
{
    cv::Mat m = cv::Mat::zeros(kH, kW, CV_8U);
    for (const auto& c : kCracks)
        bar(m, c.a, c.b, c.width);
    Image im = Image::make(kW, kH, 1);
    for (int y = 0; y < kH; ++y)
        std::copy_n(m.ptr<uint8_t>(y), kW, im.row(y));
    return im;
}

// A GeoTIFF of the map's size with a geotransform and EPSG:25830, written with GDAL.
bool writeGeoScan(const std::string& path)
{
    GDALAllRegister();
    GDALDriver* d = GetGDALDriverManager()->GetDriverByName("GTiff");
    std::unique_ptr<GDALDataset> ds(d->Create(path.c_str(), kW, kH, 1, GDT_Byte, nullptr));
    if (!ds)
        return false;
    double gt[6] = {kX0, kGeoPixel, 0, kY0, 0, -kGeoPixel};
    ds->SetGeoTransform(gt);
    OGRSpatialReference srs;
    srs.importFromEPSG(25830);
    ds->SetSpatialRef(&srs);
    return true;
}

struct Where {
    bool geo;
    double ux(double px) const { return geo ? kX0 + px * kGeoPixel : px * kPixelMm; }
    double uy(double py) const { return geo ? kY0 - py * kGeoPixel : -py * kPixelMm; }
    double unit() const { return geo ? kGeoPixel : kPixelMm; }
};

MeasureResult measured(const QTemporaryDir& dir, bool geo)
{
    const std::string map = dir.filePath(QStringLiteral("map.tif")).toStdString();
    TiffWriteOptions w;
    if (!geo)
        w.pixelSizeMm = kPixelMm;
    if (!writeTiff(map, drawnMap(), w).isOk())
        qFatal("cannot write the map");
    MeasureOptions o;
    if (geo) {
        o.scanPath = dir.filePath(QStringLiteral("scan.tif")).toStdString();
        if (!writeGeoScan(o.scanPath))
            qFatal("cannot write the GeoTIFF scan");
        o.pixelSizeMm = kGeoPixel * 1000;
    }
    auto r = measureCracks(map, o);
    if (!r)
        qFatal("measure failed: %s", r.status().toString().c_str());
    return std::move(*r);
}

std::unique_ptr<GDALDataset> openVector(const std::string& path)
{
    return std::unique_ptr<GDALDataset>(
        GDALDataset::Open(path.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY));
}

// The branch feature whose line passes nearest to a drawn crack's midpoint.
const OGRLineString* nearestLine(std::vector<std::unique_ptr<OGRFeature>>& fs, OGRPoint& mid,
                                 double& distance)
{
    const OGRLineString* best = nullptr;
    distance = 1e300;
    for (auto& f : fs) {
        const OGRGeometry* g = f->GetGeometryRef();
        if (!g || wkbFlatten(g->getGeometryType()) != wkbLineString)
            continue;
        const double d = g->Distance(&mid);
        if (d < distance) {
            distance = d;
            best = g->toLineString();
        }
    }
    return best;
}

} // namespace

class TestVectorExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { GDALAllRegister(); }
    void centreLines();
    void roundTrip_data();
    void roundTrip();
    void geoJsonIsWgs84();
    void presets();
    void errorsLeaveNothing();
    void overlay();
};

void TestVectorExport::centreLines()
{
    auto r = measureCracks(drawnMap(), [] {
        MeasureOptions o;
        o.pixelSizeMm = kPixelMm;
        o.tileSize = 128; // every crack crosses tile borders
        return o;
    }());
    QVERIFY(r.isOk());
    QCOMPARE(r->totals.branches, 3);
    for (const auto& b : r->branches) {
        QVERIFY(b.centreLine.size() >= 2);
        double len = 0;
        for (size_t i = 1; i < b.centreLine.size(); ++i)
            len += std::hypot(b.centreLine[i].x - b.centreLine[i - 1].x,
                              b.centreLine[i].y - b.centreLine[i - 1].y);
        // A straight crack simplifies to its two ends (and perhaps a bent end), as long as the
        // drawn crack (1 %); the measured length (chain code) is within its own 3 %. (Thinning may
        // bend the last pixel or two of a diagonal end.)
        QVERIFY2(b.centreLine.size() <= 4,
                 qPrintable(QStringLiteral("%1 vertices").arg(b.centreLine.size())));
        bool drawn = false;
        for (const auto& c : kCracks)
            if (std::abs(len - cv::norm(c.b - c.a)) <= 0.01 * cv::norm(c.b - c.a))
                drawn = true;
        QVERIFY2(drawn, qPrintable(QStringLiteral("line of %1 px matches no crack").arg(len)));
        QVERIFY2(std::abs(len - b.lengthPx) <= 0.03 * len,
                 qPrintable(QStringLiteral("line %1 vs length %2").arg(len).arg(b.lengthPx)));
    }
}

void TestVectorExport::roundTrip_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("geo");
    for (const char* f : {"cracks.gpkg", "cracks.shp", "cracks.dxf", "cracks.geojson"}) {
        QTest::addRow("%s plain", f) << QString::fromUtf8(f) << false;
        if (std::string(f) != "cracks.geojson") // reprojected: geoJsonIsWgs84
            QTest::addRow("%s geotiff", f) << QString::fromUtf8(f) << true;
    }
}

void TestVectorExport::roundTrip()
{
    QFETCH(QString, file);
    QFETCH(bool, geo);
    QTemporaryDir dir;
    const MeasureResult r = measured(dir, geo);
    QCOMPARE(r.totals.cracks, 3);
    const std::string path = dir.filePath(file).toStdString();
    auto sum = exportCrackVectors(r, path);
    QVERIFY2(sum.isOk(), sum.isOk() ? "" : sum.status().toString().c_str());
    QCOMPARE(sum->coordinates, geo ? CoordinateKind::Map : CoordinateKind::Millimetres);
    const bool dxf = file.endsWith(QLatin1String(".dxf"));
    auto ds = openVector(path);
    QVERIFY(ds);
    OGRLayer* layer = dxf ? ds->GetLayer(0) : ds->GetLayerByName("branches");
    if (!layer)
        layer = ds->GetLayer(0); // one layer per file: named after the file
    QVERIFY(layer);
    std::vector<std::unique_ptr<OGRFeature>> fs;
    for (auto& f : *layer) {
        if (dxf && std::string(f->GetFieldAsString("Layer")).find("_outline") != std::string::npos)
            continue;
        fs.emplace_back(f.release());
    }
    QCOMPARE(int(fs.size()), 3);
    if (geo && !dxf) {
        const OGRSpatialReference* srs = layer->GetSpatialRef();
        QVERIFY(srs);
        OGRSpatialReference want;
        want.importFromEPSG(25830);
        QVERIFY(srs->IsSame(&want));
    }
    const Where where{geo};
    for (const auto& c : kCracks) {
        const cv::Point2d m = (c.a + c.b) * 0.5;
        OGRPoint mid(where.ux(m.x + 0.5), where.uy(m.y + 0.5));
        double d = 0;
        const OGRLineString* line = nearestLine(fs, mid, d);
        QVERIFY(line);
        QVERIFY2(d <= where.unit(), qPrintable(QStringLiteral("%1 px off").arg(d / where.unit())));
        const double drawn = cv::norm(c.b - c.a) * where.unit();
        QVERIFY2(std::abs(line->get_Length() - drawn) <= 0.01 * drawn,
                 qPrintable(QStringLiteral("length %1 vs %2").arg(line->get_Length()).arg(drawn)));
    }
    if (dxf)
        return;
    // Widths of the two cracks along the axes, and the length fields.
    for (auto& f : fs) {
        const double w = f->GetFieldAsDouble("w_mean_px");
        // The line's length in px (the drawn length within 1 %); the measured length field
        // within the measurement's 3 %.
        const double len = f->GetGeometryRef()->toLineString()->get_Length() / where.unit();
        QVERIFY(std::abs(f->GetFieldAsDouble("len_px") - len) <= 0.03 * len);
        bool matched = false;
        for (const auto& c : kCracks)
            if (std::abs(len - cv::norm(c.b - c.a)) <= 0.01 * cv::norm(c.b - c.a)) {
                matched = true;
                if (c.a.x == c.b.x || c.a.y == c.b.y)
                    QVERIFY2(std::abs(w - c.width) <= 0.5,
                             qPrintable(QStringLiteral("width %1 vs %2").arg(w).arg(c.width)));
            }
        QVERIFY2(matched, qPrintable(QStringLiteral("length %1 matches no crack").arg(len)));
        QCOMPARE(f->GetFieldAsDouble("w_mean_mm"), w * (geo ? kGeoPixel * 1000 : kPixelMm));
    }
    // The cracks as multi-lines (GeoPackage: a second layer; else a second file).
    std::unique_ptr<GDALDataset> other;
    OGRLayer* cracks = ds->GetLayerByName("cracks");
    if (!cracks) {
        const QString sibling =
            QString(file).replace(QLatin1String("."), QLatin1String("_cracks."));
        other = openVector(dir.filePath(sibling).toStdString());
        QVERIFY(other);
        cracks = other->GetLayer(0);
    }
    QVERIFY(cracks);
    QCOMPARE(int(cracks->GetFeatureCount()), 3);
    if (file.endsWith(QLatin1String(".gpkg"))) {
        QCOMPARE(QString::fromUtf8(ds->GetMetadataItem("FISURA_COORDINATES")),
                 QString::fromUtf8(geo ? "map" : "mm"));
        QVERIFY(QString::fromUtf8(ds->GetMetadataItem("FISURA_THRESHOLD"))
                    .startsWith(QLatin1String("0.5")));
    }
}

void TestVectorExport::geoJsonIsWgs84()
{
    QTemporaryDir dir;
    const MeasureResult r = measured(dir, true);
    const std::string path = dir.filePath(QStringLiteral("cracks.geojson")).toStdString();
    auto sum = exportCrackVectors(r, path);
    QVERIFY(sum.isOk());
    QCOMPARE(QString::fromStdString(sum->crsCode), QStringLiteral("EPSG:4326"));
    auto ds = openVector(path);
    QVERIFY(ds);
    OGRLayer* layer = ds->GetLayer(0);
    QCOMPARE(int(layer->GetFeatureCount()), 3);
    // The midpoint of the first crack, from UTM 30N to longitude / latitude.
    OGRSpatialReference utm, wgs;
    utm.importFromEPSG(25830);
    wgs.importFromEPSG(4326);
    utm.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    wgs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    std::unique_ptr<OGRCoordinateTransformation> ct(OGRCreateCoordinateTransformation(&utm, &wgs));
    QVERIFY(ct);
    const Where where{true};
    double x = where.ux(300.5), y = where.uy(80.5);
    QVERIFY(ct->Transform(1, &x, &y));
    OGRPoint mid(x, y);
    double best = 1e300;
    for (auto& f : *layer)
        best = std::min(best, f->GetGeometryRef()->Distance(&mid));
    // One pixel (5 cm) is about 6e-7 degrees here.
    QVERIFY2(best < 6e-7, qPrintable(QStringLiteral("%1 degrees off").arg(best)));
}

void TestVectorExport::presets()
{
    QVERIFY(widthClassPresets().size() >= 9);
    QCOMPARE(widthClassPresets().front().id, std::string("default"));
    for (const auto& p : widthClassPresets()) {
        QVERIFY(p.classes.validate().isOk());
        QVERIFY(!p.source.empty());
        QCOMPARE(p.classes.preset, p.id);
    }
    auto aci = widthClassPreset("aci224r-humid");
    QVERIFY(aci.isOk());
    QCOMPARE(aci->classes.tolerableMm, 0.30);
    QVERIFY(aci->source.find("ACI 224R-01") != std::string::npos);
    QCOMPARE(aci->citation, std::string("ACI 224R-01 Table 4.1"));
    QCOMPARE(widthClassPreset("en1992-xc1")->citation, std::string("EN 1992-1-1 Table 7.1N"));
    QVERIFY(widthClassPreset("default")->citation.empty());
    QCOMPARE(widthClassPreset("en1992-xc1")->classes.tolerableMm, 0.4);
    QCOMPARE(widthClassPreset("en1992-prestressed")->classes.tolerableMm, 0.2);
    QCOMPARE(widthClassPreset("aci224r-water-retaining")->classes.tolerableMm, 0.10);
    QCOMPARE(widthClassPreset("no-such").status().code(), ErrorCode::NotFound);
    // 0.2 mm pixels: widths 1.0, 0.8 and 0.6 mm. Over 0.3 mm: all; over EN's... use ACI dry 0.41.
    MeasureOptions o;
    o.pixelSizeMm = 0.1; // widths 0.5, 0.4 and 0.3 mm
    o.classes = widthClassPreset("aci224r-dry")->classes;
    auto r = measureCracks(drawnMap(), o);
    QVERIFY(r.isOk());
    int flagged = 0;
    for (const auto& c : r->cracks) {
        QCOMPARE(c.exceedsLimit, c.width.medianMm >= 0.41);
        QCOMPARE(c.exceedsLimit, c.widthClass == 1);
        flagged += c.exceedsLimit;
    }
    QCOMPARE(flagged, 1); // only the 5 px (0.5 mm) crack
    QCOMPARE(r->flaggedCracks, 1);
    QVERIFY(cracksCsv(*r).find("exceeds_limit") != std::string::npos);
    QVERIFY(toJson(*r).find("\"exceeds_limit\": true") != std::string::npos);
    QVERIFY(scanCsv(*r).find("class_preset,aci224r-dry") != std::string::npos);
    // Without a standard nothing is flagged.
    o.classes = WidthClasses();
    QCOMPARE(measureCracks(drawnMap(), o)->flaggedCracks, 0);
}

void TestVectorExport::errorsLeaveNothing()
{
    QTemporaryDir dir;
    const MeasureResult r = measured(dir, false);
    const QStringList before =
        QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    auto bad = exportCrackVectors(r, dir.filePath(QStringLiteral("cracks.kml")).toStdString());
    QCOMPARE(bad.status().code(), ErrorCode::Unsupported);
    auto missing = exportCrackVectors(
        r, dir.filePath(QStringLiteral("no/such/folder/cracks.gpkg")).toStdString());
    QCOMPARE(missing.status().code(), ErrorCode::IoError);
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("ro")));
    QFile::setPermissions(dir.filePath(QStringLiteral("ro")), QFile::ReadOwner | QFile::ExeOwner);
    auto ro = exportCrackVectors(r, dir.filePath(QStringLiteral("ro/cracks.shp")).toStdString());
    if (::geteuid() != 0) // root writes anyway
        QCOMPARE(ro.status().code(), ErrorCode::IoError);
    QFile::setPermissions(dir.filePath(QStringLiteral("ro")),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QDir(dir.filePath(QStringLiteral("ro"))).removeRecursively();
    auto other = exportCrackVectors(r, dir.filePath(QStringLiteral("x.gpkg")).toStdString(),
                                    {dir.filePath(QStringLiteral("nope.tif")).toStdString(), ""});
    QCOMPARE(other.status().code(), ErrorCode::NotFound);
    const QStringList after =
        QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    QCOMPARE(after, before);
}

void TestVectorExport::overlay()
{
    QTemporaryDir dir;
    const std::string map = dir.filePath(QStringLiteral("map.tif")).toStdString();
    QVERIFY(writeTiff(map, drawnMap()).isOk());
    MeasureOptions o;
    o.scanPath = dir.filePath(QStringLiteral("scan.tif")).toStdString();
    QVERIFY(writeGeoScan(o.scanPath));
    o.pixelSizeMm = 0.1;
    o.widthLayerPath = dir.filePath(QStringLiteral("layer.tif")).toStdString();
    auto r = measureCracks(map, o);
    QVERIFY(r.isOk());
    const std::string out = dir.filePath(QStringLiteral("overlay.tif")).toStdString();
    QVERIFY(writeCrackOverlay(*r, out).isOk());
    std::unique_ptr<GDALDataset> ds(GDALDataset::Open(out.c_str(), GDAL_OF_RASTER));
    QVERIFY(ds);
    QCOMPARE(ds->GetRasterCount(), 4);
    QCOMPARE(ds->GetRasterXSize(), kW);
    double gt[6];
    QCOMPARE(ds->GetGeoTransform(gt), CE_None);
    QCOMPARE(gt[0], kX0);
    QCOMPARE(gt[3], kY0);
    OGRSpatialReference want;
    want.importFromEPSG(25830);
    QVERIFY(ds->GetSpatialRef() && ds->GetSpatialRef()->IsSame(&want));
    int bx = 0, by = 0;
    ds->GetRasterBand(1)->GetBlockSize(&bx, &by);
    QCOMPARE(bx, 256);
    // On the first crack (0.5 mm: "medium") opaque, beside it transparent.
    uint8_t on[4], off[4];
    for (int b = 0; b < 4; ++b) {
        QCOMPARE(ds->GetRasterBand(b + 1)->RasterIO(GF_Read, 300, 80, 1, 1, &on[b], 1, 1, GDT_Byte,
                                                    0, 0),
                 CE_None);
        QCOMPARE(ds->GetRasterBand(b + 1)->RasterIO(GF_Read, 300, 30, 1, 1, &off[b], 1, 1, GDT_Byte,
                                                    0, 0),
                 CE_None);
    }
    const auto colour = overlayColour(r->options.classes, r->cracks[0].widthClass);
    for (int b = 0; b < 4; ++b)
        QCOMPARE(on[b], colour[size_t(b)]);
    QCOMPARE(off[3], uint8_t(0));
    MeasureResult noLayer = *r;
    noLayer.widthLayerPath.clear();
    QCOMPARE(
        writeCrackOverlay(noLayer, dir.filePath(QStringLiteral("o2.tif")).toStdString()).code(),
        ErrorCode::InvalidArgument);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("o2.tif"))));
}

QTEST_GUILESS_MAIN(TestVectorExport)
#include "tst_vectorexport.moc"
