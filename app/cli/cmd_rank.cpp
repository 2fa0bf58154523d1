// `fisura-cli rank --model M --data DIR`: the images of a segmentation dataset that have no mask
// yet, most uncertain for the model first (which to label next).
#include <iomanip>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/labels.h"
#include "schema_options.h"
#include "signals.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

struct RankArgs {
    std::string model, data;
    double band = 0.1;
    fisura::InferOptions infer; ///< --tile, --batch
    bool cpu = false;
    bool json = false;
    bool quiet = false;
    fisura::ModelLoadOptions load;
};

void run(const RankArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    auto status = fisura::labelStatus(a.data);
    if (!status)
        fail(status.status(), "rank: cannot list the dataset");
    std::vector<std::string> images;
    for (const auto& e : *status)
        if (e.state != fisura::LabelState::Labelled)
            images.push_back(e.image);
    fisura::RankOptions o;
    o.band = a.band;
    o.infer = a.infer;
    o.infer.preferCpu = a.cpu;
    o.infer.modelLoad = a.load;
    TerminalProgress progress;
    fisura::ProgressSink* sink = a.quiet || a.json ? nullptr : &progress;
    std::vector<fisura::RankEntry> ranked;
    if (!images.empty()) {
        auto r = fisura::rankByUncertainty(a.model, images, o, cancel, sink);
        if (!r)
            fail(r.status(), "rank: ranking failed");
        ranked = std::move(*r);
    }
    int failures = 0;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : ranked) {
        nlohmann::json j{{"image", fisura::bytesToUtf8(e.image)},
                         {"state", fisura::labelStateName(fisura::labelStateFor(e.image))},
                         {"uncertainty", e.uncertainty},
                         {"mean_entropy", e.meanEntropy},
                         {"near_threshold", e.nearThreshold}};
        if (!e.error.empty()) {
            j["error"] = fisura::bytesToUtf8(e.error);
            ++failures;
        }
        out.push_back(std::move(j));
    }
    if (a.json) {
        std::cout << nlohmann::json{{"dataset", fisura::bytesToUtf8(a.data)},
                                    {"labelled", status->size() - images.size()},
                                    {"ranked", out}}
                         .dump(2)
                  << "\n";
    } else {
        std::cout << images.size() << " of " << status->size()
                  << " images unlabelled; most uncertain first:\n";
        for (const auto& e : ranked)
            std::cout << std::fixed << std::setprecision(3) << e.uncertainty << "  " << e.image
                      << (e.error.empty() ? "" : "  (" + e.error + ")") << "\n";
    }
    if (failures)
        exitWith(kExitFailed);
}

} // namespace

void registerRankCommand(CLI::App& app)
{
    auto a = std::make_shared<RankArgs>();
    auto* cmd = app.add_subcommand(
        "rank", "List the unlabelled images of a segmentation dataset by the model's uncertainty "
                "(mean entropy and share of pixels near the threshold), most uncertain first");
    addModelOptions(cmd, a->model, a->load);
    cmd->add_option("--data", a->data, "Segmentation dataset folder (images/, masks/)")
        ->required()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--band", a->band, "Half-width of the near-threshold band (probability)")
        ->capture_default_str()
        ->check(FiniteRange(0.0, 1.0));
    addSchemaOption(cmd, inferOption("tile_size"), a->infer.tileSize);
    addSchemaOption(cmd, inferOption("batch_size"), a->infer.batchSize, "auto");
    addCpuFlag(cmd, a->cpu);
    addJsonFlag(cmd, a->json, "Print JSON");
    addQuietFlag(cmd, a->quiet);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
