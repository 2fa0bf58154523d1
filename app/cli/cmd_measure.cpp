// `fisura-cli measure --map MAP [--pixel-size MM] [--threshold T] [--csv F] [--json F]`: the
// cracks of a map (or mask) as numbers: count, length, width, position and width class.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/measure.h"
#include "image_limit_args.h"
#include "input_notices.h"
#include "report_pdf.h"
#include "signals.h"
#include "terminal_progress.h"
#include "threshold_option.h"

namespace fisura::cli
{

namespace
{

// Pixel sizes Fisura accepts: from a micrometre (microscopy) to 100 m (satellite images).
constexpr double kMaxPixelSizeMm = 1e5;
constexpr double kMaxClassLimitMm = 1e4;

struct MeasureArgs {
    std::string map, scan, csv, json, layer, lang = "en", classBy = "median";
    double pixelSize = 0;
    double threshold = 0.5;
    int closing = 1;
    int minArea = 20;
    std::vector<double> limits;
    bool quiet = false;
    fisura::ImageLimits imageLimits;
};

void printSummary(const fisura::MeasureResult& r)
{
    const auto& t = r.totals;
    std::printf("%s: %d x %d px, pixel size %s\n", r.mapPath.c_str(), r.width, r.height,
                r.pixelSizeMm > 0
                    ? (std::to_string(r.pixelSizeMm) + " mm (" + r.pixelSizeSource + ")").c_str()
                    : "unknown (px only)");
    std::printf("%d cracks, %d branches, total length %.1f px", t.cracks, t.branches, t.lengthPx);
    if (t.lengthMm >= 0)
        std::printf(" = %.1f mm, cracked area %.1f mm2, density %.3f m/m2", t.lengthMm, t.areaMm2,
                    t.densityMPerM2);
    std::printf("\n");
    for (const auto& k : r.classes)
        std::printf("  %-10s %6.2f..%-6s mm: %5d cracks, %9.1f mm\n", k.id.c_str(), k.fromMm,
                    k.toMm < 0 ? "" : std::to_string(k.toMm).substr(0, 4).c_str(), k.cracks,
                    k.lengthMm);
    if (!r.classes.empty())
        std::printf("  Note: %s\n", fisura::kWidthClassNoteText);
}

/// Everything measure writes (the PDF too) must leave its map and scan alone.
void refuseOverwritingMapOrScan(const MeasureArgs& a, const std::string& pdf)
{
    std::vector<std::string> outputs{a.json == "-" ? std::string() : a.json, a.layer, pdf};
    if (!a.csv.empty())
        for (const auto& p : measureCsvPaths(a.csv))
            outputs.push_back(p);
    refuseOverwriting(outputs, {a.map, a.scan});
}

void run(const MeasureArgs& a, const std::string& pdf)
{
    CancelToken& cancel = cancelOnSignals();
    refuseOverwritingMapOrScan(a, pdf);
    printInputNotices(a.map);
    fisura::MeasureOptions o;
    o.threshold = a.threshold;
    o.closingRadiusPx = a.closing;
    // A wide closing needs a wider overlap between tiles than the default.
    o.marginPx = std::max(o.marginPx, minimumMarginPx(a.closing));
    o.minAreaPx = a.minArea;
    o.pixelSizeMm = a.pixelSize;
    o.scanPath = a.scan;
    o.widthLayerPath = a.layer;
    o.limits = a.imageLimits;
    if (!a.limits.empty())
        o.classes.upperLimitsMm = a.limits;
    o.classBy = a.classBy == "mean"  ? fisura::ClassBy::Mean
                : a.classBy == "max" ? fisura::ClassBy::Max
                                     : fisura::ClassBy::Median;
    TerminalProgress progress;
    const bool jsonOut = a.json == "-";
    auto r = fisura::measureCracks(a.map, o, cancel, a.quiet || jsonOut ? nullptr : &progress);
    if (!r)
        fail(r.status(), "cannot measure " + a.map);
    if (!a.csv.empty())
        if (auto s = fisura::writeMeasureCsv(*r, a.csv); !s)
            fail(s, "cannot write " + a.csv);
    if (jsonOut)
        std::cout << fisura::toJson(*r) << "\n";
    else if (!a.json.empty())
        if (auto s = fisura::writeMeasureJson(*r, a.json); !s)
            fail(s, "cannot write " + a.json);
    if (!jsonOut)
        printSummary(*r);
    if (!pdf.empty())
        if (int rc = writeReportPdf(
                {pdf, a.map, a.scan, a.lang, {}, a.pixelSize, a.threshold, a.limits}))
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
    cmd->add_option("--scan", a->scan, "The scan the map belongs to (pixel size, size check)");
    cmd->add_option("--pixel-size", a->pixelSize,
                    "Pixel size in mm (default: the map's or the scan's resolution tags)")
        ->check(PositiveUpTo(kMaxPixelSizeMm));
    cmd->add_option("--threshold", a->threshold,
                    "Crack probability from which a pixel is crack (above 0, at most 1; map "
                    "values b with b/255 >= t)")
        ->capture_default_str()
        ->check(probabilityThreshold());
    cmd->add_option("--closing", a->closing, "Close gaps with a disk of this radius (px)")
        ->capture_default_str()
        ->check(CLI::Range(0, 32));
    cmd->add_option("--min-area", a->minArea, "Drop cracks with fewer pixels")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--class-limits", a->limits,
                    "Upper limits of the width classes in mm (default 0.1 0.3 1)")
        ->expected(3)
        ->check(PositiveUpTo(kMaxClassLimitMm));
    cmd->add_option("--class-by", a->classBy, "Width statistic that decides the class")
        ->capture_default_str()
        ->check(CLI::IsMember({"median", "mean", "max"}));
    cmd->add_option("--csv", a->csv,
                    "Crack CSV (also writes <stem>.branches.csv and <stem>.scan.csv)");
    auto* json = cmd->add_option("--json", a->json,
                                 "JSON with cracks, branches and totals ('-' = stdout; a failure "
                                 "then prints its JSON error there)");
    wantJsonErrorsWhen([json] { return json->count() > 0 && json->as<std::string>() == "-"; });
    cmd->add_option("--width-layer", a->layer,
                    "Also write a width-class layer (TIFF: 0 background, 1 + class on cracks)");
    auto pdf = std::make_shared<std::string>();
    cmd->add_option("--pdf", *pdf, "PDF inspection report (written by the `fisura` program)");
    cmd->add_option("--lang", a->lang, "Language of the PDF report")
        ->capture_default_str()
        ->check(CLI::IsMember({"es", "en"}));
    addQuietFlag(cmd, a->quiet);
    addImageLimitOptions(cmd, a->imageLimits);
    cmd->callback([a, pdf] { run(*a, *pdf); });
}

} // namespace fisura::cli
