// Helpers shared by the vector writers (see vector_common.h).
#include "gis/vector_common.h"

#include <algorithm>
#include <cstdio>

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

} // namespace fisura::gis
