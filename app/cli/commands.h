// Every fisura-cli command, registered in one place (commands.cpp). Each cmd_*.cpp adds its
// subcommand with its options and a callback that runs it; failures go through fail()
// (command.h), cancellation through cancelOnSignals() (signals.h).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace fisura::cli
{

void registerInfoCommand(CLI::App& app);           // cmd_info.cpp
void registerDemoDataCommand(CLI::App& app);       // cmd_demo_data.cpp
void registerPyramidCommand(CLI::App& app);        // cmd_pyramid.cpp
void registerInferCommand(CLI::App& app);          // cmd_infer.cpp
void registerMergeManifestsCommand(CLI::App& app); // cmd_merge_manifests.cpp
void registerEvaluateCommand(CLI::App& app);       // cmd_evaluate.cpp
void registerMeasureCommand(CLI::App& app);        // cmd_measure.cpp
void registerCompareCommand(CLI::App& app);        // cmd_compare.cpp
void registerScoreCommand(CLI::App& app);          // cmd_score.cpp
void registerTrainCommand(CLI::App& app);          // cmd_train.cpp
void registerProjectCommand(CLI::App& app);        // cmd_project.cpp
void registerProposeCommand(CLI::App& app);        // cmd_propose.cpp
void registerRankCommand(CLI::App& app);           // cmd_rank.cpp
void registerDeviceCommands(CLI::App& app);        // cmd_device.cpp: monitor, policy
void registerSynthDataCommand(CLI::App& app);      // cmd_synth.cpp
void registerModelInfoCommand(CLI::App& app);      // cmd_model_info.cpp
void registerLabelsCommand(CLI::App& app);         // cmd_labels.cpp

/// Adds every command to `app`, in the order --help lists them (fisura-cli-net).
void registerCommands(CLI::App& app);

/// The commands that run no network (light_commands.cpp): pyramid, measure, score, compare,
/// project, labels, merge-manifests, demo-data, synth-data. fisura-cli runs them itself, in a
/// program that does not load LibTorch; every other command line runs in fisura-cli-net.
bool isLightCommand(const std::string& name);
/// Adds the light commands to `app` (fisura-cli).
void registerLightCommands(CLI::App& app);

/// What both programs set up before their commands: one command at most, and `--lang es|en`
/// before or after its name (fallthrough, which the commands inherit).
void setUpCommandLine(CLI::App& app);

} // namespace fisura::cli
