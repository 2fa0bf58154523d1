// exportCrackVectors: branches and cracks of a measurement as OGR features (see vectorexport.h).
#include "fisura/vectorexport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>

#include "fisura/threshold.h"
#include "gis/gdal_session.h"
#include "gis/vector_files.h"
#include "util/atomic_file.h"

namespace fisura
{

namespace
{

namespace fs = std::filesystem;

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

Result<Placement> placementFor(const MeasureResult& r, const VectorExportOptions& o)
{
    Placement p;
    std::string geo = o.georeferencePath;
    if (geo.empty())
        geo = !r.options.scanPath.empty() ? r.options.scanPath : r.mapPath;
    std::error_code ec;
    const bool explicitRaster = !o.georeferencePath.empty();
    if (explicitRaster || (!geo.empty() && geo != "(memory)" && fs::exists(geo, ec))) {
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

std::string number(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

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

Status gdalFailure(const gis::QuietGdalErrors& quiet, const std::string& what)
{
    return Status(ErrorCode::IoError, what + ": " + quiet.message("GDAL failed"));
}

// --- attribute layers (GeoPackage, GeoJSON, Shapefile) ---

void addFields(OGRLayer& layer, bool branches)
{
    auto add = [&](const char* name, OGRFieldType type) {
        OGRFieldDefn f(name, type);
        layer.CreateField(&f);
    };
    add("crack_id", OFTInteger);
    add(branches ? "branch_id" : "branches", OFTInteger);
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

struct LayerSpec {
    std::string name;
    OGRwkbGeometryType type;
    const OGRSpatialReference* srs;
    std::vector<std::string> options;
};

Result<OGRLayer*> createLayer(GDALDataset& ds, const LayerSpec& spec,
                              const gis::QuietGdalErrors& quiet)
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

Status writeBranches(OGRLayer& layer, const MeasureResult& r, const Placement& p,
                     const gis::QuietGdalErrors& quiet)
{
    addFields(layer, true);
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
    addFields(layer, false);
    size_t next = 0; // branches are ordered by crack
    for (const auto& c : r.cracks) {
        OGRMultiLineString lines;
        int n = 0;
        for (; next < r.branches.size() && r.branches[next].crackId == c.id; ++next, ++n) {
            OGRLineString l = lineOf(r.branches[next], p);
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

using DatasetPtr = std::unique_ptr<GDALDataset>;

Result<DatasetPtr> createDataset(VectorFormat format, const std::string& path,
                                 const gis::QuietGdalErrors& quiet,
                                 const std::string& dxfHeader = {})
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

// Closes a dataset, which is when most drivers flush: a failure there is a failed write.
Status closeDataset(DatasetPtr& ds, const std::string& path, const gis::QuietGdalErrors& quiet)
{
    CPLErrorReset();
    ds.reset();
    if (CPLGetLastErrorType() >= CE_Failure)
        return gdalFailure(quiet, "cannot finish " + path);
    return Status::ok();
}

// --- DXF: one CAD layer per width class, lineweights and outlines (see vectorexport.h) ---

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

Status writeDxf(GDALDataset& ds, const MeasureResult& r, const Placement& p,
                const gis::QuietGdalErrors& quiet)
{
    auto layer = createLayer(ds, {"entities", wkbUnknown, nullptr, {}}, quiet);
    if (!layer)
        return layer.status();
    for (const auto& b : r.branches) {
        const std::string name = cadLayer(r, b.widthClass), colour = classColour(r, b.widthClass);
        OGRLineString line = lineOf(b, p);
        const double widthMm = r.pixelSizeMm > 0 ? b.width.meanMm : b.width.meanPx;
        FeaturePtr f(OGRFeature::CreateFeature((*layer)->GetLayerDefn()));
        f->SetField("Layer", name.c_str());
        // The pen width is read in ground units and written x 100 as the lineweight.
        const std::string pen =
            "PEN(c:" + colour + ",w:" + number(lineweightFor(widthMm) / 100.0, 2) + "g)";
        f->SetStyleString(pen.c_str());
        f->SetGeometry(&line);
        if ((*layer)->CreateFeature(f.get()) != OGRERR_NONE)
            return gdalFailure(quiet, "cannot write branch " + std::to_string(b.id));
        // The outline: the centre line widened to the mean width, in drawing units.
        std::unique_ptr<OGRGeometry> outline(
            line.Buffer(0.5 * b.width.meanPx * p.unitsPerPixel, 4));
        if (!outline || outline->IsEmpty())
            continue; // GDAL built without GEOS: centre lines only
        FeaturePtr o(OGRFeature::CreateFeature((*layer)->GetLayerDefn()));
        o->SetField("Layer", (name + "_outline").c_str());
        o->SetStyleString(("BRUSH(fc:" + colour + ")").c_str());
        o->SetGeometry(outline.get());
        if ((*layer)->CreateFeature(o.get()) != OGRERR_NONE)
            return gdalFailure(quiet, "cannot write the outline of branch " + std::to_string(b.id));
    }
    return Status::ok();
}

std::string crackSibling(const std::string& path)
{
    const fs::path p(path);
    return (p.parent_path() / (p.stem().string() + "_cracks" + p.extension().string())).string();
}

struct Job {
    const MeasureResult& r;
    const Placement& place;
    VectorFormat format;
    const OGRSpatialReference* srs;
    std::vector<std::pair<std::string, std::string>> meta;
    std::string description;
};

Status writeLayers(GDALDataset& ds, const Job& j, bool branches, bool cracks,
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
    if (branches) {
        auto layer = createLayer(ds, {"branches", wkbLineString, j.srs, opts}, quiet);
        if (!layer)
            return layer.status();
        if (Status s = writeBranches(**layer, j.r, j.place, quiet); !s)
            return s;
    }
    if (cracks) {
        auto layer = createLayer(ds, {"cracks", wkbMultiLineString, j.srs, opts}, quiet);
        if (!layer)
            return layer.status();
        if (Status s = writeCracks(**layer, j.r, j.place, quiet); !s)
            return s;
    }
    return Status::ok();
}

// The drawing's units ($INSUNITS: 0 unitless, 4 mm, 6 m) and metric measurement: OGR's DXF
// writer (GDAL 3.6) has no option for them, so GDAL's own header template is written with them
// set, beside the target (never in the staging folder, whose files all move into place).
// Empty when GDAL's template cannot be found: OGR's default header then.
std::string dxfHeader(const Job& j, const std::string& target)
{
    const char* found = CPLFindFile("GDAL", "header.dxf");
    std::ifstream in(found ? found : "");
    if (!found || !in)
        return {};
    std::stringstream text;
    text << in.rdbuf();
    int units = 0;
    if (j.place.kind == CoordinateKind::Millimetres)
        units = 4;
    else if (j.place.kind == CoordinateKind::Map && j.srs && j.srs->IsProjected() &&
             std::abs(j.srs->GetLinearUnits() - 1.0) < 1e-9)
        units = 6;
    std::string h = std::regex_replace(text.str(), std::regex(R"((\$INSUNITS\r?\n *70\r?\n *)\d+)"),
                                       "$01" + std::to_string(units));
    h = std::regex_replace(h, std::regex(R"((\$MEASUREMENT\r?\n *70\r?\n *)\d+)"), "$011");
    const std::string path = temporaryPathFor(target) + ".header.dxf";
    std::ofstream out(path, std::ios::binary);
    out << h;
    return out.good() ? path : std::string();
}

Status writeFile(const Job& j, const std::string& staged, bool branches, bool cracks,
                 const gis::QuietGdalErrors& quiet, const std::string& target)
{
    const std::string header = j.format == VectorFormat::Dxf ? dxfHeader(j, target) : "";
    auto ds = createDataset(j.format, staged, quiet, header);
    Status s = ds ? Status::ok() : ds.status();
    if (s)
        s = j.format == VectorFormat::Dxf ? writeDxf(**ds, j.r, j.place, quiet)
                                          : writeLayers(**ds, j, branches, cracks, quiet);
    if (s)
        s = closeDataset(*ds, staged, quiet);
    std::error_code ec;
    if (!header.empty())
        fs::remove(header, ec);
    return s;
}

} // namespace

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
    const bool oneLayerPerFile =
        *format == VectorFormat::GeoJson || *format == VectorFormat::Shapefile;
    if (Status s = writeFile(job, staging->staged(path), true, !oneLayerPerFile, quiet, path); !s)
        return s;
    if (oneLayerPerFile)
        if (Status s =
                writeFile(job, staging->staged(crackSibling(path)), false, true, quiet, path);
            !s)
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
    const std::string main = fs::path(path).filename().string();
    std::stable_partition(files->begin(), files->end(), [&](const std::string& f) {
        return fs::path(f).filename().string() == main;
    });
    sum.files = std::move(*files);
    return sum;
}

} // namespace fisura
