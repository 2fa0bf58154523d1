// `fisura-cli score --map MAP --truth MASK`: precision, recall, F1 and IoU of a map against a
// ground-truth mask with a pixel tolerance, band by band (any scan size).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli_lang.h"
#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/score.h"
#include "fisura/threshold.h"
#include "image_limit_args.h"
#include "input_notices.h"
#include "signals.h"
#include "terminal_progress.h"
#include "threshold_option.h"

namespace fisura::cli
{

namespace
{

struct ScoreArgs {
    std::string map, truth, layers;
    double threshold = 0.5;
    int tolerance = 2;
    bool json = false;
    bool quiet = false;
    fisura::ImageLimits limits;
};

std::string fixed(double v, int decimals)
{
    return num(v, decimals); // the output language's decimal separator
}

void printText(const fisura::ScoreCurve& curve, int threshold)
{
    const fisura::ScoreCounts c = curve.at(threshold);
    const int best = curve.bestThreshold();
    std::cout << "Map:        " << curve.mapPath << " (" << curve.width << " x " << curve.height
              << " px)\n"
              << "Truth:      " << curve.truthPath << " (" << c.truthPixels << " crack px)\n"
              << "Tolerance:  " << curve.tolerance << " px\n"
              << "Threshold:  " << fixed(fisura::probabilityOfMapByte(threshold), 3) << " ("
              << threshold << "/255)\n"
              << "Precision:  " << fixed(c.precision, 4) << "\n"
              << "Recall:     " << fixed(c.recall, 4) << "\n"
              << "F1:         " << fixed(c.f1, 4) << "\n"
              << "IoU:        " << fixed(c.iou, 4) << "\n"
              << "Counts:     TP " << c.truePositives << ", FP " << c.falsePositives << ", FN "
              << c.falseNegatives << " (predicted " << c.predictedPixels << ")\n"
              << "Best F1:    " << fixed(curve.at(best).f1, 4) << " at threshold "
              << fixed(fisura::probabilityOfMapByte(best), 3) << " (" << best << "/255)\n";
    if (!curve.tpPath.empty())
        std::cout << "Layers:     " << curve.tpPath << ", " << curve.fpPath << ", " << curve.fnPath
                  << "\n";
}

void run(const ScoreArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    if (!a.layers.empty())
        refuseOverwriting(scoreLayerPaths(a.layers), {a.map, a.truth});
    printInputNotices(a.map);
    printInputNotices(a.truth);
    fisura::ScoreOptions o;
    o.tolerance = a.tolerance;
    o.layersPrefix = a.layers;
    o.limits = a.limits;
    const int threshold = fisura::mapByteThreshold(a.threshold);
    TerminalProgress progress;
    auto r = fisura::scoreMap(a.map, a.truth, o, cancel, a.quiet || a.json ? nullptr : &progress);
    if (!r)
        fail(r.status(), "score failed");
    if (a.json)
        std::cout << fisura::toJson(*r, threshold) << "\n";
    else
        printText(*r, threshold);
}

} // namespace

void registerScoreCommand(CLI::App& app)
{
    auto a = std::make_shared<ScoreArgs>();
    auto* cmd = app.add_subcommand(
        "score", "Compare a map with a ground-truth mask of the same size: precision, recall, F1 "
                 "and IoU with a pixel tolerance");
    cmd->add_option("--map", a->map, "Probability map (TIFF of any size, PNG; 255 = crack)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--truth", a->truth, "Ground-truth mask (TIFF or PNG; non-zero = crack)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--threshold", a->threshold,
                    "Crack probability from which a pixel counts as predicted (0..1; map values "
                    "b with b/255 >= t)")
        ->capture_default_str()
        ->check(probabilityThreshold());
    cmd->add_option("--tolerance", a->tolerance,
                    "Pixels a prediction may lie from the truth and still count")
        ->capture_default_str()
        ->check(CLI::Range(0, 32));
    cmd->add_option("--layers", a->layers,
                    "Also write PREFIX.tp.tif, PREFIX.fp.tif and PREFIX.fn.tif (comparison "
                    "layers for a viewer)");
    addJsonFlag(cmd, a->json, "Print JSON instead of text");
    addQuietFlag(cmd, a->quiet);
    addImageLimitOptions(cmd, a->limits);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
