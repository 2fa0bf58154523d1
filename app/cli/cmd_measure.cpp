// `fisura-cli measure --map MAP [--pixel-size MM] [--threshold T] [--csv F] [--json F]`: the
// cracks of a map (or mask) as numbers: count, length, width, position and width class.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "fisura/measure.h"
#include "image_limit_args.h"
#include "report_pdf.h"
#include "terminal_progress.h"

namespace
{

fisura::CancelToken g_measureCancel;

extern "C" void onMeasureSignal(int)
{
    g_measureCancel.cancel();
}

struct MeasureArgs {
    std::string map, scan, csv, json, layer, lang = "en", classBy = "median";
    double pixelSize = 0;
    int threshold = 128;
    int closing = 1;
    int minArea = 20;
    std::vector<double> limits;
    bool quiet = false;
    fisura::ImageLimits imageLimits;
};

[[noreturn]] void fail(const fisura::Status& s, const std::string& what)
{
    std::cerr << "fisura-cli: " << what << ": " << s.toString() << "\n";
    throw CLI::RuntimeError(s.code() == fisura::ErrorCode::Cancelled ? 130 : 1);
}

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
        ->check(CLI::PositiveNumber);
    cmd->add_option("--threshold", a->threshold, "Map values at or above this are crack")
        ->capture_default_str()
        ->check(CLI::Range(1, 255));
    cmd->add_option("--closing", a->closing, "Close gaps with a disk of this radius (px)")
        ->capture_default_str()
        ->check(CLI::Range(0, 32));
    cmd->add_option("--min-area", a->minArea, "Drop cracks with fewer pixels")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--class-limits", a->limits,
                    "Upper limits of the width classes in mm (default 0.1 0.3 1)")
        ->expected(3);
    cmd->add_option("--class-by", a->classBy, "Width statistic that decides the class")
        ->capture_default_str()
        ->check(CLI::IsMember({"median", "mean", "max"}));
    cmd->add_option("--csv", a->csv,
                    "Crack CSV (also writes <stem>.branches.csv and <stem>.scan.csv)");
    cmd->add_option("--json", a->json, "JSON with cracks, branches and totals ('-' = stdout)");
    cmd->add_option("--width-layer", a->layer,
                    "Also write a width-class layer (TIFF: 0 background, 1 + class on cracks)");
    auto pdf = std::make_shared<std::string>();
    cmd->add_option("--pdf", *pdf, "PDF inspection report (written by the `fisura` program)");
    cmd->add_option("--lang", a->lang, "Language of the PDF report")
        ->capture_default_str()
        ->check(CLI::IsMember({"es", "en"}));
    cmd->add_flag("--quiet", a->quiet, "No progress output");
    fisura::cli::addImageLimitOptions(cmd, a->imageLimits);
    cmd->callback([a, pdf] {
        std::signal(SIGINT, onMeasureSignal);
        std::signal(SIGTERM, onMeasureSignal);
        fisura::MeasureOptions o;
        o.threshold = a->threshold;
        o.closingRadiusPx = a->closing;
        o.minAreaPx = a->minArea;
        o.pixelSizeMm = a->pixelSize;
        o.scanPath = a->scan;
        o.widthLayerPath = a->layer;
        o.limits = a->imageLimits;
        if (!a->limits.empty())
            o.classes.upperLimitsMm = a->limits;
        o.classBy = a->classBy == "mean"  ? fisura::ClassBy::Mean
                    : a->classBy == "max" ? fisura::ClassBy::Max
                                          : fisura::ClassBy::Median;
        fisura::cli::TerminalProgress progress;
        const bool jsonOut = a->json == "-";
        auto r = fisura::measureCracks(a->map, o, g_measureCancel,
                                       a->quiet || jsonOut ? nullptr : &progress);
        if (!r)
            fail(r.status(), "cannot measure " + a->map);
        if (!a->csv.empty())
            if (auto s = fisura::writeMeasureCsv(*r, a->csv); !s)
                fail(s, "cannot write " + a->csv);
        if (jsonOut)
            std::cout << fisura::toJson(*r) << "\n";
        else if (!a->json.empty())
            if (auto s = fisura::writeMeasureJson(*r, a->json); !s)
                fail(s, "cannot write " + a->json);
        if (!jsonOut)
            printSummary(*r);
        if (!pdf->empty())
            if (int rc = fisura::cli::writeReportPdf(
                    {*pdf, a->map, a->scan, a->lang, {}, a->pixelSize, a->threshold, a->limits}))
                throw CLI::RuntimeError(rc);
        throw CLI::RuntimeError(0); // done: main() must not go on to print the help
    });
}
