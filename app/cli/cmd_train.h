#pragma once

#include <CLI/CLI.hpp>

/// Adds `train`; it runs from its CLI11 callback and reports failures as CLI::RuntimeError.
void registerTrainCommand(CLI::App& app);
