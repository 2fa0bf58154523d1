// A build of Fisura without GDAL (FISURA_WITH_GDAL=OFF, e.g. a GPU host's core and fisura-cli):
// vector, overlay and GeoJSON label export say Unsupported; scans are taken as not
// georeferenced.
#include "fisura/labelgeojson.h"
#include "fisura/vectorexport.h"

namespace fisura
{

namespace
{
Status noGdal(const std::string& what)
{
    return Status(ErrorCode::Unsupported,
                  what + " needs GDAL, and this build of Fisura was made without it");
}
} // namespace

Result<Georeference> readGeoreference(const std::string& path)
{
    return noGdal("reading the georeference of " + path);
}

Result<VectorExportSummary> exportCrackVectors(const MeasureResult&, const std::string& path,
                                               const VectorExportOptions&)
{
    return noGdal("writing " + path);
}

Status writeCrackOverlay(const MeasureResult&, const std::string& path, const VectorExportOptions&,
                         const CancelToken&)
{
    return noGdal("writing " + path);
}

Status writeCrackOverlayOfMap(const MeasureResult&, const std::string& path,
                              const VectorExportOptions&, const CancelToken&, ProgressSink*)
{
    return noGdal("writing " + path);
}

Result<VectorExportSummary> exportChangeVectors(const ChangeResult&, const std::string& path,
                                                const VectorExportOptions&)
{
    return noGdal("writing " + path);
}

Result<std::string> labelMaskToGeoJson(const Image&, const LabelGeoJsonOptions&)
{
    return noGdal("GeoJSON labels");
}

Result<Image> labelMaskFromGeoJson(const std::string&, int, int, const std::string& what)
{
    return noGdal("reading " + what);
}

Status writeLabelGeoJson(const std::string&, const std::string& outPath, const LabelGeoJsonOptions&)
{
    return noGdal("writing " + outPath);
}

Status writeLabelGeoJson(const Image&, const std::string& outPath, const LabelGeoJsonOptions&)
{
    return noGdal("writing " + outPath);
}

Result<Image> readLabelGeoJson(const std::string& path, int, int)
{
    return noGdal("reading " + path);
}

} // namespace fisura
