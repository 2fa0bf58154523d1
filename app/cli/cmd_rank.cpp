// `fisura-cli rank --model M --data DIR`: the images of a segmentation dataset that have no mask
// yet, most uncertain for the model first (which to label next).
#include <csignal>
#include <iomanip>
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

fisura::CancelToken g_rankCancel;

extern "C" void onRankSignal(int)
{
    g_rankCancel.cancel();
}

struct RankArgs {
    std::string model, data;
    double band = 0.1;
    fisura::InferOptions infer; ///< --tile, --batch
    bool cpu = false;
    bool json = false;
    bool quiet = false;
    fisura::ModelLoadOptions load;
};

[[noreturn]] void fail(const fisura::Status& s, const std::string& what)
{
    std::cerr << "fisura-cli: rank: " << what << ": " << s.toString() << "\n";
    fisura::cli::printModelLoadHint(s);
    throw CLI::RuntimeError(s.code() == fisura::ErrorCode::Cancelled ? 130 : 1);
}

void run(const RankArgs& a)
{
    std::signal(SIGINT, onRankSignal);
    std::signal(SIGTERM, onRankSignal);
    auto status = fisura::labelStatus(a.data);
    if (!status)
        fail(status.status(), "cannot list the dataset");
    std::vector<std::string> images;
    for (const auto& e : *status)
        if (e.state != fisura::LabelState::Labelled)
            images.push_back(e.image);
    fisura::RankOptions o;
    o.band = a.band;
    o.infer = a.infer;
    o.infer.preferCpu = a.cpu;
    o.infer.modelLoad = a.load;
    fisura::cli::TerminalProgress progress;
    fisura::ProgressSink* sink = a.quiet || a.json ? nullptr : &progress;
    std::vector<fisura::RankEntry> ranked;
    if (!images.empty()) {
        auto r = fisura::rankByUncertainty(a.model, images, o, g_rankCancel, sink);
        if (!r)
            fail(r.status(), "ranking failed");
        ranked = std::move(*r);
    }
    int failures = 0;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : ranked) {
        nlohmann::json j{{"image", e.image},
                         {"state", fisura::labelStateName(fisura::labelStateFor(e.image))},
                         {"uncertainty", e.uncertainty},
                         {"mean_entropy", e.meanEntropy},
                         {"near_threshold", e.nearThreshold}};
        if (!e.error.empty()) {
            j["error"] = e.error;
            ++failures;
        }
        out.push_back(std::move(j));
    }
    if (a.json) {
        std::cout << nlohmann::json{{"dataset", a.data},
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
    throw CLI::RuntimeError(failures ? 1 : 0);
}

} // namespace

void registerRankCommand(CLI::App& app)
{
    auto a = std::make_shared<RankArgs>();
    auto* cmd = app.add_subcommand(
        "rank", "List the unlabelled images of a segmentation dataset by the model's uncertainty "
                "(mean entropy and share of pixels near the threshold), most uncertain first");
    cmd->add_option("--model", a->model, "Fisura model, or TorchScript module with a JSON sidecar")
        ->required()
        ->check(CLI::ExistingFile);
    fisura::cli::addModelLoadOptions(cmd, a->load);
    cmd->add_option("--data", a->data, "Segmentation dataset folder (images/, masks/)")
        ->required()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--band", a->band, "Half-width of the near-threshold band (probability)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    fisura::cli::addSchemaOption(cmd, fisura::inferOption("tile_size"), a->infer.tileSize);
    fisura::cli::addSchemaOption(cmd, fisura::inferOption("batch_size"), a->infer.batchSize,
                                 "auto");
    cmd->add_flag("--cpu", a->cpu, "Use the CPU even when a GPU is usable");
    cmd->add_flag("--json", a->json, "Print JSON");
    cmd->add_flag("--quiet", a->quiet, "No progress output");
    cmd->callback([a] { run(*a); });
}
