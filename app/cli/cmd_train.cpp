// fisura-cli train: one training job with progress lines on stderr and a JSON summary on stdout.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_lang.h"
#include "command.h"
#include "commands.h"
#include "fisura/bytetext.h"
#include "fisura/distributed.h"
#include "fisura/image.h"
#include "fisura/paths.h"
#include "fisura/project.h"
#include "fisura/runrecorder.h"
#include "fisura/starter.h"
#include "fisura/sysinfo.h"
#include "fisura/train.h"
#include "schema_options.h"
#include "signals.h"
#include "train_launch.h"

namespace fisura::cli
{

namespace
{

double mib(uint64_t bytes)
{
    return bytes / 1048576.0;
}

/// One line per batch (throttled to 2 per second) and per epoch, on stderr.
class CliTrainSink final : public fisura::TrainSink
{
public:
    explicit CliTrainSink(bool quiet) : quiet_(quiet) {}
    void started(const fisura::TrainStarted& s) override
    {
        if (quiet_)
            return;
        std::fprintf(
            stderr,
            "train: %d train / %d validation items, %d batches per epoch, %lld parameters\n",
            s.trainItems, s.valItems, s.batchesPerEpoch, static_cast<long long>(s.parameters));
        if (s.worldSize > 1)
            std::fprintf(stderr, "train: %d processes x batch %d = %d samples per step\n",
                         s.worldSize, s.batchPerProcess, s.globalBatch);
        for (const auto& c : s.policy.choices)
            std::fprintf(stderr, "policy: %s = %s (%s)\n", c.what.c_str(), c.value.c_str(),
                         c.reason.c_str());
    }
    void batch(const fisura::BatchProgress& b) override
    {
        const auto now = std::chrono::steady_clock::now();
        if (quiet_ || (b.batch != b.batches && now - last_ < std::chrono::milliseconds(500)))
            return;
        last_ = now;
        std::fprintf(stderr,
                     "epoch %d/%d batch %d/%d  loss %s  lr %s  %s img/s  ETA %.0f s  batch %d",
                     b.epoch + 1, b.epochs, b.batch, b.batches, num(b.loss, 4).c_str(),
                     numg(b.learningRate, 3).c_str(), num(b.imagesPerSecond, 1).c_str(),
                     b.etaSeconds, b.batchSize);
        if (b.gpuReservedBytes)
            std::fprintf(stderr, "  GPU %.0f MiB (peak %.0f, reserved %.0f)",
                         mib(b.gpuAllocatedBytes), mib(b.gpuPeakBytes), mib(b.gpuReservedBytes));
        std::fputc('\n', stderr);
    }
    void epoch(const fisura::EpochMetrics& m) override
    {
        if (!quiet_)
            std::fprintf(stderr, "epoch %d done: %s\n", m.epoch + 1, fisura::toJson(m).c_str());
    }
    void notice(const std::string& code, const std::string& message) override
    {
        std::fprintf(stderr, "%s: %s\n", code.c_str(), message.c_str());
    }

private:
    bool quiet_;
    std::chrono::steady_clock::time_point last_{};
};

/// Records every epoch and notice into the project's run as it arrives (fisura::RunRecorder:
/// project.json saved), so a crash mid-run still leaves the history so far; forwards everything.
class ProjectTrainSink final : public fisura::TrainSink
{
public:
    ProjectTrainSink(fisura::TrainSink& inner, fisura::RunRecorder& recorder)
        : inner_(inner), recorder_(recorder)
    {
    }
    void started(const fisura::TrainStarted& s) override { inner_.started(s); }
    void batch(const fisura::BatchProgress& b) override { inner_.batch(b); }
    void epoch(const fisura::EpochMetrics& m) override
    {
        inner_.epoch(m);
        saved(recorder_.epoch(m));
    }
    void notice(const std::string& code, const std::string& message) override
    {
        inner_.notice(code, message);
        saved(recorder_.notice(code, message));
    }
    /// The first failure to save is reported on stderr, later ones are not repeated.
    void saved(const fisura::Status& s)
    {
        if (!s && !warned_) {
            warned_ = true;
            std::fprintf(stderr, "fisura-cli: warning: cannot save the project: %s\n",
                         s.toString().c_str());
        }
    }

private:
    fisura::TrainSink& inner_;
    fisura::RunRecorder& recorder_;
    bool warned_ = false;
};

/// The JSON error on stdout comes from rank 0 only (one job, one answer); every rank says what
/// went wrong on stderr.
[[noreturn]] void failWith(const fisura::Status& s, const std::string& what, int rank = 0)
{
    if (rank > 0) {
        suppressJsonErrors();
        fail(s, "rank " + std::to_string(rank) + ": " + what);
    }
    fail(s, what);
}

/// The image files of `dataDir` (any depth), but only when one of `outputs` lies inside it:
/// the files a model, checkpoint or split written there must not replace.
std::vector<std::string> dataFilesNear(const std::vector<std::string>& outputs,
                                       const std::string& dataDir)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    if (std::none_of(outputs.begin(), outputs.end(),
                     [&](const std::string& o) { return isInsideFolder(o, dataDir); }))
        return files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dataDir, ec), end; !ec && it != end; it.increment(ec))
        if (hasImageExtension(it->path().string()))
            files.push_back(it->path().string());
    return files;
}

/// Ends the command before any work when the model, checkpoint or split it writes is a file it
/// reads: a data image, the options file, a split it reuses, the checkpoint it resumes (only
/// the checkpoint may be the one resumed: training continues it).
void refuseOverwritingTrainingInputs(const fisura::TrainOptions& o, const std::string& optionsJson)
{
    if (o.outPath.empty())
        return; // a project run: its files get fresh names in the project
    const std::string ckpt = o.checkpointPath.empty() ? o.outPath + ".ckpt" : o.checkpointPath;
    const std::string split = o.splitPath.empty() ? o.outPath + ".split.json" : o.splitPath;
    std::error_code ec;
    const bool reuseSplit = std::filesystem::exists(split, ec);
    std::vector<std::string> outputs{o.outPath};
    if (!reuseSplit)
        outputs.push_back(split);
    std::vector<std::string> inputs = dataFilesNear({o.outPath, ckpt, split}, o.dataDir);
    inputs.push_back(optionsJson);
    if (reuseSplit)
        inputs.push_back(split);
    refuseOverwriting({ckpt}, inputs);
    inputs.push_back(o.resumeFrom);
    refuseOverwriting(outputs, inputs);
}

/// How many local processes --gpus (or the testing --cpu-ranks / FISURA_DIST_CPU_RANKS) asks
/// for; 1 without them. Refuses what this machine or build cannot do.
int localProcesses(const std::string& gpus, int cpuRanks, bool cpu)
{
    if (cpuRanks > 0) {
        if (!gpus.empty())
            throw CLI::ValidationError("--gpus", "cannot be combined with CPU ranks");
        if (fisura::distributedBackends().find("gloo") == std::string::npos)
            throw CLI::ValidationError("--cpu-ranks", "this LibTorch has no gloo");
        return cpuRanks;
    }
    if (gpus.empty())
        return 1;
    if (cpu)
        throw CLI::ValidationError("--gpus", "trains on GPUs, --cpu on the processor: choose one");
    const int found = int(fisura::queryMachine().gpus.size());
    if (found == 0)
        throw CLI::ValidationError("--gpus", "this machine has no usable CUDA GPU (or this "
                                             "build's LibTorch has no CUDA): train without --gpus");
    int n = found;
    if (gpus != "all") {
        try {
            n = std::stoi(gpus);
        } catch (const std::exception&) {
            n = 0;
        }
        if (n < 1 || n > found)
            throw CLI::ValidationError("--gpus", "must be all or a number from 1 to " +
                                                     std::to_string(found) + " (GPUs found)");
    }
    if (n > 1 && fisura::distributedBackends().find("nccl") == std::string::npos)
        throw CLI::ValidationError("--gpus", "this build's LibTorch has no NCCL: one GPU only");
    return n;
}

int cpuRanksFromEnvironment()
{
    const char* v = std::getenv("FISURA_DIST_CPU_RANKS");
    if (!v || !*v)
        return 0;
    try {
        return std::max(0, std::stoi(v));
    } catch (const std::exception&) {
        throw CLI::ValidationError("FISURA_DIST_CPU_RANKS", "must be a number");
    }
}

/// Adds the dataset to the project when it is new and begins the run's record (saved).
std::string beginProjectRun(fisura::Project& project, fisura::RunRecorder& recorder,
                            fisura::TrainOptions& o, const std::string& datasetName, bool quiet)
{
    const std::string datasetId = project.addDataset(o.dataDir, o.task, datasetName);
    auto runId = recorder.begin(o, datasetId);
    if (!runId)
        failWith(runId.status(), "cannot save the project");
    if (!quiet)
        std::fprintf(stderr, "project: %s, run %s, model %s\n", project.dir().c_str(),
                     runId->c_str(), o.outPath.c_str());
    return *runId;
}

struct TrainArgs {
    std::string model; ///< --model: the anomaly task's network
    fisura::TrainOptions o;
    std::string project, datasetName;
    bool quiet = false, cpu = false;
    std::string gpus;
    int cpuRanks = 0;
    std::string optionsJson;   ///< hidden: the whole TrainOptions from this file instead
    std::string init = "auto"; ///< --init: auto | starter | scratch | a model file
    /// Options whose absence lets --init choose (and the fine-tuning defaults apply).
    CLI::Option *epochsOpt = nullptr, *lrOpt = nullptr, *widthOpt = nullptr, *depthOpt = nullptr,
                *samplesOpt = nullptr;
};

/// The engine's options of `a.o`, each declared from the option schema; those whose absence
/// lets --init choose are kept in `a`.
void addEngineOptions(CLI::App* cmd, TrainArgs& a)
{
    using fisura::trainOption;
    using namespace fisura::cli;
    fisura::TrainOptions& o = a.o;
    addSchemaChoice(cmd, trainOption("task"), o.task, fisura::taskName);
    addSchemaChoice(cmd, trainOption("model.patch_features"), o.model.patchFeatures,
                    fisura::patchFeaturesName);
    addSchemaOption(cmd, trainOption("model.feature_dim"), o.model.featureDim);
    addSchemaOption(cmd, trainOption("model.patch_radius"), o.model.patchRadius);
    addSchemaFlag(cmd, trainOption("model.pooled_positions"), o.model.pooledPositions);
    addSchemaOption(cmd, trainOption("data_dir"), o.dataDir, "required");
    addSchemaOption(cmd, trainOption("out_path"), o.outPath,
                    "required without --project; with it, default PROJECT/models/RUN.fisura");
    a.epochsOpt = addSchemaOption(cmd, trainOption("epochs"), o.epochs);
    addSchemaOption(cmd, trainOption("batch_size"), o.batchSize, "auto");
    addSchemaChoice(cmd, trainOption("precision"), o.precision, fisura::precisionName);
    addSchemaOption(cmd, trainOption("resume_from"), o.resumeFrom);
    addSchemaOption(cmd, trainOption("model.input_size"), o.model.inputSize);
    a.depthOpt = addSchemaOption(cmd, trainOption("model.depth"), o.model.depth);
    a.widthOpt = addSchemaOption(cmd, trainOption("model.width"), o.model.width);
    addSchemaOption(cmd, trainOption("start_from"), a.init,
                    "auto (the default here) = the starter for segment when it is installed and "
                    "neither --width nor --depth is given, else scratch; from a model, unless "
                    "given: --epochs 10 --lr 3e-4 --samples-per-epoch 64");
    a.samplesOpt = addSchemaOption(cmd, trainOption("samples_per_epoch"), o.samplesPerEpoch);
    a.lrOpt = addSchemaOption(cmd, trainOption("learning_rate"), o.learningRate);
    addSchemaOption(cmd, trainOption("weight_decay"), o.weightDecay);
    addSchemaChoice(cmd, trainOption("schedule"), o.schedule, fisura::scheduleName);
    addSchemaOption(cmd, trainOption("clip_norm"), o.clipNorm);
    addSchemaOption(cmd, trainOption("patience"), o.patience);
    addSchemaOption(cmd, trainOption("val_fraction"), o.valFraction);
    addSchemaOption(cmd, trainOption("split_path"), o.splitPath);
    addSchemaOption(cmd, trainOption("seed"), o.seed);
    addSchemaFlag(cmd, trainOption("augment"), o.augment);
    addSchemaOption(cmd, trainOption("loader_threads"), o.loaderThreads);
    addSchemaOption(cmd, trainOption("intra_op_threads"), o.intraOpThreads);
    addSchemaOption(cmd, trainOption("cpu_memory_mb"), o.cpuMemoryMb);
    addSchemaOption(cmd, trainOption("inter_op_threads"), o.interOpThreads);
    addSchemaOption(cmd, trainOption("prefetch"), o.prefetch);
    addSchemaOption(cmd, trainOption("max_batches_per_epoch"), o.maxBatchesPerEpoch);
}

/// The train command's options, into `args`.
CLI::App* addTrainOptions(CLI::App& app, const std::shared_ptr<TrainArgs>& args)
{
    auto* cmd = app.add_subcommand(
        "train", "Train a crack classifier, U-Net or autoencoder, or fit a patch-gaussian model");
    addEngineOptions(cmd, *args);
    cmd->add_option("--model", args->model,
                    "anomaly task: autoencoder (default) | patch-gaussian (fitted in one pass)")
        ->check(CLI::IsMember({"autoencoder", "patch-gaussian"}));
    cmd->add_option("--project", args->project,
                    "Record the run in this Fisura project (a folder holding project.json)");
    cmd->add_option("--dataset-name", args->datasetName,
                    "Name of the dataset in the project when it is added (default: folder name)");
    cmd->add_flag("--cpu", args->cpu, "Train on the CPU even when a GPU is usable");
    cmd->add_option("--gpus", args->gpus,
                    "Train on several GPUs of this host: all or a number; one process per GPU, "
                    "--batch per GPU (started here; under torchrun or srun every process joins "
                    "as its rank instead)");
    // Testing: N processes on the CPU over gloo, as --gpus would start them (hidden).
    cmd->add_option("--cpu-ranks", args->cpuRanks)->group("")->check(CLI::Range(1, 64));
    // The desktop application's peer ranks: every option from a TrainOptions JSON file, the
    // rank from the environment as under torchrun (hidden).
    cmd->add_option("--options-json", args->optionsJson)->group("");
    cmd->add_flag("--quiet", args->quiet, "Only notices and the JSON summary");
    return cmd;
}

/// TrainOptions from the file of --options-json (fisura::toJson(TrainOptions)).
fisura::TrainOptions trainOptionsFromFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in)
        failWith(fisura::Status(fisura::ErrorCode::IoError, path), "cannot read the options");
    auto o = fisura::trainOptionsFromJson(text.str());
    if (!o)
        failWith(o.status(), "bad options in " + path);
    return *o;
}

/// --init into TrainOptions::startFrom, saying what it chose and why; a job that starts from a
/// model gets the fine-tuning defaults where the user gave no value of their own.
void applyInit(const TrainArgs& a, fisura::TrainOptions& o)
{
    std::string init = a.init, why;
    if (init == "auto") {
        const bool shaped = a.widthOpt->count() > 0 || a.depthOpt->count() > 0;
        if (o.task != fisura::TaskKind::Segment || o.model.type == fisura::ModelType::PatchGaussian)
            init = "scratch", why = "only segmentation has a starter model";
        else if (shaped)
            init = "scratch", why = "--width or --depth asks for a network of its own";
        else if (fisura::findStarterModel().empty())
            init = "scratch", why = "no starter model is installed";
        else
            init = "starter", why = "the default for segmentation: Fisura's starter model";
    } else if (init == "starter" && (a.widthOpt->count() > 0 || a.depthOpt->count() > 0)) {
        throw CLI::ValidationError("--init", "a model to start from brings its own --width and "
                                             "--depth");
    }
    o.startFrom = init == "scratch" ? std::string() : init;
    if (!a.quiet)
        std::fprintf(stderr, "train: starting from %s%s%s\n",
                     init == "scratch" ? "random weights (scratch)" : init.c_str(),
                     why.empty() ? "" : ": ", why.c_str());
    if (fisura::startsFromScratch(o.startFrom))
        return;
    if (a.epochsOpt->count() == 0)
        o.epochs = fisura::FineTuneDefaults::epochs;
    if (a.lrOpt->count() == 0)
        o.learningRate = fisura::FineTuneDefaults::learningRate;
    if (a.samplesOpt->count() == 0)
        o.samplesPerEpoch = fisura::FineTuneDefaults::samplesPerEpoch;
}

/// TrainOptions from the parsed arguments; bad combinations throw CLI errors.
fisura::TrainOptions trainOptionsFrom(const TrainArgs& a)
{
    if (!a.optionsJson.empty())
        return trainOptionsFromFile(a.optionsJson);
    if (a.o.dataDir.empty())
        throw CLI::RequiredError("--data");
    fisura::TrainOptions o = a.o;
    o.preferCpu = a.cpu;
    if (!a.model.empty() && o.task != fisura::TaskKind::Anomaly)
        throw CLI::ValidationError("--model", "chooses between the anomaly task's models");
    if (a.model == "patch-gaussian")
        o.model.type = fisura::ModelType::PatchGaussian;
    if (o.outPath.empty() && a.project.empty())
        throw CLI::RequiredError("--out (or --project)");
    applyInit(a, o);
    return o;
}

/// One training job (or the launcher of its local processes), then the JSON summary.
void runTrainCommand(const std::shared_ptr<TrainArgs>& args)
{
    fisura::TrainOptions o = trainOptionsFrom(*args);
    refuseOverwritingTrainingInputs(o, args->optionsJson);
    // Several processes: started here (--gpus), or this is one of them (torchrun, srun or
    // this launcher set RANK / SLURM_PROCID).
    const int cpuRanks = args->cpuRanks > 0 ? args->cpuRanks : cpuRanksFromEnvironment();
    auto id = fisura::readDistributedEnvironment();
    if (!id)
        failWith(id.status(), "cannot join the job");
    if (!id->distributed()) {
        const int processes = localProcesses(args->gpus, cpuRanks, args->cpu);
        if (processes > 1) {
            if (!args->quiet)
                std::fprintf(stderr, "train: %d processes (%s), batch %s per process\n", processes,
                             cpuRanks > 0 ? "CPU, gloo" : "one per GPU, NCCL",
                             args->o.batchSize > 0 ? std::to_string(args->o.batchSize).c_str()
                                                   : "auto");
            const int rc = runLocalRanks(processes, cpuRanks > 0);
            if (rc != 0)
                exitWith(rc < 0 ? kExitFailed : rc);
            return;
        }
    }
    o.distributed = *id;
    if (cpuRanks > 0)
        o.preferCpu = true;
    const int rank = o.distributed.rank;
    if (rank > 0) { // rank 0 records the run and writes the files; the others only train
        args->project.clear();
        if (o.outPath.empty())
            o.outPath = "rank" + std::to_string(rank) + ".unused.fisura"; // never written
    }
    std::optional<fisura::Project> project;
    std::optional<fisura::RunRecorder> recorder;
    std::string runId;
    if (!args->project.empty()) {
        auto opened = fisura::Project::open(args->project);
        if (!opened)
            failWith(opened.status(), "cannot open the project " + args->project);
        project = std::move(*opened);
        recorder.emplace(*project);
        runId = beginProjectRun(*project, *recorder, o, args->datasetName, args->quiet);
    }
    CancelToken& cancel = cancelOnSignals();
    CliTrainSink cliSink(args->quiet);
    std::optional<ProjectTrainSink> projectSink;
    if (recorder)
        projectSink.emplace(cliSink, *recorder);
    fisura::TrainSink* sink = projectSink ? static_cast<fisura::TrainSink*>(&*projectSink)
                                          : static_cast<fisura::TrainSink*>(&cliSink);
    auto r = fisura::train(o, cancel, sink);
    if (recorder)
        projectSink->saved(recorder->finish(r));
    if (!r)
        failWith(r.status(), "train failed", rank);
    if (rank > 0) {
        if (r->cancelled)
            exitWith(cancelledExitCode());
        return;
    }
    nlohmann::json summary = nlohmann::json::parse(fisura::toJson(*r));
    if (project) {
        summary["project"] = fisura::bytesToUtf8(project->dir());
        summary["run"] = runId;
    }
    std::cout << summary.dump(2) << "\n";
    if (r->cancelled)
        exitWith(cancelledExitCode());
}

} // namespace

void registerTrainCommand(CLI::App& app)
{
    auto args = std::make_shared<TrainArgs>();
    CLI::App* cmd = addTrainOptions(app, args);
    // Its stdout is JSON (the summary), so a failure is always JSON there too.
    wantJsonErrorsWhen([cmd] { return cmd->parsed(); });
    cmd->callback([args] { runTrainCommand(args); });
}

} // namespace fisura::cli
