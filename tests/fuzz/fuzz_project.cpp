// Fuzz target: project.json (Project::fromJson), the training options and epoch metrics it
// embeds (trainOptionsFromJson, epochMetricsFromJson). A project that parses is written back,
// and the options of each run are parsed as the resume path does.
#include <string>

#include "fisura/project.h"
#include "fuzz_entry.h"

FISURA_FUZZ_TARGET(project)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (auto p = fisura::Project::fromJson(text, "/nonexistent/fisura-fuzz/project")) {
        for (const auto& run : p->runs())
            (void)fisura::trainOptionsFromJson(run.optionsJson);
        const std::string again = p->toJson(-1);
        (void)fisura::Project::fromJson(again, "/nonexistent/fisura-fuzz/project");
    }
    (void)fisura::trainOptionsFromJson(text);
    (void)fisura::epochMetricsFromJson(text);
    return 0;
}
