// `fisura-cli synth-data DIR --count N --size 256 --seed S`: realistic procedural scenes with
// exact masks as a segmentation dataset (images/ + masks/), made on every core; the training
// data of the starter model (tests/bench/starter/train_starter.sh).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/synth.h"
#include "signals.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

struct SynthArgs {
    std::string dir;
    fisura::synth::TrainingDataOptions o;
    bool json = false;
    bool quiet = false;
};

void run(const SynthArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    TerminalProgress progress;
    auto r =
        synth::writeTrainingDataset(a.dir, a.o, cancel, a.json || a.quiet ? nullptr : &progress);
    if (!r)
        fail(r.status(), "synth-data failed");
    if (a.json)
        std::cout << nlohmann::json{{"root", bytesToUtf8(r->root)},
                                    {"pairs", r->pairs},
                                    {"crack_free", r->crackFree},
                                    {"crack_fraction", r->crackFraction},
                                    {"seconds", r->seconds}}
                         .dump(2)
                  << "\n";
    else
        std::cout << "Training data in " << r->root << ": " << r->pairs << " pairs ("
                  << r->crackFree << " crack-free), " << r->crackFraction * 100
                  << " % crack pixels, " << r->seconds << " s\n";
}

} // namespace

void registerSynthDataCommand(CLI::App& app)
{
    auto a = std::make_shared<SynthArgs>();
    auto* cmd = app.add_subcommand(
        "synth-data", "Write realistic procedural crack scenes with exact masks as a segmentation "
                      "dataset (images/ + masks/): concrete, asphalt and masonry with stains, "
                      "shadows and line-like distractors that are not cracks");
    cmd->add_option("dir", a->dir, "Target folder (created; must be empty or earlier synth data)")
        ->required();
    cmd->add_option("--count", a->o.count, "Image/mask pairs")
        ->capture_default_str()
        ->check(CLI::Range(1, 10000000));
    cmd->add_option("--size", a->o.size, "Edge of every scene in px")
        ->capture_default_str()
        ->check(CLI::Range(32, 4096));
    cmd->add_option("--seed", a->o.seed, "Random seed (the same seed writes the same files)")
        ->capture_default_str();
    cmd->add_option("--threads", a->o.threads, "Threads (0 = every core)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1024));
    addJsonFlag(cmd, a->json, "Print a JSON summary");
    addQuietFlag(cmd, a->quiet);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
