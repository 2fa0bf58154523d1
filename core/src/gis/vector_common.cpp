// Helpers shared by the vector writers (see vector_common.h).
#include "gis/vector_common.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace fisura::gis
{

std::string number(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

Status gdalFailure(const QuietGdalErrors& quiet, const std::string& what)
{
    return Status(ErrorCode::IoError, what + ": " + quiet.message("GDAL failed"));
}

Result<OGRLayer*> createLayer(GDALDataset& ds, const LayerSpec& spec, const QuietGdalErrors& quiet)
{
    std::vector<const char*> opts;
    for (const auto& o : spec.options)
        opts.push_back(o.c_str());
    opts.push_back(nullptr);
    OGRLayer* layer = ds.CreateLayer(spec.name.c_str(), const_cast<OGRSpatialReference*>(spec.srs),
                                     spec.type, const_cast<char**>(opts.data()));
    if (!layer)
        return gdalFailure(quiet, "cannot create layer " + spec.name);
    return layer;
}

OGRLineString lineOf(const CrackBranch& b, const Placement& p)
{
    OGRLineString line;
    for (const auto& v : b.centreLine) {
        double X, Y;
        p.apply(v.x, v.y, X, Y);
        line.addPoint(X, Y);
    }
    if (line.getNumPoints() == 1) // a branch of one pixel: a line of length 0 there
        line.addPoint(line.getX(0), line.getY(0));
    return line;
}

OGRLineString lineOf(const CrackBranch& b, const BranchSegment& s, const Placement& p)
{
    OGRLineString line;
    const int n = int(b.centreLine.size());
    for (int i = std::max(0, s.firstVertex); i <= s.lastVertex && i < n; ++i) {
        double X, Y;
        p.apply(b.centreLine[size_t(i)].x, b.centreLine[size_t(i)].y, X, Y);
        line.addPoint(X, Y);
    }
    if (line.getNumPoints() == 1)
        line.addPoint(line.getX(0), line.getY(0));
    return line;
}

Result<Placement> placementFor(const MeasureResult& r, const VectorExportOptions& o)
{
    Placement p;
    std::string geo = o.georeferencePath;
    if (geo.empty())
        geo = !r.options.scanPath.empty() ? r.options.scanPath : r.mapPath;
    std::error_code ec;
    const bool explicitRaster = !o.georeferencePath.empty();
    if (explicitRaster || (!geo.empty() && geo != "(memory)" && std::filesystem::exists(geo, ec))) {
        auto g = readGeoreference(geo);
        if (!g && explicitRaster)
            return g.status();
        if (g && g->georeferenced) {
            if (g->width != r.width || g->height != r.height)
                return Status(ErrorCode::InvalidArgument, "the map is " + std::to_string(r.width) +
                                                              " x " + std::to_string(r.height) +
                                                              " px but " + geo + " is " +
                                                              std::to_string(g->width) + " x " +
                                                              std::to_string(g->height) + " px");
            p.kind = CoordinateKind::Map;
            p.gt = g->geoTransform;
            p.crsWkt = g->crsWkt;
            p.crsCode = g->crsCode;
            p.crsName = g->crsName;
            p.unitsPerPixel = g->unitsPerPixel();
            return p;
        }
    }
    const double s = r.pixelSizeMm > 0 ? r.pixelSizeMm : 1.0;
    p.kind = r.pixelSizeMm > 0 ? CoordinateKind::Millimetres : CoordinateKind::Pixels;
    p.gt = {0, s, 0, 0, 0, -s}; // y up: GIS and CAD draw y upwards
    p.unitsPerPixel = s;
    return p;
}

Result<DatasetPtr> createDataset(VectorFormat format, const std::string& path,
                                 const QuietGdalErrors& quiet, const std::string& dxfHeader)
{
    const std::string header = "HEADER=" + dxfHeader;
    const char* const opts[] = {header.c_str(), nullptr};
    GDALDriver* driver = GetGDALDriverManager()->GetDriverByName(vectorDriverName(format));
    if (!driver)
        return Status(ErrorCode::Unsupported,
                      std::string("this GDAL has no ") + vectorDriverName(format) + " driver");
    DatasetPtr ds(driver->Create(path.c_str(), 0, 0, 0, GDT_Unknown,
                                 dxfHeader.empty() ? nullptr : const_cast<char**>(opts)));
    if (!ds)
        return gdalFailure(quiet, "cannot create " + path);
    return ds;
}

Status closeDataset(DatasetPtr& ds, const std::string& path, const QuietGdalErrors& quiet)
{
    CPLErrorReset();
    ds.reset();
    if (CPLGetLastErrorType() >= CE_Failure)
        return gdalFailure(quiet, "cannot finish " + path);
    return Status::ok();
}

} // namespace fisura::gis
