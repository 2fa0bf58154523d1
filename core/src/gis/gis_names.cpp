// The GIS facade's names, formats and colours: what needs no GDAL (built with or without it).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "fisura/labelgeojson.h"
#include "fisura/measure.h"
#include "fisura/vectorexport.h"

namespace fisura
{

namespace fs = std::filesystem;

Result<VectorFormat> vectorFormatFor(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (ext == ".gpkg")
        return VectorFormat::GeoPackage;
    if (ext == ".geojson" || ext == ".json")
        return VectorFormat::GeoJson;
    if (ext == ".shp")
        return VectorFormat::Shapefile;
    if (ext == ".dxf")
        return VectorFormat::Dxf;
    return Status(ErrorCode::Unsupported, "unknown vector format '" + ext + "' of " + path +
                                              " (.gpkg, .geojson, .shp or .dxf)");
}

const char* vectorDriverName(VectorFormat format)
{
    switch (format) {
    case VectorFormat::GeoPackage:
        return "GPKG";
    case VectorFormat::GeoJson:
        return "GeoJSON";
    case VectorFormat::Shapefile:
        return "ESRI Shapefile";
    case VectorFormat::Dxf:
        return "DXF";
    }
    return "GPKG";
}

const char* coordinateKindName(CoordinateKind kind)
{
    return kind == CoordinateKind::Map ? "map" : kind == CoordinateKind::Millimetres ? "mm" : "px";
}

std::array<uint8_t, 4> overlayColour(const WidthClasses& classes, int k)
{
    const auto c = widthClassColour(classes, k);
    return {c[0], c[1], c[2], 255};
}

double Georeference::unitsPerPixel() const
{
    const auto& g = geoTransform;
    return std::sqrt(std::abs(g[1] * g[5] - g[2] * g[4]));
}

const char* labelShapesName(LabelShapes shapes)
{
    switch (shapes) {
    case LabelShapes::Lines:
        return "lines";
    case LabelShapes::Both:
        return "both";
    case LabelShapes::Polygons:
        break;
    }
    return "polygons";
}

Result<LabelShapes> labelShapesFromName(const std::string& name)
{
    for (LabelShapes s : {LabelShapes::Polygons, LabelShapes::Lines, LabelShapes::Both})
        if (name == labelShapesName(s))
            return s;
    return Status(ErrorCode::InvalidArgument,
                  "\"" + name + "\" is not one of polygons, lines, both");
}

} // namespace fisura
