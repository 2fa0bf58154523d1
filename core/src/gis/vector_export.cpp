// exportCrackVectors: branches, cracks and width segments of a measurement as OGR features (see
// vectorexport.h).
#include "fisura/vectorexport.h"

#include <algorithm>
#include <filesystem>

#include "gis/vector_common.h"
#include "gis/vector_files.h"

namespace fisura
{

namespace
{

namespace fs = std::filesystem;
using gis::closeDataset;
using gis::createDataset;
using gis::FeaturePtr;
using gis::gdalFailure;
using gis::lineOf;
using gis::number;
using gis::Placement;
using gis::placementFor;

enum class LayerKind { Branches, Cracks, Segments };

std::string coordinateNote(const Placement& p, VectorFormat f)
{
    switch (p.kind) {
    case CoordinateKind::Map:
        if (f == VectorFormat::GeoJson && !p.crsWkt.empty())
            return "WGS 84 longitude/latitude (RFC 7946), reprojected from the scan's CRS " +
                   (p.crsCode.empty() ? p.crsName : p.crsCode);
        return p.crsWkt.empty()
                   ? "map coordinates of the scan's geotransform; the scan names no CRS"
                   : "map coordinates in the scan's CRS " +
                         (p.crsCode.empty() ? p.crsName : p.crsCode);
    case CoordinateKind::Millimetres:
        return std::string("local coordinates in millimetres from the scan's top-left corner, ") +
               "x right, y up (rows are negative y); no CRS" +
               (f == VectorFormat::GeoJson ? " (not RFC 7946: not WGS 84)" : "");
    case CoordinateKind::Pixels:
        break;
    }
    return std::string("local coordinates in pixels from the scan's top-left corner, x right, y ") +
           "up (rows are negative y); pixel size unknown; no CRS" +
           (f == VectorFormat::GeoJson ? " (not RFC 7946: not WGS 84)" : "");
}

std::vector<std::pair<std::string, std::string>>
metadata(const MeasureResult& r, const Placement& p, const VectorExportOptions& o, VectorFormat f)
{
    const auto& c = r.options.classes;
    std::string limits;
    for (double v : c.upperLimitsMm)
        limits += (limits.empty() ? "" : " ") + number(v, 3);
    return {{"FISURA_MAP", r.mapPath},
            {"FISURA_SCAN", r.options.scanPath},
            {"FISURA_MODEL", o.model},
            {"FISURA_THRESHOLD", number(r.options.threshold, 4)},
            {"FISURA_PIXEL_SIZE_MM", r.pixelSizeMm > 0 ? number(r.pixelSizeMm, 6) : ""},
            {"FISURA_COORDINATES", coordinateKindName(p.kind)},
            {"FISURA_COORDINATE_NOTE", coordinateNote(p, f)},
            {"FISURA_UNITS", p.kind == CoordinateKind::Map           ? "map units of the CRS"
                             : p.kind == CoordinateKind::Millimetres ? "mm"
                                                                     : "px"},
            {"FISURA_CLASS_PRESET", c.preset},
            {"FISURA_CLASS_LIMITS_MM", limits},
            {"FISURA_TOLERABLE_WIDTH_MM", c.tolerableMm > 0 ? number(c.tolerableMm, 3) : ""},
            {"FISURA_CLASS_NOTE", kWidthClassNoteText}};
}

std::string description(const MeasureResult& r, const Placement& p, VectorFormat f)
{
    std::string d = "Fisura crack centre lines of " + r.mapPath +
                    ". Coordinates: " + coordinateNote(p, f) +
                    ". Width classes: " + r.options.classes.preset;
    if (r.options.classes.tolerableMm > 0)
        d += " (tolerable width " + number(r.options.classes.tolerableMm, 2) + " mm)";
    return d + ".";
}

// --- attribute layers (GeoPackage, GeoJSON, Shapefile) ---

void addFields(OGRLayer& layer, LayerKind kind)
{
    auto add = [&](const char* name, OGRFieldType type) {
        OGRFieldDefn f(name, type);
        layer.CreateField(&f);
    };
    add("crack_id", OFTInteger);
    add(kind == LayerKind::Cracks ? "branches" : "branch_id", OFTInteger);
    if (kind == LayerKind::Segments)
        add("segment_id", OFTInteger);
    for (const char* n : {"len_px", "len_mm", "w_mean_px", "w_max_px", "w_mean_mm", "w_max_mm"})
        add(n, OFTReal);
    add("w_class", OFTString);
    add("over_limit", OFTInteger);
}

template <class T> void setCommon(OGRFeature& f, const MeasureResult& r, const T& item)
{
    f.SetField("len_px", item.lengthPx);
    f.SetField("w_mean_px", item.width.meanPx);
    f.SetField("w_max_px", item.width.maxPx);
    if (r.pixelSizeMm > 0) {
        f.SetField("len_mm", item.lengthMm);
        f.SetField("w_mean_mm", item.width.meanMm);
        f.SetField("w_max_mm", item.width.maxMm);
    } else {
        f.SetFieldNull(f.GetFieldIndex("len_mm"));
        f.SetFieldNull(f.GetFieldIndex("w_mean_mm"));
        f.SetFieldNull(f.GetFieldIndex("w_max_mm"));
    }
    const auto& ids = r.options.classes.ids;
    const int k = item.widthClass;
    f.SetField("w_class", k >= 0 && size_t(k) < ids.size() ? ids[size_t(k)].c_str() : "");
    f.SetField("over_limit", item.exceedsLimit ? 1 : 0);
}

Status writeBranches(OGRLayer& layer, const MeasureResult& r, const Placement& p,
                     const gis::QuietGdalErrors& quiet)
{
    addFields(layer, LayerKind::Branches);
    for (const auto& b : r.branches) {
        FeaturePtr f(OGRFeature::CreateFeature(layer.GetLayerDefn()));
        f->SetField("crack_id", b.crackId);
        f->SetField("branch_id", b.id);
        setCommon(*f, r, b);
        OGRLineString line = lineOf(b, p);
        f->SetGeometry(&line);
        if (layer.CreateFeature(f.get()) != OGRERR_NONE)
            return gdalFailure(quiet, "cannot write branch " + std::to_string(b.id));
    }
    return Status::ok();
}

Status writeCracks(OGRLayer& layer, const MeasureResult& r, const Placement& p,
                   const gis::QuietGdalErrors& quiet)
{
    addFields(layer, LayerKind::Cracks);
    size_t next = 0; // branches are ordered by crack
    for (const auto& c : r.cracks) {
        OGRMultiLineString lines;
        int n = 0;
        for (; next < r.branches.size(); ++next, ++n) {
            const CrackBranch b = r.branches[next];
            if (b.crackId != c.id)
                break;
            OGRLineString l = lineOf(b, p);
            lines.addGeometry(&l);
        }
        FeaturePtr f(OGRFeature::CreateFeature(layer.GetLayerDefn()));
        f->SetField("crack_id", c.id);
        f->SetField("branches", n);
        setCommon(*f, r, c);
        f->SetGeometry(&lines);
        if (layer.CreateFeature(f.get()) != OGRERR_NONE)
            return gdalFailure(quiet, "cannot write crack " + std::to_string(c.id));
    }
    return Status::ok();
}

// A line per width segment: a GIS colours a crack along its length by w_class or the widths.
Status writeSegments(OGRLayer& layer, const MeasureResult& r, const Placement& p,
                     const gis::QuietGdalErrors& quiet)
{
    addFields(layer, LayerKind::Segments);
    for (const auto& b : r.branches)
        for (const auto& s : b.segments) {
            FeaturePtr f(OGRFeature::CreateFeature(layer.GetLayerDefn()));
            f->SetField("crack_id", b.crackId);
            f->SetField("branch_id", b.id);
            f->SetField("segment_id", s.id);
            setCommon(*f, r, s);
            OGRLineString line = lineOf(b, s, p);
            f->SetGeometry(&line);
            if (layer.CreateFeature(f.get()) != OGRERR_NONE)
                return gdalFailure(quiet, "cannot write segment " + std::to_string(s.id));
        }
    return Status::ok();
}

// "<stem>_cracks.<ext>" and "<stem>_segments.<ext>" beside the branches, for the formats of one
// layer per file.
std::string sibling(const std::string& path, const char* suffix)
{
    const fs::path p(path);
    return (p.parent_path() / (p.stem().string() + suffix + p.extension().string())).string();
}

struct Job {
    const MeasureResult& r;
    const Placement& place;
    VectorFormat format;
    const OGRSpatialReference* srs;
    std::vector<std::pair<std::string, std::string>> meta;
    std::string description;
};

Status writeLayer(GDALDataset& ds, const Job& j, LayerKind kind,
                  const std::vector<std::string>& opts, const gis::QuietGdalErrors& quiet)
{
    const char* name = kind == LayerKind::Branches ? "branches"
                       : kind == LayerKind::Cracks ? "cracks"
                                                   : "segments";
    const auto type = kind == LayerKind::Cracks ? wkbMultiLineString : wkbLineString;
    auto layer = gis::createLayer(ds, {name, type, j.srs, opts}, quiet);
    if (!layer)
        return layer.status();
    switch (kind) {
    case LayerKind::Branches:
        return writeBranches(**layer, j.r, j.place, quiet);
    case LayerKind::Cracks:
        return writeCracks(**layer, j.r, j.place, quiet);
    case LayerKind::Segments:
        break;
    }
    return writeSegments(**layer, j.r, j.place, quiet);
}

Status writeLayers(GDALDataset& ds, const Job& j, const std::vector<LayerKind>& kinds,
                   const gis::QuietGdalErrors& quiet)
{
    for (const auto& [k, v] : j.meta)
        ds.SetMetadataItem(k.c_str(), v.c_str());
    std::vector<std::string> opts;
    if (j.format == VectorFormat::GeoJson)
        opts = {j.srs ? "RFC7946=YES" : "RFC7946=NO", "DESCRIPTION=" + j.description};
    else if (j.format == VectorFormat::GeoPackage)
        opts = {"DESCRIPTION=" + j.description};
    else if (j.format == VectorFormat::Shapefile)
        opts = {"ENCODING=UTF-8"};
    for (LayerKind kind : kinds)
        if (Status s = writeLayer(ds, j, kind, opts, quiet); !s)
            return s;
    return Status::ok();
}

Status writeFile(const Job& j, const std::string& staged, const std::vector<LayerKind>& kinds,
                 const gis::QuietGdalErrors& quiet, const std::string& target)
{
    const std::string header =
        j.format == VectorFormat::Dxf ? gis::dxfHeader(j.place, j.srs, target) : "";
    auto ds = createDataset(j.format, staged, quiet, header);
    Status s = ds ? Status::ok() : ds.status();
    if (s)
        s = j.format == VectorFormat::Dxf ? gis::writeDxf(**ds, j.r, j.place, quiet)
                                          : writeLayers(**ds, j, kinds, quiet);
    if (s)
        s = closeDataset(*ds, staged, quiet);
    std::error_code ec;
    if (!header.empty())
        fs::remove(header, ec);
    return s;
}

// Every file of the export: one dataset with every layer (GeoPackage; DXF draws the segments),
// or a file per layer (GeoJSON, Shapefile).
Status writeFiles(const Job& j, const gis::StagingFolder& staging, const std::string& path,
                  const gis::QuietGdalErrors& quiet)
{
    using K = LayerKind;
    if (j.format != VectorFormat::GeoJson && j.format != VectorFormat::Shapefile)
        return writeFile(j, staging.staged(path), {K::Branches, K::Cracks, K::Segments}, quiet,
                         path);
    const std::pair<std::string, K> files[] = {{path, K::Branches},
                                               {sibling(path, "_cracks"), K::Cracks},
                                               {sibling(path, "_segments"), K::Segments}};
    for (const auto& [file, kind] : files)
        if (Status s = writeFile(j, staging.staged(file), {kind}, quiet, path); !s)
            return s;
    return Status::ok();
}

} // namespace

Result<VectorExportSummary> exportCrackVectors(const MeasureResult& r, const std::string& path,
                                               const VectorExportOptions& o)
{
    auto format = vectorFormatFor(path);
    if (!format)
        return format.status();
    auto place = placementFor(r, o);
    if (!place)
        return place.status();
    gis::ensureGdal();
    gis::QuietGdalErrors quiet;
    OGRSpatialReference srs;
    const bool hasCrs =
        !place->crsWkt.empty() && srs.importFromWkt(place->crsWkt.c_str()) == OGRERR_NONE;
    srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    Job job{r,
            *place,
            *format,
            hasCrs ? &srs : nullptr,
            metadata(r, *place, o, *format),
            description(r, *place, *format)};
    auto staging = gis::StagingFolder::create(path);
    if (!staging)
        return staging.status();
    if (Status s = writeFiles(job, *staging, path, quiet); !s)
        return s;
    auto files = staging->commit();
    if (!files)
        return files.status();
    VectorExportSummary sum;
    sum.format = *format;
    sum.coordinates = place->kind;
    sum.crsCode = *format == VectorFormat::GeoJson && hasCrs ? "EPSG:4326" : place->crsCode;
    sum.branches = int(r.branches.size());
    sum.cracks = *format == VectorFormat::Dxf ? 0 : int(r.cracks.size());
    for (const auto& b : r.branches)
        sum.segments += int(b.segments.size());
    const std::string main = fs::path(path).filename().string();
    std::stable_partition(files->begin(), files->end(), [&](const std::string& f) {
        return fs::path(f).filename().string() == main;
    });
    sum.files = std::move(*files);
    return sum;
}

} // namespace fisura
