// The line half of label GeoJSON (fisura/labelgeojson.h): branch centre lines with their width
// out of a mask, and line features with a width back into areas to fill.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <ogr_geometry.h>

#include "fisura/image.h"
#include "fisura/labelgeojson.h"
#include "fisura/status.h"

namespace fisura::gis
{

struct GeometryDeleter {
    void operator()(OGRGeometry* g) const { OGRGeometryFactory::destroyGeometry(g); }
};
using GeometryPtr = std::unique_ptr<OGRGeometry, GeometryDeleter>;

/// {"name", "color"} of the annotations.
nlohmann::json classificationOf(const LabelGeoJsonOptions& o);

/// One LineString annotation per branch of the measured mask (non-zero = crack).
Result<nlohmann::json> labelLineFeatures(const Image& mask, const LabelGeoJsonOptions& o);

/// The areas that `line`, the LineString or MultiLineString of `feature`, covers with its width
/// (the rule at the top of fisura/labelgeojson.h); `where` names the feature in messages.
Result<std::vector<GeometryPtr>> labelLineAreas(const nlohmann::json& feature,
                                                const OGRGeometry& line, const std::string& where);

} // namespace fisura::gis
