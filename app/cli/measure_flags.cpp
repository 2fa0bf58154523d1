#include "measure_flags.h"

#include "command.h"
#include "schema_options.h"
#include "threshold_option.h"

namespace fisura::cli
{

void addMeasureFlags(CLI::App* cmd, OptionSet set, const std::string& prefix, MeasureOptions& o,
                     bool& limitsGiven)
{
    const auto def = [&](const char* key) -> const OptionDef& {
        return optionDef(set, prefix + key);
    };
    addSchemaOption(cmd, def("pixel_size_mm"), o.pixelSizeMm);
    // The schema's range, and the old map-byte form refused with the probability it means.
    const OptionDef& threshold = def("threshold");
    cmd->add_option(threshold.cli, o.threshold, schemaHelp(threshold))
        ->capture_default_str()
        ->check(probabilityThreshold(&threshold));
    addSchemaOption(cmd, def("closing_radius_px"), o.closingRadiusPx);
    addSchemaOption(cmd, def("min_area_px"), o.minAreaPx);
    std::string presets;
    for (const auto& p : widthClassPresets())
        presets += "\n  " + p.id + ": " + p.source;
    addSchemaTextChoice(cmd, def("classes.preset"), o.classes.preset,
                        "custom takes --class-limits:" + presets);
    // Three limits: the four class names of Fisura's classes.
    addSchemaList(cmd, def("classes.upper_limits_mm"), o.classes.upperLimitsMm, 3)
        ->each([&limitsGiven](const std::string&) { limitsGiven = true; });
    addSchemaChoice(cmd, def("class_by"), o.classBy, classByName);
    addSchemaOption(cmd, def("branch_memory_mb"), o.branchMemoryMb);
}

WidthClasses classesFromFlags(const MeasureOptions& o, bool limitsGiven, const std::string& what)
{
    const std::string& preset = o.classes.preset;
    if (preset == "custom" || (preset == "default" && limitsGiven)) {
        if (!limitsGiven)
            fail(Status(ErrorCode::InvalidArgument, "--classes custom needs --class-limits"), what);
        WidthClasses c;
        c.upperLimitsMm = o.classes.upperLimitsMm;
        c.preset = "custom";
        return c;
    }
    if (limitsGiven)
        fail(Status(ErrorCode::InvalidArgument,
                    "--class-limits go with --classes custom, not with --classes " + preset),
             what);
    auto p = widthClassPreset(preset);
    if (!p)
        fail(p.status(), what);
    return p->classes;
}

} // namespace fisura::cli
