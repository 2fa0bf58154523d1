// The registry of fisura-cli's commands; see commands.h.
#include "commands.h"

namespace fisura::cli
{

void registerCommands(CLI::App& app)
{
    using Register = void (*)(CLI::App&);
    static const Register all[] = {
        registerInfoCommand,      registerDemoDataCommand,       registerPyramidCommand,
        registerInferCommand,     registerMergeManifestsCommand, registerEvaluateCommand,
        registerMeasureCommand,   registerCompareCommand,        registerScoreCommand,
        registerTrainCommand,     registerProjectCommand,        registerProposeCommand,
        registerRankCommand,      registerDeviceCommands,        registerSynthDataCommand,
        registerModelInfoCommand, registerLabelsCommand,
    };
    for (Register add : all)
        add(app);
}

} // namespace fisura::cli
