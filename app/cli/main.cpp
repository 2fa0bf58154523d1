// fisura-cli: the headless front end (scripts, servers, the GPU build host). Links core only.
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cmd_device.h"
#include "cmd_train.h"
#include "fisura/job.h"
#include "fisura/process.h"
#include "fisura/synth.h"
#include "fisura/sysinfo.h"
#include "fisura/version.h"
#include "terminal_progress.h"

namespace
{

fisura::CancelToken g_cancel;

extern "C" void onSignal(int)
{
    g_cancel.cancel();
}

std::string gib(uint64_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / 1073741824.0);
    return buf;
}

void printInfoText(const fisura::MachineInfo& m)
{
    std::cout << "Fisura " << m.fisuraVersion << "\n"
              << "OS:        " << m.os << "\n"
              << "CPU:       " << m.cpuModel << " (" << m.logicalCores << " logical cores)\n"
              << "RAM:       " << gib(m.totalRamBytes) << " total, " << gib(m.availableRamBytes)
              << " available\n"
              << "LibTorch:  " << m.torchVersion
              << (m.torchBuiltWithCuda ? " (CUDA build)" : " (CPU build)") << "\n"
              << "OpenCV:    " << fisura::opencvVersion() << "\n"
              << "libtiff:   " << fisura::libtiffVersion() << "\n"
              << "CUDA:      " << (m.cudaUsable ? "usable" : "not usable") << " - " << m.cudaStatus
              << "\n";
    if (!m.cudaRuntimeVersion.empty())
        std::cout << "Versions:  CUDA runtime " << m.cudaRuntimeVersion << ", driver API "
                  << m.cudaDriverVersion << ", NVIDIA driver " << m.nvidiaDriverVersion
                  << ", cuDNN " << m.cudnnVersion << "\n";
    for (const auto& g : m.gpus)
        std::cout << "GPU " << g.index << ":     " << g.name << ", compute " << g.computeMajor
                  << "." << g.computeMinor << ", " << g.multiprocessors << " SMs, "
                  << gib(g.totalMemoryBytes) << " (" << gib(g.freeMemoryBytes) << " free)"
                  << (g.fp16 ? ", fp16" : "") << (g.bf16 ? ", bf16" : "")
                  << (g.tf32 ? ", TF32" : "") << ", PCI " << g.pciBusId << "\n";
}

using fisura::cli::TerminalProgress;

} // namespace

void registerPyramidCommand(CLI::App& app);        // cmd_pyramid.cpp
void registerInferCommand(CLI::App& app);          // cmd_infer.cpp
void registerEvaluateCommand(CLI::App& app);       // cmd_evaluate.cpp
void registerMeasureCommand(CLI::App& app);        // cmd_measure.cpp
void registerProjectCommand(CLI::App& app);        // cmd_project.cpp
void registerScoreCommand(CLI::App& app);          // cmd_score.cpp
void registerProposeCommand(CLI::App& app);        // cmd_propose.cpp
void registerRankCommand(CLI::App& app);           // cmd_rank.cpp
void registerMergeManifestsCommand(CLI::App& app); // cmd_merge_manifests.cpp
void registerSynthDataCommand(CLI::App& app);      // cmd_synth.cpp
void registerModelInfoCommand(CLI::App& app);      // cmd_model_info.cpp

int main(int argc, char** argv)
{
    fisura::restartWithQuietOpenMpThreads(argc, argv);
    CLI::App app{"Fisura command-line tools: machine facts, demo data, projects, training and "
                 "inference without the GUI."};
    app.require_subcommand(0, 1);
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print the version and exit");

    bool infoJson = false;
    auto* info =
        app.add_subcommand("info", "Machine and device facts: CPU, RAM, LibTorch, CUDA, GPUs");
    info->add_flag("--json", infoJson, "Print JSON instead of text");

    std::string demoDir;
    fisura::synth::DemoDatasetOptions demo;
    bool demoJson = false;
    auto* demoCmd = app.add_subcommand("demo-data", "Write the built-in synthetic crack dataset");
    demoCmd->add_option("dir", demoDir, "Target folder (created; must be empty or a demo dataset)")
        ->required();
    demoCmd->add_option("--seed", demo.seed, "Random seed")->capture_default_str();
    demoCmd->add_option("--segmentation", demo.segmentationImages, "Image/mask pairs")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    demoCmd->add_option("--classification", demo.classificationImages, "Patches per class")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    demoCmd->add_option("--patch", demo.patchSize, "Patch edge in px")
        ->capture_default_str()
        ->check(CLI::Range(32, 2048));
    demoCmd->add_option("--scan", demo.scanSize, "Edge of the large demo scan in px (0 = none)")
        ->capture_default_str();
    demoCmd->add_flag("--json", demoJson, "Print a JSON summary");

    registerSynthDataCommand(app);
    registerPyramidCommand(app);
    registerInferCommand(app);
    registerMergeManifestsCommand(app);
    registerEvaluateCommand(app);
    registerModelInfoCommand(app);
    registerMeasureCommand(app);
    registerScoreCommand(app);
    registerTrainCommand(app);
    registerProjectCommand(app);
    registerProposeCommand(app);
    registerRankCommand(app);

    fisura::cli::registerDeviceCommands(app);
    CLI11_PARSE(app, argc, argv);

    if (showVersion) {
        std::cout << "fisura-cli " << fisura::version() << " (LibTorch " << fisura::torchVersion()
                  << ")\n";
        return 0;
    }
    if (*info) {
        const auto m = fisura::queryMachine();
        if (infoJson)
            std::cout << fisura::toJson(m) << "\n";
        else
            printInfoText(m);
        return 0;
    }
    if (*demoCmd) {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        TerminalProgress progress;
        auto r = fisura::synth::writeDemoDataset(demoDir, demo, g_cancel,
                                                 demoJson ? nullptr : &progress);
        if (!r) {
            std::cerr << "fisura-cli: demo-data failed: " << r.status().toString() << "\n";
            return r.status().code() == fisura::ErrorCode::Cancelled ? 130 : 1;
        }
        if (demoJson) {
            nlohmann::json j{{"root", r->root},
                             {"segmentation_pairs", r->segmentationPairs},
                             {"cracked", r->cracked},
                             {"uncracked", r->uncracked},
                             {"scan", r->scanPath}};
            std::cout << j.dump(2) << "\n";
        } else {
            std::cout << "Demo dataset in " << r->root << ": " << r->segmentationPairs
                      << " segmentation pairs, " << r->cracked << " cracked and " << r->uncracked
                      << " uncracked patches"
                      << (r->scanPath.empty() ? "" : ", scan " + r->scanPath) << "\n";
        }
        return 0;
    }
    std::cout << app.help();
    return 0;
}
