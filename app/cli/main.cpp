// fisura-cli-net: every fisura-cli command, the ones that run a network included (train, infer,
// evaluate, ...). Links core and LibTorch; fisura-cli (front.cpp) becomes this program for every
// command line it does not run itself.
#include <iostream>

#include <CLI/CLI.hpp>

#include "command.h"
#include "commands.h"
#include "fisura/process.h"
#include "fisura/version.h"

int main(int argc, char** argv)
{
    fisura::restartWithQuietOpenMpThreads(argc, argv);
    CLI::App app{"Fisura command-line tools: machine facts, demo data, projects, training and "
                 "inference without the GUI."};
    app.set_version_flag(
        "--version",
        [] {
            return "fisura-cli " + std::string(fisura::version()) + " (LibTorch " +
                   fisura::torchVersion() + ")";
        },
        "Print the version and exit");
    fisura::cli::setUpCommandLine(app);
    fisura::cli::registerCommands(app);
    return fisura::cli::runCommandLine(app, argc, argv);
}
