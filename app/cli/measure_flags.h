// The measurement's flags (--threshold, --pixel-size, --closing, --min-area, --classes,
// --class-limits, --class-by) for `measure` and `compare`, bound to a MeasureOptions through the
// option schema: the Measure set's keys, or the Compare set's under "measure.". One declaration,
// so the two commands cannot take them differently.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "fisura/measure.h"
#include "fisura/options.h"

namespace fisura::cli
{

/// Binds the flags to `o`; `limitsGiven` becomes true when --class-limits is given. `prefix`
/// is the keys' place in `set` ("" for Measure, "measure." for Compare).
void addMeasureFlags(CLI::App* cmd, OptionSet set, const std::string& prefix, MeasureOptions& o,
                     bool& limitsGiven);

/// The width classes the flags chose: a preset, or the limits of --class-limits (with
/// --classes custom, or alone). fail()s naming `what` for custom without limits, or limits
/// with a preset.
WidthClasses classesFromFlags(const MeasureOptions& o, bool limitsGiven, const std::string& what);

} // namespace fisura::cli
