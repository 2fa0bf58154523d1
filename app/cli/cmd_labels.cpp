// `fisura-cli labels export MASK OUT.geojson [--as polygons|lines|both]` and `fisura-cli labels
// import IN.geojson --image IMAGE --out MASK.tif`: label masks as QuPath GeoJSON (polygons and
// centre lines with a width) and back (fisura/labelgeojson.h), so labels move between Fisura and
// QuPath or a GIS.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/image.h"
#include "fisura/labelgeojson.h"
#include "fisura/raster.h"

namespace fisura::cli
{

namespace
{

struct LabelsArgs {
    std::string mask, geojson, image, out, className = "Crack", shapes = "polygons";
    bool json = false;
    bool quiet = false;
};

void report(const LabelsArgs& a, const std::string& written, const std::string& what)
{
    if (a.json)
        std::cout << nlohmann::json{{"output", bytesToUtf8(written)}}.dump(2) << "\n";
    else if (!a.quiet)
        std::cout << "Wrote " << written << " (" << what << ")\n";
}

void runExport(const LabelsArgs& a)
{
    refuseOverwriting({a.geojson}, {a.mask});
    LabelGeoJsonOptions o;
    o.className = a.className;
    o.shapes = *labelShapesFromName(a.shapes); // checked by the option
    if (Status s = writeLabelGeoJson(a.mask, a.geojson, o); !s)
        fail(s, "cannot export the labels of " + a.mask);
    report(a, a.geojson, "QuPath GeoJSON");
}

void runImport(const LabelsArgs& a)
{
    refuseOverwriting({a.out}, {a.geojson, a.image});
    auto info = probeRaster(a.image);
    if (!info)
        fail(info.status(), "cannot read the size of " + a.image);
    auto mask = readLabelGeoJson(a.geojson, info->width, info->height);
    if (!mask)
        fail(mask.status(), "cannot import " + a.geojson);
    if (Status s = writeTiff(a.out, *mask); !s)
        fail(s, "cannot write " + a.out);
    report(a, a.out, "label mask");
}

} // namespace

void registerLabelsCommand(CLI::App& app)
{
    auto a = std::make_shared<LabelsArgs>();
    auto* cmd = app.add_subcommand(
        "labels",
        "Label masks as QuPath-compatible GeoJSON (polygons and lines in image pixels) and back");
    cmd->require_subcommand(1);
    auto* ex = cmd->add_subcommand("export", "Write a label mask's crack pixels as GeoJSON");
    ex->add_option("mask", a->mask, "Label mask (0 background, non-zero crack)")->required();
    ex->add_option("out", a->geojson, "GeoJSON to write (atomically)")->required();
    ex->add_option("--class", a->className, "Classification name of the annotations")
        ->capture_default_str();
    ex->add_option("--as", a->shapes,
                   "polygons: the pixels' outlines (exact); lines: each branch's centre line with "
                   "its width (width_px, widths_px per vertex); both")
        ->check(CLI::IsMember({"polygons", "lines", "both"}))
        ->capture_default_str();
    auto* im = cmd->add_subcommand(
        "import", "Fill a GeoJSON's polygons, and its lines with their width, into a label mask");
    im->add_option("geojson", a->geojson,
                   "GeoJSON: Polygon / MultiPolygon / LineString / MultiLineString annotations; a "
                   "line's width: width_px, else a \"width_px\" or \"Width px\" "
                   "measurement, else 1 px")
        ->required();
    im->add_option("--image", a->image, "The image the labels belong to (gives the mask's size)")
        ->required();
    im->add_option("--out", a->out, "Label mask to write (TIFF: 0 background, 255 crack)")
        ->required();
    for (CLI::App* sub : {ex, im}) {
        addJsonFlag(sub, a->json, "Print a JSON summary");
        addQuietFlag(sub, a->quiet);
    }
    ex->callback([a] { runExport(*a); });
    im->callback([a] { runImport(*a); });
}

} // namespace fisura::cli
