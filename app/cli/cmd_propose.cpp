// `fisura-cli propose --model M --in IMAGES --out MASKS [--threshold T]`: the model's
// thresholded prediction for every image of a folder (or one image), written as proposal masks
// (0/255 TIFF, one per image stem) for labelling. Failures are listed and the rest continue;
// Ctrl-C stops and leaves only whole files.
#include <csignal>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "fisura/labels.h"
#include "model_load_args.h"
#include "schema_options.h"
#include "terminal_progress.h"

namespace
{

fisura::CancelToken g_proposeCancel;

extern "C" void onProposeSignal(int)
{
    g_proposeCancel.cancel();
}

struct ProposeArgs {
    std::string model, in, out;
    double threshold = -1;
    fisura::InferOptions infer; ///< --tile, --batch
    bool cpu = false;
    bool json = false;
    bool quiet = false;
    fisura::ModelLoadOptions load;
};

void run(const ProposeArgs& a)
{
    std::signal(SIGINT, onProposeSignal);
    std::signal(SIGTERM, onProposeSignal);
    fisura::ProposeOptions o;
    o.threshold = a.threshold;
    o.infer = a.infer;
    o.infer.preferCpu = a.cpu;
    o.infer.modelLoad = a.load;
    fisura::cli::TerminalProgress progress;
    fisura::ProgressSink* sink = a.quiet || a.json ? nullptr : &progress;
    auto r = fisura::proposeFolder(a.model, a.in, a.out, o, g_proposeCancel, sink);
    if (!r) {
        std::cerr << "fisura-cli: propose: " << r.status().toString() << "\n";
        fisura::cli::printModelLoadHint(r.status());
        throw CLI::RuntimeError(r.status().code() == fisura::ErrorCode::Cancelled ? 130 : 1);
    }
    nlohmann::json failures = nlohmann::json::array();
    for (const auto& f : r->failures) {
        failures.push_back({{"image", f.image}, {"error", f.reason}});
        if (!a.json)
            std::cerr << "fisura-cli: " << f.image << ": " << f.reason << "\n";
    }
    if (a.json) {
        std::cout << nlohmann::json{{"written", r->written},
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
    throw CLI::RuntimeError(r->failures.empty() ? 0 : 1);
}

} // namespace

void registerProposeCommand(CLI::App& app)
{
    auto a = std::make_shared<ProposeArgs>();
    auto* cmd = app.add_subcommand(
        "propose", "Write the model's thresholded prediction for each image as a proposal mask "
                   "(0/255 TIFF named after the image) to correct in the label editor");
    cmd->add_option("--model", a->model, "Fisura model, or TorchScript module with a JSON sidecar")
        ->required()
        ->check(CLI::ExistingFile);
    fisura::cli::addModelLoadOptions(cmd, a->load);
    cmd->add_option("--in", a->in, "Input image or folder of images")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_option("--out", a->out, "Output folder (created); a dataset's proposals/ folder")
        ->required();
    cmd->add_option("--threshold", a->threshold,
                    "Crack where the map is at least this (0..1); default: the model's own")
        ->check(CLI::Range(0.0, 1.0));
    fisura::cli::addSchemaOption(cmd, fisura::inferOption("tile_size"), a->infer.tileSize);
    fisura::cli::addSchemaOption(cmd, fisura::inferOption("batch_size"), a->infer.batchSize,
                                 "auto");
    cmd->add_flag("--cpu", a->cpu, "Use the CPU even when a GPU is usable");
    cmd->add_flag("--json", a->json, "Print a JSON summary");
    cmd->add_flag("--quiet", a->quiet, "No progress output");
    cmd->callback([a] { run(*a); });
}
