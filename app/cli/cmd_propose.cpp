// `fisura-cli propose --model M --in IMAGES --out MASKS [--threshold T]`: the model's
// thresholded prediction for every image of a folder (or one image), written as proposal masks
// (0/255 TIFF, one per image stem) for labelling. Failures are listed and the rest continue;
// Ctrl-C stops and leaves only whole files.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/labels.h"
#include "image_limit_args.h"
#include "schema_options.h"
#include "signals.h"
#include "terminal_progress.h"
#include "threshold_option.h"

namespace fisura::cli
{

namespace
{

struct ProposeArgs {
    std::string model, in, out;
    double threshold = -1;
    fisura::InferOptions infer; ///< --tile, --batch, --max-pixels, --max-pixels-per-byte
    bool cpu = false;
    bool json = false;
    bool quiet = false;
    fisura::ModelLoadOptions load;
};

void run(const ProposeArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    fisura::ProposeOptions o;
    o.threshold = a.threshold;
    o.infer = a.infer;
    o.infer.preferCpu = a.cpu;
    o.infer.modelLoad = a.load;
    TerminalProgress progress;
    fisura::ProgressSink* sink = a.quiet || a.json ? nullptr : &progress;
    auto r = fisura::proposeFolder(a.model, a.in, a.out, o, cancel, sink);
    if (!r) {
        // Refused before any work: an output that is an input, a model that cannot propose.
        if (r.status().code() == ErrorCode::InvalidArgument)
            failUsage(r.status().detail());
        fail(r.status(), "propose");
    }
    nlohmann::json failures = nlohmann::json::array();
    for (const auto& f : r->failures) {
        failures.push_back(
            {{"image", fisura::bytesToUtf8(f.image)}, {"error", fisura::bytesToUtf8(f.reason)}});
        if (!a.json)
            std::cerr << "fisura-cli: " << f.image << ": " << f.reason << "\n";
    }
    if (a.json) {
        nlohmann::json written = nlohmann::json::array();
        for (const auto& w : r->written)
            written.push_back(fisura::bytesToUtf8(w));
        std::cout << nlohmann::json{{"written", written},
                                    {"failures", failures},
                                    {"crack_pixels", r->crackPixels},
                                    {"pixels", r->pixels}}
                         .dump(2)
                  << "\n";
    } else {
        for (const auto& w : r->written)
            std::cout << "Wrote " << w << "\n";
        std::cout << r->written.size() << " proposals, " << r->failures.size() << " failed, "
                  << (r->pixels ? 100.0 * double(r->crackPixels) / double(r->pixels) : 0.0)
                  << " % crack pixels\n";
    }
    if (!r->failures.empty())
        exitWith(kExitFailed);
}

} // namespace

void registerProposeCommand(CLI::App& app)
{
    auto a = std::make_shared<ProposeArgs>();
    auto* cmd = app.add_subcommand(
        "propose", "Write the model's thresholded prediction for each image as a proposal mask "
                   "(0/255 TIFF named after the image) to correct in the label editor");
    addModelOptions(cmd, a->model, a->load);
    cmd->add_option("--in", a->in, "Input image or folder of images")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_option("--out", a->out, "Output folder (created); a dataset's proposals/ folder")
        ->required();
    cmd->add_option("--threshold", a->threshold,
                    "Crack probability from which a pixel is crack (0..1); default: the model's "
                    "own")
        ->check(probabilityThreshold());
    addSchemaOption(cmd, inferOption("tile_size"), a->infer.tileSize);
    addSchemaOption(cmd, inferOption("batch_size"), a->infer.batchSize, "auto");
    addCpuFlag(cmd, a->cpu);
    addJsonFlag(cmd, a->json, "Print a JSON summary");
    addQuietFlag(cmd, a->quiet);
    addImageLimitOptions(cmd, a->infer.inputLimits);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
