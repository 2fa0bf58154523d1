// DXF for CAD: one layer per width class, the width as lineweight and as an outline to scale
// (see vectorexport.h).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include "gis/vector_common.h"
#include "util/atomic_file.h"

namespace fisura::gis
{

namespace
{

// The ISO lineweights a DXF may carry (hundredths of a millimetre).
int lineweightFor(double mm)
{
    static const int weights[] = {0,  5,  9,  13, 15, 18,  20,  25,  30,  35,  40,  50,
                                  53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211};
    const int want = int(std::lround(mm * 100));
    int best = weights[0];
    for (int w : weights)
        if (std::abs(w - want) < std::abs(best - want))
            best = w;
    return best;
}

std::string classColour(const MeasureResult& r, int k)
{
    const auto c = overlayColour(r.options.classes, k);
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
    return buf;
}

std::string cadLayer(const MeasureResult& r, int k)
{
    const auto& ids = r.options.classes.ids;
    return "fisura_" + (k >= 0 && size_t(k) < ids.size() ? ids[size_t(k)] : std::string("crack"));
}

// One width segment: its centre line with the lineweight of its mean width on its class's layer,
// and its outline at that width on the class's outline layer.
Status writeSegment(OGRLayer& layer, const MeasureResult& r, const CrackBranch& b,
                    const BranchSegment& s, const Placement& p, const QuietGdalErrors& quiet)
{
    const std::string name = cadLayer(r, s.widthClass), colour = classColour(r, s.widthClass);
    OGRLineString line = lineOf(b, s, p);
    const double widthMm = r.pixelSizeMm > 0 ? s.width.meanMm : s.width.meanPx;
    FeaturePtr f(OGRFeature::CreateFeature(layer.GetLayerDefn()));
    f->SetField("Layer", name.c_str());
    // The pen width is read in ground units and written x 100 as the lineweight.
    const std::string pen =
        "PEN(c:" + colour + ",w:" + number(lineweightFor(widthMm) / 100.0, 2) + "g)";
    f->SetStyleString(pen.c_str());
    f->SetGeometry(&line);
    if (layer.CreateFeature(f.get()) != OGRERR_NONE)
        return gdalFailure(quiet, "cannot write segment " + std::to_string(s.id));
    // The outline: the centre line widened to the mean width, in drawing units.
    std::unique_ptr<OGRGeometry> outline(line.Buffer(0.5 * s.width.meanPx * p.unitsPerPixel, 4));
    if (!outline || outline->IsEmpty())
        return Status::ok(); // GDAL built without GEOS: centre lines only
    FeaturePtr o(OGRFeature::CreateFeature(layer.GetLayerDefn()));
    o->SetField("Layer", (name + "_outline").c_str());
    o->SetStyleString(("BRUSH(fc:" + colour + ")").c_str());
    o->SetGeometry(outline.get());
    if (layer.CreateFeature(o.get()) != OGRERR_NONE)
        return gdalFailure(quiet, "cannot write the outline of segment " + std::to_string(s.id));
    return Status::ok();
}

} // namespace

Status writeDxf(GDALDataset& ds, const MeasureResult& r, const Placement& p,
                const QuietGdalErrors& quiet)
{
    auto layer = createLayer(ds, {"entities", wkbUnknown, nullptr, {}}, quiet);
    if (!layer)
        return layer.status();
    for (const auto& b : r.branches)
        for (const auto& s : b.segments)
            if (Status st = writeSegment(**layer, r, b, s, p, quiet); !st)
                return st;
    return Status::ok();
}

// The drawing's units ($INSUNITS: 0 unitless, 4 mm, 6 m) and metric measurement: OGR's DXF
// writer (GDAL 3.6) has no option for them, so GDAL's own header template is written with them
// set, beside the target (never in the staging folder, whose files all move into place).
// Empty when GDAL's template cannot be found: OGR's default header then.
std::string dxfHeader(const Placement& place, const OGRSpatialReference* srs,
                      const std::string& target)
{
    const char* found = CPLFindFile("GDAL", "header.dxf");
    std::ifstream in(found ? found : "");
    if (!found || !in)
        return {};
    std::stringstream text;
    text << in.rdbuf();
    int units = 0;
    if (place.kind == CoordinateKind::Millimetres)
        units = 4;
    else if (place.kind == CoordinateKind::Map && srs && srs->IsProjected() &&
             std::abs(srs->GetLinearUnits() - 1.0) < 1e-9)
        units = 6;
    std::string h = std::regex_replace(text.str(), std::regex(R"((\$INSUNITS\r?\n *70\r?\n *)\d+)"),
                                       "$01" + std::to_string(units));
    h = std::regex_replace(h, std::regex(R"((\$MEASUREMENT\r?\n *70\r?\n *)\d+)"), "$011");
    const std::string path = temporaryPathFor(target) + ".header.dxf";
    std::ofstream out(path, std::ios::binary);
    out << h;
    return out.good() ? path : std::string();
}

} // namespace fisura::gis
