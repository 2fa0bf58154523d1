// Label lines with a width (see fisura/labelgeojson.h): centre lines from the measurement of the
// mask, and lines drawn back with GEOS's buffer through OGR.
#include "gis/label_lines.h"

#include <cmath>
#include <sstream>

#include "fisura/measure.h"

namespace fisura::gis
{

namespace
{

using Json = nlohmann::json;

double rounded(double v)
{
    return std::round(v * 100.0) / 100.0;
}

std::string text(double v)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << v;
    return s.str();
}

Json lineFeature(const CrackBranch& b, const LabelGeoJsonOptions& o)
{
    Json coordinates = Json::array(), widths = Json::array();
    for (const CentrePoint& p : b.centreLine) {
        coordinates.push_back({p.x, p.y});
        widths.push_back(rounded(p.widthPx));
    }
    if (coordinates.size() == 1) { // a LineString has two positions at least
        coordinates.push_back(coordinates.front());
        widths.push_back(widths.front());
    }
    const double width = rounded(b.width.medianPx), length = rounded(b.lengthPx);
    return {{"type", "Feature"},
            {"geometry", {{"type", "LineString"}, {"coordinates", std::move(coordinates)}}},
            {"properties",
             {{"objectType", "annotation"},
              {"classification", classificationOf(o)},
              {"width_px", width},
              {"widths_px", std::move(widths)},
              {"length_px", length},
              {"crack_id", b.crackId},
              {"branch_id", b.id},
              {"measurements", {{"width_px", width}, {"length_px", length}}}}}};
}

// A width given in the file: a number in (0, kMaxLabelLineWidthPx], else refused.
Result<double> checkedWidth(const Json& v, const std::string& where, const std::string& key)
{
    if (!v.is_number())
        return Status(ErrorCode::InvalidArgument, where + ": its " + key + " is not a number");
    const double w = v.get<double>();
    if (!std::isfinite(w) || w <= 0 || w > kMaxLabelLineWidthPx)
        return Status(ErrorCode::InvalidArgument, where + ": its " + key + " of " + text(w) +
                                                      " px is not a width above 0 and up to " +
                                                      text(kMaxLabelLineWidthPx) + " px");
    return w;
}

// QuPath's measurement of the width: {"width_px": w} or [{"name": "Width px", "value": w}].
const Json* widthMeasurement(const Json& properties)
{
    const auto m = properties.find("measurements");
    if (m == properties.end())
        return nullptr;
    const auto named = [](const std::string& n) { return n == "width_px" || n == "Width px"; };
    if (m->is_object()) {
        for (auto it = m->begin(); it != m->end(); ++it)
            if (named(it.key()))
                return &it.value();
    } else if (m->is_array()) {
        for (const Json& e : *m)
            if (e.is_object() && e.contains("name") && e["name"].is_string() &&
                named(e["name"].get<std::string>()) && e.contains("value"))
                return &e["value"];
    }
    return nullptr;
}

Result<double> featureWidth(const Json& properties, const std::string& where)
{
    if (!properties.is_object())
        return 1.0;
    if (properties.contains("width_px"))
        return checkedWidth(properties["width_px"], where, "width_px");
    if (const Json* m = widthMeasurement(properties))
        return checkedWidth(*m, where, "width measurement");
    return 1.0; // QuPath's lines have no width
}

Result<GeometryPtr> buffered(const OGRGeometry& g, double widthPx, const std::string& where)
{
    // Round caps and joins: the pixels whose centres lie within half the width of the line.
    GeometryPtr area(g.Buffer(widthPx / 2, 8));
    if (!area)
        return Status(ErrorCode::IoError,
                      where + ": GDAL cannot draw the line with its width (OGR buffer, GEOS)");
    return area;
}

} // namespace

Json classificationOf(const LabelGeoJsonOptions& o)
{
    return {{"name", o.className}, {"color", {o.colour[0], o.colour[1], o.colour[2]}}};
}

Result<Json> labelLineFeatures(const Image& mask, const LabelGeoJsonOptions& o)
{
    Image binary = Image::make(mask.width, mask.height, 1);
    for (int y = 0; y < mask.height; ++y)
        for (int x = 0; x < mask.width; ++x)
            binary.row(y)[x] = mask.row(y)[size_t(x) * size_t(mask.channels)] ? 255 : 0;
    MeasureOptions m; // a label is what it is: no closing, no crack too small to keep
    m.closingRadiusPx = 0;
    m.minAreaPx = 1;
    auto r = measureCracks(binary, m);
    if (!r)
        return r.status();
    Json features = Json::array();
    for (const CrackBranch& b : r->branches)
        if (!b.centreLine.empty())
            features.push_back(lineFeature(b, o));
    return features;
}

Result<std::vector<GeometryPtr>> labelLineAreas(const Json& feature, const OGRGeometry& line,
                                                const std::string& where)
{
    auto w = featureWidth(feature.value("properties", Json()), where);
    if (!w)
        return w.status();
    auto area = buffered(line, *w, where);
    if (!area)
        return area.status();
    std::vector<GeometryPtr> out;
    out.push_back(std::move(*area));
    return out;
}

} // namespace fisura::gis
