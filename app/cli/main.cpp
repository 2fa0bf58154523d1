// fisura-cli: the headless front end (scripts, servers, the GPU build host). Links core only.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli_lang.h"
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
    // The language of the text output, for every command: before or after the command's name
    // (fallthrough, which the commands inherit); `measure` has its own --lang for its report.
    fisura::cli::setOutputLanguage(fisura::cli::languageFromEnvironment());
    app.fallthrough();
    app.add_option_function<std::string>(
           "--lang", [](const std::string& lang) { fisura::cli::setOutputLanguage(lang); },
           "Language of the text output: es (decimal comma) or en; default: LC_ALL, LC_MESSAGES "
           "or LANG. CSV and JSON always use a decimal point")
        ->check(CLI::IsMember({"es", "en"}));
    fisura::cli::registerCommands(app);
    return fisura::cli::runCommandLine(app, argc, argv);
}
