// The commands that run no network, and the set-up both programs share; see commands.h.
#include "cli_lang.h"
#include "commands.h"

namespace fisura::cli
{

namespace
{

struct LightCommand {
    const char* name;
    void (*add)(CLI::App&);
};

// Their code never reaches LibTorch's (the test cli_front_without_torch checks the program's
// libraries): a command added here must not need a network.
constexpr LightCommand kLight[] = {
    {"demo-data", registerDemoDataCommand},
    {"pyramid", registerPyramidCommand},
    {"merge-manifests", registerMergeManifestsCommand},
    {"measure", registerMeasureCommand},
    {"compare", registerCompareCommand},
    {"score", registerScoreCommand},
    {"project", registerProjectCommand},
    {"synth-data", registerSynthDataCommand},
    {"labels", registerLabelsCommand},
};

} // namespace

bool isLightCommand(const std::string& name)
{
    for (const LightCommand& c : kLight)
        if (name == c.name)
            return true;
    return false;
}

void registerLightCommands(CLI::App& app)
{
    for (const LightCommand& c : kLight)
        c.add(app);
}

void setUpCommandLine(CLI::App& app)
{
    app.require_subcommand(0, 1);
    // The language of the text output, for every command: before or after the command's name
    // (fallthrough, which the commands inherit); `measure` has its own --lang for its report.
    setOutputLanguage(languageFromEnvironment());
    app.fallthrough();
    app.add_option_function<std::string>(
           "--lang", [](const std::string& lang) { setOutputLanguage(lang); },
           "Language of the text output: es (decimal comma) or en; default: LC_ALL, LC_MESSAGES "
           "or LANG. CSV and JSON always use a decimal point")
        ->check(CLI::IsMember({"es", "en"}));
}

} // namespace fisura::cli
