// Every fisura-cli command, registered in one place (commands.cpp). Each cmd_*.cpp adds its
// subcommand with its options and a callback that runs it; failures go through fail()
// (command.h), cancellation through cancelOnSignals() (signals.h).
#pragma once

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

/// Adds every command to `app`, in the order --help lists them.
void registerCommands(CLI::App& app);

} // namespace fisura::cli
