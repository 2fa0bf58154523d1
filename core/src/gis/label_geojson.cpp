// Label masks <-> QuPath GeoJSON through GDAL's polygonizer and rasterizer (see labelgeojson.h).
#include "fisura/labelgeojson.h"

#include <memory>
#include <vector>

#include <gdal_alg.h>
#include <gdal_priv.h>
#include <ogrsf_frmts.h>

#include "gis/gdal_session.h"
#include "gis/label_lines.h"
#include "util/atomic_file.h"
#include "util/json_bounded.h"

namespace fisura
{

namespace
{

using Json = nlohmann::json;
using DatasetPtr = std::unique_ptr<GDALDataset>;
using gis::GeometryPtr;

// A one-band byte raster in memory whose coordinates are its pixels (y down, no flip).
Result<DatasetPtr> pixelRaster(int width, int height, const gis::QuietGdalErrors& quiet)
{
    GDALDriver* mem = GetGDALDriverManager()->GetDriverByName("MEM");
    DatasetPtr ds(mem ? mem->Create("", width, height, 1, GDT_Byte, nullptr) : nullptr);
    if (!ds)
        return Status(ErrorCode::IoError, quiet.message("GDAL cannot make a raster in memory"));
    double gt[6] = {0, 1, 0, 0, 0, 1};
    ds->SetGeoTransform(gt);
    return ds;
}

// The crack pixels as polygons along the pixel edges.
Result<std::vector<GeometryPtr>> polygonsOf(const Image& mask, const gis::QuietGdalErrors& quiet)
{
    auto raster = pixelRaster(mask.width, mask.height, quiet);
    if (!raster)
        return raster.status();
    std::vector<uint8_t> bits(size_t(mask.width) * size_t(mask.height));
    for (int y = 0; y < mask.height; ++y)
        for (int x = 0; x < mask.width; ++x)
            bits[size_t(y) * size_t(mask.width) + size_t(x)] =
                mask.row(y)[size_t(x) * size_t(mask.channels)] ? 1 : 0;
    GDALRasterBand* band = (*raster)->GetRasterBand(1);
    GDALDriver* memory = GetGDALDriverManager()->GetDriverByName("Memory");
    DatasetPtr vectors(memory ? memory->Create("", 0, 0, 0, GDT_Unknown, nullptr) : nullptr);
    OGRLayer* layer =
        vectors ? vectors->CreateLayer("labels", nullptr, wkbPolygon, nullptr) : nullptr;
    OGRFieldDefn value("value", OFTInteger);
    if (!layer || layer->CreateField(&value) != OGRERR_NONE ||
        band->RasterIO(GF_Write, 0, 0, mask.width, mask.height, bits.data(), mask.width,
                       mask.height, GDT_Byte, 0, 0) != CE_None ||
        // The band is its own mask: background pixels (0) make no polygons.
        GDALPolygonize(band, band, layer, 0, nullptr, nullptr, nullptr) != CE_None)
        return Status(ErrorCode::IoError, quiet.message("GDAL cannot trace the label pixels"));
    std::vector<GeometryPtr> out;
    for (auto& f : *layer)
        if (const OGRGeometry* g = f->GetGeometryRef())
            out.emplace_back(g->clone());
    return out;
}

Json featureOf(const OGRGeometry& g, const LabelGeoJsonOptions& o)
{
    char* text = g.exportToJson();
    Json geometry = Json::parse(text ? text : "null", nullptr, false);
    CPLFree(text);
    return {{"type", "Feature"},
            {"geometry", std::move(geometry)},
            {"properties",
             {{"objectType", "annotation"}, {"classification", gis::classificationOf(o)}}}};
}

// The features of a FeatureCollection, a Feature or an array of Features.
Result<Json> featuresOf(const Json& j, const std::string& what)
{
    if (j.is_array())
        return j;
    const std::string type = j.is_object() && j.contains("type") && j["type"].is_string()
                                 ? j["type"].get<std::string>()
                                 : std::string();
    if (type == "FeatureCollection" && j.contains("features") && j["features"].is_array())
        return j["features"];
    if (type == "Feature")
        return Json::array({j});
    return Status(ErrorCode::InvalidArgument,
                  what + ": not a GeoJSON FeatureCollection, Feature or array of Features");
}

// The areas feature `i` fills, checked: a polygon, or a line with its width, inside the image.
Result<std::vector<GeometryPtr>> areasOf(const Json& f, size_t i, int width, int height,
                                         const std::string& what)
{
    const std::string where = what + ": feature " + std::to_string(i);
    if (!f.is_object() || !f.contains("geometry") || !f["geometry"].is_object())
        return Status(ErrorCode::InvalidArgument, where + " has no geometry");
    const Json& g = f["geometry"];
    const std::string type =
        g.contains("type") && g["type"].is_string() ? g["type"].get<std::string>() : "";
    const bool polygon = type == "Polygon" || type == "MultiPolygon";
    if (!polygon && type != "LineString" && type != "MultiLineString")
        return Status(ErrorCode::InvalidArgument,
                      where + " is a " + (type.empty() ? "geometry without a type" : type) +
                          "; labels are Polygon, MultiPolygon, LineString or MultiLineString");
    GeometryPtr geom(OGRGeometryFactory::createFromGeoJson(g.dump().c_str()));
    if (!geom)
        return Status(ErrorCode::Corrupt,
                      where + ": its coordinates are not a " + (polygon ? "polygon" : "line"));
    OGREnvelope e;
    geom->getEnvelope(&e);
    if (e.MinX < 0 || e.MinY < 0 || e.MaxX > width || e.MaxY > height)
        return Status(ErrorCode::InvalidArgument, where + " lies outside the " +
                                                      std::to_string(width) + " x " +
                                                      std::to_string(height) + " px image");
    if (!polygon)
        return gis::labelLineAreas(f, *geom, where);
    std::vector<GeometryPtr> out;
    out.push_back(std::move(geom));
    return out;
}

} // namespace

Result<std::string> labelMaskToGeoJson(const Image& mask, const LabelGeoJsonOptions& o)
{
    if (mask.width <= 0 || mask.height <= 0 || mask.channels <= 0)
        return Status(ErrorCode::InvalidArgument, "an empty mask has no labels");
    gis::ensureGdal();
    gis::QuietGdalErrors quiet;
    Json features = Json::array();
    if (o.shapes != LabelShapes::Lines) {
        auto polygons = polygonsOf(mask, quiet);
        if (!polygons)
            return polygons.status();
        for (const auto& g : *polygons)
            features.push_back(featureOf(*g, o));
    }
    if (o.shapes != LabelShapes::Polygons) {
        auto lines = gis::labelLineFeatures(mask, o);
        if (!lines)
            return lines.status();
        for (Json& f : *lines)
            features.push_back(std::move(f));
    }
    const Json fc = {{"type", "FeatureCollection"}, {"features", std::move(features)}};
    return util::dumpJson(fc);
}

Result<Image> labelMaskFromGeoJson(const std::string& text, int width, int height,
                                   const std::string& what)
{
    if (width <= 0 || height <= 0)
        return Status(ErrorCode::InvalidArgument, what + ": the image size must be positive");
    auto j = util::parseJson(text, what);
    if (!j)
        return j.status();
    auto features = featuresOf(*j, what);
    if (!features)
        return features.status();
    gis::ensureGdal();
    gis::QuietGdalErrors quiet;
    std::vector<GeometryPtr> owned;
    std::vector<OGRGeometryH> handles;
    for (size_t i = 0; i < features->size(); ++i) {
        auto areas = areasOf((*features)[i], i, width, height, what);
        if (!areas)
            return areas.status();
        for (GeometryPtr& g : *areas) {
            handles.push_back(OGRGeometry::ToHandle(g.get()));
            owned.push_back(std::move(g));
        }
    }
    auto raster = pixelRaster(width, height, quiet);
    if (!raster)
        return raster.status();
    const int bands[] = {1};
    std::vector<double> burn(handles.size(), 255.0);
    if (!handles.empty() &&
        GDALRasterizeGeometries(GDALDataset::ToHandle(raster->get()), 1, bands, int(handles.size()),
                                handles.data(), nullptr, nullptr, burn.data(), nullptr, nullptr,
                                nullptr) != CE_None)
        return Status(ErrorCode::IoError, quiet.message("GDAL cannot fill the polygons"));
    Image mask = Image::make(width, height, 1);
    for (int y = 0; y < height; ++y)
        if ((*raster)->GetRasterBand(1)->RasterIO(GF_Read, 0, y, width, 1, mask.row(y), width, 1,
                                                  GDT_Byte, 0, 0) != CE_None)
            return Status(ErrorCode::IoError, quiet.message("GDAL cannot read the filled mask"));
    return mask;
}

Status writeLabelGeoJson(const std::string& maskPath, const std::string& outPath,
                         const LabelGeoJsonOptions& options)
{
    auto mask = readImage(maskPath);
    if (!mask)
        return mask.status();
    return writeLabelGeoJson(*mask, outPath, options);
}

Status writeLabelGeoJson(const Image& mask, const std::string& outPath,
                         const LabelGeoJsonOptions& options)
{
    auto text = labelMaskToGeoJson(mask, options);
    if (!text)
        return text.status();
    return writeFileAtomic(outPath, *text);
}

Result<Image> readLabelGeoJson(const std::string& path, int width, int height)
{
    auto text = util::readTextFile(path);
    if (!text)
        return text.status();
    return labelMaskFromGeoJson(*text, width, height, path);
}

} // namespace fisura
