// `fisura-cli compare --before SCAN_A --before-map MAP_A --after SCAN_B --after-map MAP_B
// [--pixel-size MM] [--model auto|similarity|affine|homography] [--field auto|off]
// [--georeference auto|off]
// [--tolerance PX] [--threshold T] [--classes PRESET] [--json F] [--csv F] [--vector
// F.gpkg|.geojson|.shp|.dxf]
// [--aligned-map OUT.tif]`: two inspections of the same
// surface: the later scan aligned to the earlier one, its map brought onto the earlier grid, and
// each crack classified as new, grown, unchanged or gone.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "cli_lang.h"
#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/change.h"
#include "fisura/options.h"
#include "fisura/raster.h"
#include "fisura/vectorexport.h"
#include "measure_flags.h"
#include "report_pdf.h"
#include "schema_options.h"
#include "signals.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

struct CompareArgs {
    std::string before, beforeMap, after, afterMap, json, csv, aligned, vector, pdf, beforeDate,
        afterDate, lang = languageFromEnvironment();
    /// Every alignment and comparison option, bound to its flag through the option schema
    /// (OptionSet::Compare); the scans' limits are the alignment's.
    AlignOptions align;
    CompareOptions compare;
    bool limitsGiven = false; ///< --class-limits was given
    bool quiet = false;
};

/// Where the coarse fit looked, when the georeferences had a say, and how far they were off.
void printGeoreference(const AlignResult& a, const std::string& lang)
{
    const bool es = lang == "es";
    const auto num = [&](double v, int d) { return formatNumber(v, d, lang); };
    switch (a.start) {
    case AlignStart::Features:
        break;
    case AlignStart::Georeference:
        std::printf(es ? "  comenzó por la georreferencia: rasgos buscados solo donde los "
                         "escaneos se solapan según ella\n"
                       : "  started from the georeference: features matched only where it "
                         "says the scans overlap\n");
        break;
    case AlignStart::GeoreferenceRefuted:
        std::printf(es ? "  la georreferencia no se confirmó: se buscaron rasgos en los "
                         "escaneos enteros\n"
                       : "  the georeference was not confirmed: features matched over the "
                         "whole scans\n");
        break;
    case AlignStart::GeoreferenceOtherCrs:
        std::printf(es ? "  georreferencias en sistemas de coordenadas distintos (sin "
                         "reproyectar): escaneos enteros\n"
                       : "  georeferences in different coordinate systems (not reprojected): "
                         "whole scans\n");
        break;
    }
    if (a.georeferenceOffsetPx < 0)
        return;
    const std::string units = a.georeferenceUnitsPerPx > 0
                                  ? " (" +
                                        num(a.georeferenceOffsetPx * a.georeferenceUnitsPerPx, 3) +
                                        (es ? " unidades del mapa)" : " map units)")
                                  : "";
    std::printf(es ? "  la georreferencia situaba el escaneo posterior a %s px%s de donde "
                     "lo sitúa la alineación\n"
                   : "  the georeference placed the later scan %s px%s from where the "
                     "alignment does\n",
                num(a.georeferenceOffsetPx, 1).c_str(), units.c_str());
}

void printSummary(const ChangeResult& r, const std::string& lang)
{
    const bool es = lang == "es";
    const auto num = [&](double v, int d) { return formatNumber(v, d, lang); };
    const auto& a = r.alignment;
    std::printf(es ? "Alineación: modelo %s, %d de %d correspondencias coherentes, %d de %d "
                     "ventanas, residuo %s px, solape %s %%\n"
                   : "Alignment: %s model, %d of %d matches consistent, %d of %d windows, "
                     "residual %s px, overlap %s %%\n",
                alignModelName(a.model), a.inliers, a.matches, a.refined, a.windows,
                num(a.rmsPx, 2).c_str(), num(a.overlap * 100, 1).c_str());
    if (a.field.used)
        std::printf(es ? "  con campo de corrección: corrección máxima %s px, residuo de las "
                         "ventanas %s px sin campo, %s px con él\n"
                       : "  with correction field: largest correction %s px, window residual "
                         "%s px without the field, %s px with it\n",
                    num(a.field.maxPx, 2).c_str(), num(a.field.rmsBeforePx, 2).c_str(),
                    num(a.field.rmsAfterPx, 2).c_str());
    printGeoreference(a, lang);
    const char* en[] = {"new", "grown", "unchanged", "gone", "outside the later scan"};
    const char* sp[] = {"nuevas", "crecidas", "sin cambios", "desaparecidas",
                        "fuera del escaneo posterior"};
    const bool mm = r.totals[0].lengthMm >= 0;
    for (int k = 0; k < 5; ++k) {
        const auto& t = r.totals[size_t(k)];
        std::printf(es ? "  %-28s %5d fisuras, %s %s\n" : "  %-28s %5d cracks, %s %s\n",
                    es ? sp[k] : en[k], t.count, num(mm ? t.lengthMm : t.lengthPx, 1).c_str(),
                    mm ? "mm" : "px");
    }
    if (r.widestIndex >= 0) {
        const auto& w = r.changes[size_t(r.widestIndex)];
        std::printf(es ? "  Fisura más ancha: %s %s, cambio de ancho %s %s (%s)\n"
                       : "  Widest crack: %s %s, width change %s %s (%s)\n",
                    num(mm ? w.afterMaxWidthMm : w.afterMaxWidthPx, 2).c_str(), mm ? "mm" : "px",
                    num(mm ? w.widthChangeMm : w.widthChangePx, 2).c_str(), mm ? "mm" : "px",
                    es ? sp[int(w.kind)] : en[int(w.kind)]);
    }
}

/// The pixel size: the option, else the before scan's resolution tags (0: unknown).
double pixelSizeOf(const CompareArgs& a)
{
    if (a.compare.measure.pixelSizeMm > 0)
        return a.compare.measure.pixelSizeMm;
    auto info = probeRaster(a.before, a.align.limits);
    return info ? info->pixelSizeXmm : 0.0;
}

/// The changes for GIS / CAD, on the earlier scan's grid and georeference.
void writeVectors(const CompareArgs& a, const ChangeResult& r, bool jsonOut)
{
    VectorExportOptions vo;
    vo.georeferencePath = a.before;
    auto v = exportChangeVectors(r, a.vector, vo);
    if (!v)
        fail(v.status(), "cannot write " + a.vector);
    if (!a.quiet && !jsonOut)
        std::printf(a.lang == "es" ? "%s: %d cambios, %d líneas (%s%s%s)\n"
                                   : "%s: %d changes, %d lines (%s%s%s)\n",
                    a.vector.c_str(), v->cracks, v->branches, coordinateKindName(v->coordinates),
                    v->crsCode.empty() ? "" : ", ", v->crsCode.c_str());
}

void run(const CompareArgs& a)
{
    setOutputLanguage(a.lang);
    CancelToken& cancel = cancelOnSignals();
    refuseOverwriting({a.json == "-" ? std::string() : a.json, a.csv, a.aligned, a.vector, a.pdf},
                      {a.before, a.beforeMap, a.after, a.afterMap});
    if (!a.vector.empty()) // an unknown format is refused before the work
        if (auto f = vectorFormatFor(a.vector); !f)
            fail(f.status(), "cannot write " + a.vector);
    const bool jsonOut = a.json == "-";
    TerminalProgress progress;
    ProgressSink* sink = a.quiet || jsonOut ? nullptr : &progress;
    CompareOptions co = a.compare;
    co.measure.classes = classesFromFlags(co.measure, a.limitsGiven,
                                          "cannot compare " + a.beforeMap + " with " + a.afterMap);
    co.measure.limits = a.align.limits;
    // A wide closing needs a wider overlap between tiles than the default.
    co.measure.marginPx =
        std::max(co.measure.marginPx, minimumMarginPx(co.measure.closingRadiusPx));
    auto al = alignScans(a.before, a.after, a.align, cancel, sink);
    if (!al)
        fail(al.status(), "cannot align " + a.after + " to " + a.before);
    // Without --aligned-map the aligned map is a temporary, removed at the end.
    const std::string aligned = !a.aligned.empty()
                                    ? a.aligned
                                    : (std::filesystem::temp_directory_path() /
                                       ("fisura-compare-" + std::to_string(getpid()) + ".tif"))
                                          .string();
    const auto dropTemporary = [&] {
        std::error_code ec;
        if (a.aligned.empty())
            std::filesystem::remove(aligned, ec);
    };
    WarpMapOptions wo;
    wo.pixelSizeMm = pixelSizeOf(a);
    wo.limits = a.align.limits;
    if (auto s = warpMapToBefore(a.afterMap, *al, aligned, wo, cancel, sink); !s)
        fail(s, "cannot write " + (a.aligned.empty() ? std::string("the aligned map") : aligned));
    co.measure.pixelSizeMm = wo.pixelSizeMm;
    auto r = compareCrackMaps(a.beforeMap, aligned, *al, co, cancel, sink);
    dropTemporary();
    if (!r)
        fail(r.status(), "cannot compare " + a.beforeMap + " with " + a.afterMap);
    if (a.aligned.empty())
        r->alignedMapPath.clear();
    if (!a.csv.empty())
        if (auto s = writeChangeCsv(*r, a.csv); !s)
            fail(s, "cannot write " + a.csv);
    if (jsonOut)
        std::cout << changeJson(*r) << "\n";
    else if (!a.json.empty())
        if (auto s = writeChangeJson(*r, a.json); !s)
            fail(s, "cannot write " + a.json);
    if (!a.vector.empty())
        writeVectors(a, *r, jsonOut);
    if (!jsonOut)
        printSummary(*r, a.lang);
    if (!a.pdf.empty())
        if (int rc = writeChangeReportPdf(
                {a.pdf, a.before, a.beforeMap, a.after, a.afterMap, a.lang, a.beforeDate,
                 a.afterDate, co.measure.pixelSizeMm, co.measure.threshold, co.tolerancePx,
                 co.measure.closingRadiusPx, co.measure.minAreaPx, classByName(co.measure.classBy),
                 alignModelName(a.align.model),
                 a.limitsGiven ? co.measure.classes.upperLimitsMm : std::vector<double>{},
                 co.measure.classes.preset}))
            exitWith(rc);
}

} // namespace

void registerCompareCommand(CLI::App& app)
{
    auto a = std::make_shared<CompareArgs>();
    auto* cmd = app.add_subcommand(
        "compare", "Compare two inspections of one surface: align the later scan to the earlier "
                   "one and classify each crack as new, grown, unchanged or gone");
    cmd->add_option("--before", a->before, "The earlier scan")->required();
    cmd->add_option("--before-map", a->beforeMap, "The earlier scan's crack map (or mask)")
        ->required();
    cmd->add_option("--after", a->after, "The later scan")->required();
    cmd->add_option("--after-map", a->afterMap, "The later scan's crack map (or mask)")->required();
    // The alignment's, the comparison's and the measurement's options from the option schema.
    addSchemaChoice(cmd, compareOption("align.model"), a->align.model, alignModelName);
    addSchemaChoice(cmd, compareOption("align.field"), a->align.field, alignFieldName);
    addSchemaChoice(cmd, compareOption("align.georeference"), a->align.georeference,
                    alignGeoreferenceName);
    addSchemaOption(cmd, compareOption("tolerance_px"), a->compare.tolerancePx);
    addSchemaOption(cmd, compareOption("min_length_gain_px"), a->compare.minLengthGainPx);
    addSchemaOption(cmd, compareOption("min_width_gain_px"), a->compare.minWidthGainPx);
    addMeasureFlags(cmd, OptionSet::Compare, "measure.", a->compare.measure, a->limitsGiven);
    cmd->add_option("--csv", a->csv, "CSV, one row per crack change");
    cmd->add_option("--vector", a->vector,
                    "The changes for GIS / CAD: .gpkg, .geojson, .shp or .dxf (format from the "
                    "extension; map coordinates when the earlier scan is a GeoTIFF)");
    auto* json = cmd->add_option("--json", a->json,
                                 "JSON with the alignment, the totals and every change ('-' = "
                                 "stdout; a failure then prints its JSON error there)");
    wantJsonErrorsWhen([json] { return json->count() > 0 && json->as<std::string>() == "-"; });
    cmd->add_option("--aligned-map", a->aligned,
                    "Write the later map aligned onto the earlier scan's grid (tiled TIFF)");
    cmd->add_option("--pdf", a->pdf,
                    "PDF report of the changes (written by the `fisura` program, which compares "
                    "the scans again)");
    const auto isoDate = CLI::Validator(
        [](std::string& text) -> std::string {
            int y = 0, m = 0, d = 0;
            char rest = 0;
            if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &rest) == 3 && m >= 1 &&
                m <= 12 && d >= 1 && d <= 31)
                return {};
            return "must be a date as YYYY-MM-DD, not " + text;
        },
        "YYYY-MM-DD");
    cmd->add_option("--before-date", a->beforeDate,
                    "Date of the earlier inspection, for the report (default: the scan file's)")
        ->check(isoDate);
    cmd->add_option("--after-date", a->afterDate,
                    "Date of the later inspection, for the report (default: the scan file's)")
        ->check(isoDate);
    addReportLanguageOption(cmd, a->lang);
    addQuietFlag(cmd, a->quiet);
    addSchemaOption(cmd, compareOption("input_limits.max_pixels"), a->align.limits.maxPixels);
    addSchemaOption(cmd, compareOption("input_limits.max_pixels_per_byte"),
                    a->align.limits.maxPixelsPerByte);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
