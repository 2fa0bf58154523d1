// Shared by the vector writers (attribute layers and DXF): where map pixels go in the file, and
// small helpers around OGR features and layers.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>

#include "fisura/vectorexport.h"
#include "gis/gdal_session.h"

namespace fisura::gis
{

struct OgrFeatureDeleter {
    void operator()(OGRFeature* f) const { OGRFeature::DestroyFeature(f); }
};
using FeaturePtr = std::unique_ptr<OGRFeature, OgrFeatureDeleter>;

// Where a map pixel position (x right, y down, from the top-left corner) goes in the file.
struct Placement {
    CoordinateKind kind = CoordinateKind::Pixels;
    std::array<double, 6> gt{0, 1, 0, 0, 0, -1};
    std::string crsWkt, crsCode, crsName;
    double unitsPerPixel = 1; // drawing units per pixel (widths in CAD)

    void apply(double x, double y, double& X, double& Y) const
    {
        X = gt[0] + x * gt[1] + y * gt[2];
        Y = gt[3] + x * gt[4] + y * gt[5];
    }
};

std::string number(double v, int decimals);

/// Where the cracks of `r` go: the georeference of options.georeferencePath, else of the scan or
/// the map when georeferenced (map coordinates), else mm or px from the top-left corner, y up.
/// InvalidArgument when the georeferenced raster's size is not the map's.
Result<Placement> placementFor(const MeasureResult& r, const VectorExportOptions& o);

using DatasetPtr = std::unique_ptr<GDALDataset>;
/// A new vector dataset of `format` at `path` (a DXF with its header template, when given).
Result<DatasetPtr> createDataset(VectorFormat format, const std::string& path,
                                 const QuietGdalErrors& quiet, const std::string& dxfHeader = {});
/// Closes a dataset, which is when most drivers flush: a failure there is a failed write.
Status closeDataset(DatasetPtr& ds, const std::string& path, const QuietGdalErrors& quiet);
Status gdalFailure(const QuietGdalErrors& quiet, const std::string& what);

struct LayerSpec {
    std::string name;
    OGRwkbGeometryType type;
    const OGRSpatialReference* srs;
    std::vector<std::string> options;
};
Result<OGRLayer*> createLayer(GDALDataset& ds, const LayerSpec& spec, const QuietGdalErrors& quiet);

/// A branch's centre line in file coordinates (a branch of one pixel: a line of length 0).
OGRLineString lineOf(const CrackBranch& b, const Placement& p);
/// The piece of the branch's centre line that a width segment covers.
OGRLineString lineOf(const CrackBranch& b, const BranchSegment& s, const Placement& p);

/// DXF: one CAD layer per width class, a lineweight and an outline per width segment.
Status writeDxf(GDALDataset& ds, const MeasureResult& r, const Placement& p,
                const QuietGdalErrors& quiet);
/// GDAL's DXF header template with the drawing's units set, written beside `target`; empty when
/// the template cannot be found (see dxf_export.cpp).
std::string dxfHeader(const Placement& p, const OGRSpatialReference* srs,
                      const std::string& target);

} // namespace fisura::gis
