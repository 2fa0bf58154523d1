// `fisura-cli measure --map MAP [--pixel-size MM] [--threshold T] [--csv F] [--json F]
// [--classes PRESET] [--vector F.gpkg|.geojson|.shp|.dxf] [--overlay F.tif]`: the cracks of a map
// (or mask) as numbers: count, length, width, position and width class; as centre lines for GIS
// and CAD; as a classified overlay raster.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli_lang.h"
#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/measure.h"
#include "fisura/options.h"
#include "fisura/vectorexport.h"
#include "input_notices.h"
#include "measure_flags.h"
#include "report_pdf.h"
#include "schema_options.h"
#include "signals.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

struct MeasureArgs {
    std::string map, csv, json, lang = fisura::cli::languageFromEnvironment(), vector, overlay,
                                model;
    /// Every measurement option, bound to its flag through the option schema (OptionSet::Measure).
    fisura::MeasureOptions o;
    bool limitsGiven = false; ///< --class-limits was given
    bool quiet = false;
};

// The summary a person reads, in `lang` ("es" or "en"): words and decimal separators.
void printSummary(const fisura::MeasureResult& r, const std::string& lang)
{
    using fisura::cli::formatNumber;
    const bool es = lang == "es";
    const auto num = [&](double v, int decimals) { return formatNumber(v, decimals, lang); };
    const auto& t = r.totals;
    const std::string source = !es                             ? r.pixelSizeSource
                               : r.pixelSizeSource == "option" ? "opción"
                               : r.pixelSizeSource == "map"    ? "etiquetas del mapa"
                               : r.pixelSizeSource == "scan"   ? "etiquetas del escaneo"
                                                               : r.pixelSizeSource;
    std::printf(es ? "%s: %d x %d px, tamaño de píxel %s\n" : "%s: %d x %d px, pixel size %s\n",
                r.mapPath.c_str(), r.width, r.height,
                r.pixelSizeMm > 0 ? (num(r.pixelSizeMm, 4) + " mm (" + source + ")").c_str()
                : es              ? "desconocido (solo px)"
                                  : "unknown (px only)");
    std::printf(es ? "%d fisuras, %d ramas, longitud total %s px"
                   : "%d cracks, %d branches, total length %s px",
                t.cracks, t.branches, num(t.lengthPx, 1).c_str());
    if (t.lengthMm >= 0)
        std::printf(es ? " = %s mm, área fisurada %s mm2, densidad %s m/m2"
                       : " = %s mm, cracked area %s mm2, density %s m/m2",
                    num(t.lengthMm, 1).c_str(), num(t.areaMm2, 1).c_str(),
                    num(t.densityMPerM2, 3).c_str());
    std::printf("\n");
    for (const auto& k : r.classes)
        std::printf(es ? "  %-10s %6s..%-6s mm: %5d fisuras, %9s mm\n"
                       : "  %-10s %6s..%-6s mm: %5d cracks, %9s mm\n",
                    k.id.c_str(), num(k.fromMm, 2).c_str(),
                    k.toMm < 0 ? "" : num(k.toMm, 2).c_str(), k.cracks, num(k.lengthMm, 1).c_str());
    if (const auto preset = fisura::widthClassPreset(r.options.classes.preset);
        preset && !preset->citation.empty() && !r.classes.empty())
        std::printf(es ? "  Norma: %s (%s), ancho tolerable %s mm\n"
                       : "  Standard: %s (%s), tolerable width %s mm\n",
                    preset->citation.c_str(), preset->id.c_str(),
                    num(r.options.classes.tolerableMm, 2).c_str());
    if (r.options.classes.tolerableMm > 0 && !r.classes.empty()) {
        std::string ids;
        for (const auto& c : r.cracks)
            if (c.exceedsLimit)
                ids += (ids.empty() ? "" : ", ") + std::to_string(c.id);
        std::printf(es ? "  Fisuras por encima de %s mm: %d%s%s\n"
                       : "  Cracks over %s mm: %d%s%s\n",
                    num(r.options.classes.tolerableMm, 2).c_str(), r.flaggedCracks,
                    ids.empty() ? "" : " (", ids.empty() ? "" : (ids + ")").c_str());
    }
    if (!r.classes.empty())
        std::printf(es ? "  Nota: %s\n" : "  Note: %s\n",
                    es ? "los límites de las clases de ancho dependen de la norma vigente; "
                         "compruébelos antes de informar."
                       : fisura::kWidthClassNoteText);
}

/// Everything measure writes (the PDF too) must leave its map and scan alone.
void refuseOverwritingMapOrScan(const MeasureArgs& a, const std::string& pdf)
{
    std::vector<std::string> outputs{a.json == "-" ? std::string() : a.json, a.o.widthLayerPath,
                                     pdf, a.vector, a.overlay};
    if (!a.csv.empty())
        for (const auto& p : measureCsvPaths(a.csv))
            outputs.push_back(p);
    refuseOverwriting(outputs, {a.map, a.o.scanPath});
}

// The vector file and the overlay, after the measurement; `failed` names the one that failed.
Status writeGisOutputs(const MeasureArgs& a, const fisura::MeasureResult& r, CancelToken& cancel,
                       std::string& failed)
{
    fisura::VectorExportOptions vo;
    vo.model = a.model;
    if (!a.vector.empty()) {
        failed = a.vector;
        auto v = fisura::exportCrackVectors(r, a.vector, vo);
        if (!v)
            return v.status();
        if (!a.quiet && a.json != "-")
            std::printf(a.lang == "es" ? "%s: %d ramas, %d fisuras, %d tramos de ancho (%s%s%s)\n"
                                       : "%s: %d branches, %d cracks, %d width segments (%s%s%s)\n",
                        a.vector.c_str(), v->branches, v->cracks, v->segments,
                        fisura::coordinateKindName(v->coordinates), v->crsCode.empty() ? "" : ", ",
                        v->crsCode.c_str());
    }
    failed = a.overlay;
    return a.overlay.empty() ? Status::ok() : fisura::writeCrackOverlay(r, a.overlay, vo, cancel);
}

void run(const MeasureArgs& a, const std::string& pdf)
{
    setOutputLanguage(a.lang); // its own --lang (it also picks the report's language)
    CancelToken& cancel = cancelOnSignals();
    refuseOverwritingMapOrScan(a, pdf);
    printInputNotices(a.map);
    fisura::MeasureOptions o = a.o;
    // A wide closing needs a wider overlap between tiles than the default.
    o.marginPx = std::max(o.marginPx, minimumMarginPx(o.closingRadiusPx));
    // The overlay is made from the width-class layer: a temporary one unless asked for.
    std::string tempLayer;
    if (!a.overlay.empty() && o.widthLayerPath.empty())
        o.widthLayerPath = tempLayer = a.overlay + ".layer.tif";
    if (!a.vector.empty())
        if (auto f = fisura::vectorFormatFor(a.vector); !f)
            fail(f.status(), "cannot write " + a.vector);
    o.classes = classesFromFlags(o, a.limitsGiven, "cannot measure " + a.map);
    TerminalProgress progress;
    const bool jsonOut = a.json == "-";
    auto r = fisura::measureCracks(a.map, o, cancel, a.quiet || jsonOut ? nullptr : &progress);
    const auto dropTempLayer = [&tempLayer] {
        std::error_code ec;
        if (!tempLayer.empty())
            std::filesystem::remove(tempLayer, ec);
    };
    if (!r) {
        dropTempLayer();
        fail(r.status(), "cannot measure " + a.map);
    }
    if (!a.vector.empty() || !a.overlay.empty()) {
        std::string failed;
        const Status s = writeGisOutputs(a, *r, cancel, failed);
        dropTempLayer();
        if (!tempLayer.empty())
            r->widthLayerPath.clear();
        if (!s)
            fail(s, "cannot write " + failed);
    }
    if (!a.csv.empty())
        if (auto s = fisura::writeMeasureCsv(*r, a.csv); !s)
            fail(s, "cannot write " + a.csv);
    if (jsonOut)
        std::cout << fisura::toJson(*r) << "\n";
    else if (!a.json.empty())
        if (auto s = fisura::writeMeasureJson(*r, a.json); !s)
            fail(s, "cannot write " + a.json);
    if (!jsonOut)
        printSummary(*r, a.lang);
    if (!pdf.empty())
        if (int rc =
                writeReportPdf({pdf,
                                a.map,
                                o.scanPath,
                                a.lang,
                                {},
                                o.pixelSizeMm,
                                o.threshold,
                                a.limitsGiven ? o.classes.upperLimitsMm : std::vector<double>{},
                                o.classes.preset}))
            exitWith(rc);
}

} // namespace

void registerMeasureCommand(CLI::App& app)
{
    auto a = std::make_shared<MeasureArgs>();
    auto* cmd = app.add_subcommand(
        "measure", "Measure the cracks of a map (or mask): count, length, width, width class");
    cmd->add_option("--map", a->map, "Map written by infer, or any mask (TIFF, PNG, ...)")
        ->required();
    // The measurement's options: flag, help, default and range from the option schema.
    using fisura::measureOption;
    addSchemaOption(cmd, measureOption("scan_path"), a->o.scanPath);
    addMeasureFlags(cmd, OptionSet::Measure, "", a->o, a->limitsGiven);
    addSchemaOption(cmd, measureOption("width_layer_path"), a->o.widthLayerPath);
    cmd->add_option("--csv", a->csv,
                    "Crack CSV (also writes <stem>.branches.csv and <stem>.scan.csv)");
    auto* json = cmd->add_option("--json", a->json,
                                 "JSON with cracks, branches and totals ('-' = stdout; a failure "
                                 "then prints its JSON error there)");
    wantJsonErrorsWhen([json] { return json->count() > 0 && json->as<std::string>() == "-"; });
    cmd->add_option("--vector", a->vector,
                    "Crack centre lines for GIS / CAD: .gpkg, .geojson, .shp or .dxf (format from "
                    "the extension; map coordinates when the scan is a GeoTIFF)");
    cmd->add_option("--overlay", a->overlay,
                    "Crack overlay raster: RGBA GeoTIFF of the width classes on the map's grid");
    cmd->add_option("--model-name", a->model, "Model named in the vector file's metadata");
    auto pdf = std::make_shared<std::string>();
    cmd->add_option("--pdf", *pdf, "PDF inspection report (written by the `fisura` program)");
    addReportLanguageOption(cmd, a->lang);
    addQuietFlag(cmd, a->quiet);
    addSchemaOption(cmd, measureOption("input_limits.max_pixels"), a->o.limits.maxPixels);
    addSchemaOption(cmd, measureOption("input_limits.max_pixels_per_byte"),
                    a->o.limits.maxPixelsPerByte);
    cmd->callback([a, pdf] { run(*a, *pdf); });
}

} // namespace fisura::cli
