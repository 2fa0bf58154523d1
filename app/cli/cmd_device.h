#pragma once

#include <CLI/CLI.hpp>

namespace fisura::cli
{

/// `monitor` and `policy`: they run from their CLI11 callbacks.
void registerDeviceCommands(CLI::App& app);

} // namespace fisura::cli
