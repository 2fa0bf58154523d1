// `fisura-cli demo-data DIR`: the built-in synthetic crack dataset.
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

struct DemoArgs {
    std::string dir;
    synth::DemoDatasetOptions demo;
    bool json = false;
};

void run(const DemoArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    TerminalProgress progress;
    auto r = synth::writeDemoDataset(a.dir, a.demo, cancel, a.json ? nullptr : &progress);
    if (!r)
        fail(r.status(), "demo-data failed");
    if (a.json) {
        nlohmann::json j{{"root", bytesToUtf8(r->root)},
                         {"segmentation_pairs", r->segmentationPairs},
                         {"cracked", r->cracked},
                         {"uncracked", r->uncracked},
                         {"scan", bytesToUtf8(r->scanPath)}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "Demo dataset in " << r->root << ": " << r->segmentationPairs
                  << " segmentation pairs, " << r->cracked << " cracked and " << r->uncracked
                  << " uncracked patches" << (r->scanPath.empty() ? "" : ", scan " + r->scanPath)
                  << "\n";
    }
}

} // namespace

void registerDemoDataCommand(CLI::App& app)
{
    auto a = std::make_shared<DemoArgs>();
    auto* cmd = app.add_subcommand("demo-data", "Write the built-in synthetic crack dataset");
    cmd->add_option("dir", a->dir, "Target folder (created; must be empty or a demo dataset)")
        ->required();
    cmd->add_option("--seed", a->demo.seed, "Random seed")->capture_default_str();
    cmd->add_option("--segmentation", a->demo.segmentationImages, "Image/mask pairs")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--classification", a->demo.classificationImages, "Patches per class")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--patch", a->demo.patchSize, "Patch edge in px")
        ->capture_default_str()
        ->check(CLI::Range(32, 2048));
    cmd->add_option("--scan", a->demo.scanSize, "Edge of the large demo scan in px (0 = none)")
        ->capture_default_str();
    addJsonFlag(cmd, a->json, "Print a JSON summary");
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
