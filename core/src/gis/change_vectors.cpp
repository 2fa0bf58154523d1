// exportChangeVectors: the crack changes of a comparison of two dates as OGR features, one per
// change (see vectorexport.h).
#include <cstdio>
#include <filesystem>
#include <map>

#include "fisura/change.h"
#include "fisura/vectorexport.h"
#include "gis/vector_common.h"
#include "gis/vector_files.h"

namespace fisura
{

namespace
{

using gis::FeaturePtr;
using gis::gdalFailure;
using gis::Placement;

using BranchIndex = std::map<int, std::vector<size_t>>; ///< branch positions by crack id

BranchIndex branchesByCrack(const MeasureResult& r)
{
    BranchIndex index;
    size_t i = 0;
    for (const CrackBranch& b : r.branches)
        index[b.crackId].push_back(i++);
    return index;
}

std::string idList(const std::vector<int>& ids)
{
    std::string s;
    for (int id : ids)
        s += (s.empty() ? "" : ",") + std::to_string(id);
    return s;
}

std::string hexColour(ChangeKind k)
{
    const auto c = changeKindColour(k);
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
    return buf;
}

/// The centre lines of a change: its later cracks', or its earlier ones' when it is gone.
OGRMultiLineString linesOf(const CrackChange& c, const ChangeResult& r, const BranchIndex& before,
                           const BranchIndex& after, const Placement& p)
{
    const bool earlier = c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside;
    const BranchIndex& index = earlier ? before : after;
    const BranchList& branches = earlier ? r.before.branches : r.after.branches;
    OGRMultiLineString lines;
    for (int id : earlier ? c.beforeIds : c.afterIds)
        if (auto it = index.find(id); it != index.end())
            for (size_t b : it->second) {
                OGRLineString line = gis::lineOf(branches[b], p);
                lines.addGeometry(&line);
            }
    return lines;
}

void addFields(OGRLayer& layer)
{
    OGRFieldDefn change("change", OFTString);
    change.SetWidth(10);
    layer.CreateField(&change);
    for (const char* name : {"after_ids", "before_ids", "w_class"}) {
        OGRFieldDefn f(name, OFTString);
        f.SetWidth(name[0] == 'w' ? 16 : 80);
        layer.CreateField(&f);
    }
    for (const char* name : {"len_px", "len_mm", "gain_px", "gain_mm", "w_chg_px", "w_chg_mm",
                             "w_max_px", "w_max_mm"}) {
        OGRFieldDefn f(name, OFTReal);
        layer.CreateField(&f);
    }
}

void setFields(OGRFeature& f, const ChangeResult& r, const CrackChange& c)
{
    const bool earlier = c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside;
    f.SetField("change", changeKindName(c.kind));
    f.SetField("after_ids", idList(c.afterIds).c_str());
    f.SetField("before_ids", idList(c.beforeIds).c_str());
    const auto& ids = r.before.options.classes.ids;
    if (c.widthClass >= 0 && size_t(c.widthClass) < ids.size())
        f.SetField("w_class", ids[size_t(c.widthClass)].c_str());
    f.SetField("len_px", earlier ? c.beforeLengthPx : c.afterLengthPx);
    f.SetField("gain_px", c.lengthGainPx);
    f.SetField("w_chg_px", c.widthChangePx);
    f.SetField("w_max_px", c.afterMaxWidthPx);
    // Millimetres only with a pixel size (a gain or a width change may be negative).
    const double px = r.before.pixelSizeMm > 0 ? r.before.pixelSizeMm : r.after.pixelSizeMm;
    const std::pair<const char*, double> mm[] = {
        {"len_mm", (earlier ? c.beforeLengthPx : c.afterLengthPx) * px},
        {"gain_mm", c.lengthGainMm},
        {"w_chg_mm", c.widthChangeMm},
        {"w_max_mm", c.afterMaxWidthMm}};
    for (const auto& [name, v] : mm)
        if (px > 0)
            f.SetField(name, v);
        else
            f.SetFieldNull(f.GetFieldIndex(name));
}

/// Every change as a feature of `layer`; DXF: on the CAD layer of its kind, in its colour.
Status writeChanges(OGRLayer& layer, const ChangeResult& r, const Placement& p, bool dxf,
                    const gis::QuietGdalErrors& quiet, int& lines)
{
    const BranchIndex before = branchesByCrack(r.before), after = branchesByCrack(r.after);
    if (!dxf)
        addFields(layer);
    for (size_t i = 0; i < r.changes.size(); ++i) {
        const CrackChange& c = r.changes[i];
        OGRMultiLineString geometry = linesOf(c, r, before, after, p);
        lines += geometry.getNumGeometries();
        FeaturePtr f(OGRFeature::CreateFeature(layer.GetLayerDefn()));
        if (dxf) {
            f->SetField("Layer", (std::string("fisura_") + changeKindName(c.kind)).c_str());
            f->SetStyleString(("PEN(c:" + hexColour(c.kind) + ")").c_str());
        } else {
            setFields(*f, r, c);
        }
        f->SetGeometry(&geometry);
        if (layer.CreateFeature(f.get()) != OGRERR_NONE)
            return gdalFailure(quiet, "cannot write change " + std::to_string(i + 1));
    }
    return Status::ok();
}

std::vector<std::string> layerOptions(VectorFormat format, bool hasCrs, const std::string& what)
{
    if (format == VectorFormat::GeoJson)
        return {hasCrs ? "RFC7946=YES" : "RFC7946=NO", "DESCRIPTION=" + what};
    if (format == VectorFormat::GeoPackage)
        return {"DESCRIPTION=" + what};
    if (format == VectorFormat::Shapefile)
        return {"ENCODING=UTF-8"};
    return {};
}

struct Written {
    Placement place;
    bool hasCrs = false;
    int lines = 0;
};

/// The one file (a Shapefile's several) into `staged`.
Status writeFile(const ChangeResult& r, VectorFormat format, const std::string& staged,
                 const std::string& target, const OGRSpatialReference* srs, Written& w,
                 const gis::QuietGdalErrors& quiet)
{
    const bool dxf = format == VectorFormat::Dxf;
    const std::string header = dxf ? gis::dxfHeader(w.place, srs, target) : "";
    auto ds = gis::createDataset(format, staged, quiet, header);
    Status s = ds ? Status::ok() : ds.status();
    const std::string what = "Crack changes between two dates (" +
                             std::filesystem::path(r.after.mapPath).filename().string() +
                             " aligned onto " +
                             std::filesystem::path(r.before.mapPath).filename().string() +
                             "); coordinates: " + coordinateKindName(w.place.kind);
    if (s) {
        (*ds)->SetMetadataItem("FISURA_COORDINATES", coordinateKindName(w.place.kind));
        auto layer =
            gis::createLayer(**ds,
                             {dxf ? "entities" : "changes", dxf ? wkbUnknown : wkbMultiLineString,
                              dxf ? nullptr : srs, layerOptions(format, srs != nullptr, what)},
                             quiet);
        s = layer ? writeChanges(**layer, r, w.place, dxf, quiet, w.lines) : layer.status();
    }
    if (s)
        s = gis::closeDataset(*ds, staged, quiet);
    std::error_code ec;
    if (!header.empty())
        std::filesystem::remove(header, ec);
    return s;
}

} // namespace

Result<VectorExportSummary> exportChangeVectors(const ChangeResult& r, const std::string& path,
                                                const VectorExportOptions& o)
{
    auto format = vectorFormatFor(path);
    if (!format)
        return format.status();
    auto place = gis::placementFor(r.before, o);
    if (!place)
        return place.status();
    gis::ensureGdal();
    gis::QuietGdalErrors quiet;
    OGRSpatialReference srs;
    Written w;
    w.place = *place;
    w.hasCrs = !place->crsWkt.empty() && srs.importFromWkt(place->crsWkt.c_str()) == OGRERR_NONE;
    srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    auto staging = gis::StagingFolder::create(path);
    if (!staging)
        return staging.status();
    if (Status s =
            writeFile(r, *format, staging->staged(path), path, w.hasCrs ? &srs : nullptr, w, quiet);
        !s)
        return s;
    auto files = staging->commit();
    if (!files)
        return files.status();
    VectorExportSummary sum;
    sum.format = *format;
    sum.coordinates = place->kind;
    sum.crsCode = *format == VectorFormat::GeoJson && w.hasCrs ? "EPSG:4326" : place->crsCode;
    sum.cracks = int(r.changes.size());
    sum.branches = w.lines;
    sum.files = std::move(*files);
    return sum;
}

} // namespace fisura
