// `fisura-cli infer --model M --in SCAN|FOLDER --out MAP|FOLDER`: tiled inference over scans of
// any size, streaming into tiled pyramidal BigTIFF maps. A folder may be one group of a cluster
// run (--shard I/N or the Slurm array task; infer_shard.cpp), with a manifest of what it did.
// On several GPUs (--gpus) one scan is split over all of them; a folder's large scans too,
// while its small ones go one per GPU (fisura::runScans).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/infer.h"
#include "fisura/manifest.h"
#include "fisura/options.h"
// The one testing hook a product uses (--cpu-devices, for the CLI's multi-device checks on the
// CPU); a documented exception in cmake/CheckLayering.cmake.
#include "fisura/testing.h"
#include "image_limit_args.h"
#include "infer_shard.h"
#include "input_notices.h"
#include "schema_options.h"
#include "signals.h"
#include "starter_choice.h"
#include "terminal_progress.h"

namespace fs = std::filesystem;

namespace fisura::cli
{

namespace
{

struct InferArgs {
    std::string model, in, out;
    fisura::InferOptions o; ///< the engine's options, straight from the command line
    bool cpu = false;
    bool json = false;
    bool quiet = false;
    bool timeNetwork = false;
    std::string shard, manifest;
    bool redo = false;
    int cpuDevices = 0;
    fisura::ModelLoadOptions load;
};

} // namespace

/// The engine's options of `o`, each declared from the option schema.
static void addEngineOptions(CLI::App* cmd, fisura::InferOptions& o)
{
    using fisura::inferOption;
    addSchemaOption(cmd, inferOption("tile_size"), o.tileSize);
    addSchemaOption(cmd, inferOption("overlap"), o.overlap);
    addSchemaOption(cmd, inferOption("batch_size"), o.batchSize, "auto");
    addSchemaChoice(cmd, inferOption("precision"), o.precision, fisura::precisionName);
    addSchemaChoice(cmd, inferOption("window"), o.window, fisura::blendWindowName);
    addSchemaChoice(cmd, inferOption("output.compression"), o.output.compression,
                    fisura::tileCompressionName);
    addSchemaOption(cmd, inferOption("output.compression_level"), o.output.compressionLevel);
    addSchemaFlag(cmd, inferOption("output.adaptive_level"), o.output.adaptiveLevel);
    addSchemaOption(cmd, inferOption("reader_threads"), o.readerThreads);
    addSchemaOption(cmd, inferOption("intra_op_threads"), o.intraOpThreads);
    addSchemaOption(cmd, inferOption("inter_op_threads"), o.interOpThreads);
    addSchemaOption(cmd, inferOption("gpus"), o.gpus, "all");
    addImageLimitOptions(cmd, o.inputLimits);
}

/// The options of `infer`, bound to `a`.
static void addInferOptions(CLI::App* cmd, InferArgs& a)
{
    addModelOptions(cmd, a.model, a.load,
                    "Fisura model, or TorchScript module with a JSON sidecar (default: Fisura's "
                    "starter crack model)")
        ->required(false);
    cmd->add_option("--in", a.in, "Input image (TIFF of any size, PNG, JPEG) or folder")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_option("--out", a.out, "Output map (TIFF), or a folder when --in is one")->required();
    addEngineOptions(cmd, a.o);
    addCpuFlag(cmd, a.cpu);
    addJsonFlag(cmd, a.json, "Print a JSON summary");
    addQuietFlag(cmd, a.quiet);
    cmd->add_flag("--time-network", a.timeNetwork,
                  "Also time the network alone on the same number of tiles (benchmarks)");
    cmd->add_option("--shard", a.shard,
                    "With a folder: run only group I of N (1-based, e.g. 2/3). Default: the Slurm "
                    "array task (SLURM_ARRAY_TASK_ID/COUNT/MIN), else the whole folder");
    cmd->add_option("--manifest", a.manifest,
                    "With a folder: where this shard's manifest goes (a file, or a folder for "
                    "fisura-manifest.I-of-N.json; default beside the maps)");
    cmd->add_flag("--redo", a.redo,
                  "With a folder: run scans again although the manifest says they are done");
    cmd->add_option("--cpu-devices", a.cpuDevices,
                    "Tests: with --cpu, the processor acts as this many devices")
        ->check(CLI::Range(0, 16));
}

/// The options that change the maps: a manifest's maps are reused only when they match.
static std::map<std::string, std::string> mapSettings(const InferArgs& a)
{
    const fisura::InferOptions& o = a.o;
    std::map<std::string, std::string> m{
        {"tile", std::to_string(o.tileSize)},
        {"overlap", std::to_string(o.overlap)},
        {"window", fisura::blendWindowName(o.window)},
        {"precision", fisura::precisionName(o.precision)},
        {"compression", fisura::tileCompressionName(o.output.compression)}};
    if (o.output.compressionLevel != 0) // absent at the default, so earlier manifests still match
        m["level"] = std::to_string(o.output.compressionLevel);
    return m;
}

/// What a folder run writes: its maps and its manifest.
static std::vector<std::string> folderOutputs(const FolderRun& run)
{
    std::vector<std::string> out{run.manifestPath};
    for (const auto& job : run.jobs)
        out.push_back(job.second);
    return out;
}

/// What a folder run reads: every scan of its shard, and the model.
static std::vector<std::string> folderInputs(const FolderRun& run, const std::string& model)
{
    std::vector<std::string> in{model};
    for (const auto& job : run.jobs)
        in.push_back(job.first);
    return in;
}

/// Folder runs: this task's scans, its manifest opened (done scans of an earlier run of the same
/// shard are skipped unless --redo). Prints what it chose on stderr.
static std::unique_ptr<fisura::ShardJournal>
openFolderRun(const InferArgs& a, const std::string& kindName,
              std::vector<std::pair<std::string, std::string>>& jobs)
{
    auto run = planFolderRun(a.in, a.out, a.shard, a.manifest, kindName);
    if (!run) {
        if (run.status().code() == fisura::ErrorCode::InvalidArgument)
            failUsage(run.status().detail());
        fail(run.status(), "cannot plan the run");
    }
    refuseOverwriting(folderOutputs(*run), folderInputs(*run, a.model));
    auto model = fisura::describeModelFile(a.model);
    if (!model)
        fail(model.status(), "cannot read the model file");
    run->manifest.model = *model;
    run->manifest.settings = mapSettings(a);
    auto journal = fisura::ShardJournal::open(run->manifestPath, run->manifest, a.redo);
    if (!journal)
        fail(journal.status(), "cannot write the manifest");
    if (!journal->previousProblem().empty())
        std::cerr << "infer: earlier manifest " << run->manifestPath << ": "
                  << journal->previousProblem() << "\n";
    for (const auto& job : run->jobs) {
        const std::string why = journal->skipReason(job.first);
        if (why.empty())
            jobs.push_back(job);
        else if (!a.quiet && !a.json)
            std::cerr << "infer: skipping " << job.first << " (" << why << ")\n";
    }
    if (!a.quiet)
        std::cerr << "infer: shard " << run->shard.index + 1 << "/" << run->shard.count
                  << (run->shardSource.empty() ? "" : " (" + run->shardSource + ")") << ": "
                  << run->jobs.size() << " of " << run->folderScans << " scans, "
                  << run->jobs.size() - jobs.size() << " already done, " << jobs.size()
                  << " to run; manifest " << run->manifestPath << "\n";
    return std::make_unique<fisura::ShardJournal>(std::move(*journal));
}

/// The engine options from the command line.
static fisura::InferOptions inferOptions(const InferArgs& a)
{
    fisura::InferOptions o = a.o;
    o.preferCpu = a.cpu;
    return o;
}

namespace
{

/// What a run printed and recorded so far; one scan's result at a time (runScans serialises
/// its calls).
struct FolderOutcome {
    nlohmann::json results = nlohmann::json::array();
    int failures = 0;
    fisura::Status fatal; ///< the first cancelled scan's status, or a failed single scan's
    std::string fatalInput;
};

/// What held the run back, for the summary line (fisura::inferLimitOf).
const char* limitPhrase(fisura::InferLimit limit)
{
    switch (limit) {
    case fisura::InferLimit::Input:
        return "limited by reading and decoding the scan";
    case fisura::InferLimit::Writer:
        return "limited by compressing and writing the map";
    case fisura::InferLimit::Device:
        break;
    }
    return "limited by the network on the device";
}

/// The adaptive map level's part of the summary line: empty when no band was lowered.
std::string adaptivePhrase(const fisura::TiledWriteStats& w)
{
    if (w.bandsBelowLevel == 0)
        return {};
    char text[160];
    std::snprintf(text, sizeof text,
                  "; Zstd level lowered in %d of %d bands (down to %d) to keep up: map about "
                  "%.0f %% larger",
                  w.bandsBelowLevel, w.bands, w.lowestLevel,
                  100.0 * fisura::adaptiveSizeIncrease(w));
    return text;
}

void recordScan(const InferArgs& a, fisura::TiledInference& inf, fisura::ShardJournal* journal,
                const fisura::ScanJob& job, const fisura::Result<fisura::InferStats>& r,
                double seconds, bool folder, FolderOutcome& o)
{
    if (journal) {
        const fisura::Status st = r ? fisura::Status::ok() : r.status();
        const auto rec =
            scanRecord(job.input, job.output, st, seconds, r ? r->width : 0, r ? r->height : 0);
        if (auto w = journal->record(rec); !w) {
            std::cerr << "fisura-cli: cannot update the manifest: " << w.toString() << "\n";
            ++o.failures;
        }
    }
    if (folder)
        printInputNotices(job.input);
    if (!r) {
        if (r.status().code() == fisura::ErrorCode::Cancelled || !folder) {
            if (o.fatal.isOk()) {
                o.fatal = r.status();
                o.fatalInput = job.input;
            }
            return;
        }
        std::cerr << "fisura-cli: " << job.input << ": " << r.status().toString() << "\n";
        o.results.push_back({{"input", fisura::bytesToUtf8(job.input)},
                             {"error", fisura::errorCodeName(r.status().code())},
                             {"detail", fisura::bytesToUtf8(r.status().detail())}});
        ++o.failures;
        return;
    }
    nlohmann::json j = nlohmann::json::parse(fisura::toJson(*r));
    if (a.timeNetwork && inf.deviceCount() == 1) { // runs are sequential then
        auto net = inf.timeNetworkOnly(r->tiles, cancelOnSignals());
        if (net) {
            j["network_only_seconds"] = *net;
            j["end_to_end_over_network"] = r->seconds / std::max(1e-9, *net);
        } else {
            std::cerr << "fisura-cli: timing the network failed: " << net.status().toString()
                      << "\n";
        }
    }
    j["policy"] = nlohmann::json::parse(fisura::toJson(inf.policy()));
    // This scan's forecast is a choice of its run's policy, made before the run.
    const fisura::PolicyChoice pace = fisura::paceChoice(r->forecast);
    j["policy"]["choices"].push_back(
        {{"what", pace.what}, {"value", pace.value}, {"reason", pace.reason}});
    if (!a.json)
        std::cout << "Wrote " << job.output << ": " << r->width << " x " << r->height << ", "
                  << r->tiles << " tiles in " << r->seconds << " s (" << r->megapixelsPerSecond
                  << " MP/s, " << r->devices.size()
                  << (r->devices.size() == 1 ? " device" : " devices") << ", peak RSS "
                  << r->peakRssBytes / 1048576 << " MiB; " << limitPhrase(fisura::inferLimitOf(*r))
                  << adaptivePhrase(r->writer) << ")" << std::endl;
    o.results.push_back(std::move(j));
}

/// One scan: ends the command before any work (the model is not even loaded) when the
/// arguments cannot work or its map would replace an input.
void checkSingleScan(const InferArgs& a)
{
    std::error_code ec;
    if (!a.shard.empty() || !a.manifest.empty())
        failUsage("--shard and --manifest need a folder for --in");
    if (fs::is_directory(a.out, ec))
        failUsage("--out " + a.out +
                  " is a folder: name the map file to write (a folder is the "
                  "output of a folder of scans)");
    refuseOverwriting({a.out}, {a.in, a.model});
}

/// The scans to run: one file, or this task's part of a folder (its journal opened).
std::unique_ptr<fisura::ShardJournal>
planJobs(const InferArgs& a, const std::string& kindName, bool folder,
         std::vector<std::pair<std::string, std::string>>& jobs)
{
    if (!folder) {
        jobs.emplace_back(a.in, a.out);
        return nullptr;
    }
    std::error_code ec;
    fs::create_directories(a.out, ec);
    if (!fs::is_directory(a.out, ec))
        failUsage("--out must be a folder when --in is one: " + a.out);
    return openFolderRun(a, kindName, jobs);
}

/// Runs the jobs on the engine; the outcome of every scan in `outcome`.
void runJobs(const InferArgs& a, fisura::TiledInference& inf, fisura::ShardJournal* journal,
             const std::vector<std::pair<std::string, std::string>>& jobs, bool folder,
             fisura::ProgressSink* sink, FolderOutcome& outcome)
{
    CancelToken& cancel = cancelOnSignals();
    std::vector<fisura::ScanJob> scans;
    for (const auto& [in, out] : jobs)
        scans.push_back({in, out});
    if (folder) {
        fisura::runScans(
            inf, scans,
            [&](size_t i, const fisura::Result<fisura::InferStats>& r) {
                recordScan(a, inf, journal, scans[i], r, r ? r->seconds : 0.0, true, outcome);
            },
            cancel, sink);
    } else {
        printInputNotices(scans[0].input);
        if (!a.quiet && !a.json) // said before the run: what will set its pace
            if (auto f = inf.forecast(scans[0].input))
                std::cerr << "infer: " << fisura::paceChoice(*f).reason << "\n";
        auto r = inf.run(scans[0].input, scans[0].output, cancel, sink);
        recordScan(a, inf, nullptr, scans[0], r, r ? r->seconds : 0.0, false, outcome);
    }
}

void run(const InferArgs& given)
{
    CancelToken& cancel = cancelOnSignals();
    // Without --model, Fisura's starter model (said on stderr, so JSON on stdout stays clean).
    bool starter = false;
    InferArgs a = given;
    a.model = modelOrStarter(given.model, starter);
    if (a.model.empty())
        failUsage(noModelText());
    const fisura::InferOptions o = inferOptions(a);
    if (a.cpuDevices > 0)
        fisura::testing::splitCpuInference(a.cpuDevices);
    std::error_code ec;
    const bool folder = fs::is_directory(a.in, ec);
    if (!folder)
        checkSingleScan(a);
    auto model = fisura::Model::load(a.model, a.load);
    if (!model)
        fail(model.status(), "cannot load the model");
    if (starter)
        sayStarterUsed("infer", a.model, model->info());
    const std::string kindName = fisura::mapKindName(fisura::mapKindFor(model->info().config.type));
    std::vector<std::pair<std::string, std::string>> jobs;
    std::unique_ptr<fisura::ShardJournal> journal = planJobs(a, kindName, folder, jobs);
    if (jobs.empty()) { // everything done already, or more tasks than scans
        if (a.json)
            std::cout << "[]\n";
        return;
    }
    TerminalProgress progress;
    fisura::ProgressSink* sink = a.quiet || a.json ? nullptr : &progress;
    auto engine = fisura::TiledInference::create(std::move(*model), o, cancel, sink);
    if (!engine)
        fail(engine.status(), "cannot prepare the model");
    auto& inf = **engine;
    if (!a.quiet && !a.json)
        std::cerr << "infer: " << kindName << " map, tile " << inf.tileSize() << " px, overlap "
                  << inf.overlap() << " px, batch " << inf.policy().batchSize << ", "
                  << (inf.policy().useCuda ? "cuda" : "cpu") << " "
                  << fisura::precisionName(inf.policy().precision) << ", " << inf.deviceCount()
                  << (inf.deviceCount() == 1 ? " device" : " devices") << "\n";
    FolderOutcome outcome;
    runJobs(a, inf, journal.get(), jobs, folder, sink, outcome);
    if (!outcome.fatal.isOk())
        fail(outcome.fatal, "inference failed on " + outcome.fatalInput);
    if (cancel.isCancelled())
        fail(fisura::Status(fisura::ErrorCode::Cancelled, "inference cancelled"),
             "inference cancelled");
    if (a.json)
        std::cout << (folder ? outcome.results.dump(2) : outcome.results.at(0).dump(2)) << "\n";
    if (outcome.failures)
        exitWith(kExitFailed);
}

} // namespace

void registerInferCommand(CLI::App& app)
{
    auto a = std::make_shared<InferArgs>();
    auto* cmd = app.add_subcommand(
        "infer", "Run a model tile by tile over a scan (or a folder of scans) and write its map "
                 "as a tiled pyramidal TIFF");
    addInferOptions(cmd, *a);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli
