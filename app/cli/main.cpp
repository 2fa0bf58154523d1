// fisura-cli: the headless front end (scripts, servers, the GPU build host). Links core only.
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
    app.require_subcommand(0, 1);
    app.set_version_flag(
        "--version",
        [] {
            return "fisura-cli " + std::string(fisura::version()) + " (LibTorch " +
                   fisura::torchVersion() + ")";
        },
        "Print the version and exit");
    fisura::cli::registerCommands(app);
    return fisura::cli::runCommandLine(app, argc, argv);
}
