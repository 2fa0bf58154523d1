// fisura-cli: the command line's front door. The commands that run no network (pyramid, measure,
// score, compare, project, ...; commands.h) run here, in a program that does not load LibTorch:
// its libraries alone held about 160 MB of resident memory in every command. Every other command
// line (train, infer, evaluate, ..., --help, --version) runs in fisura-cli-net, which this
// program becomes (execv: the same process, arguments, standard streams and exit status).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "command.h"
#include "commands.h"
#include "fisura/process.h"

namespace
{

namespace fs = std::filesystem;

/// The command a command line names: its first argument that is neither an option nor the
/// value of the one top-level option that takes one (--lang); empty when there is none.
std::string commandName(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--lang") {
            ++i;
            continue;
        }
        if (!a.empty() && a[0] == '-')
            continue;
        return a;
    }
    return {};
}

/// fisura-cli-net beside this program (build tree, or both in bin/), else in
/// ../libexec/fisura/ (the Debian package).
fs::path networkProgram()
{
    std::error_code ec;
    const fs::path here = fs::read_symlink("/proc/self/exe", ec).parent_path();
    for (const fs::path& p :
         {here / "fisura-cli-net", here / ".." / "libexec" / "fisura" / "fisura-cli-net"})
        if (access(p.c_str(), X_OK) == 0)
            return p;
    return here / "fisura-cli-net";
}

[[noreturn]] void becomeNetworkProgram(char** argv)
{
    const fs::path program = networkProgram();
    fisura::setQuietOpenMpEnvironment(); // what fisura-cli-net would restart itself for
    execv(program.c_str(), argv);
    const int err = errno;
    std::cerr << "fisura-cli: cannot start " << program.string() << ": " << std::strerror(err)
              << ". It runs every command but the light ones (pyramid, measure, ...); "
                 "reinstall fisura-cli.\n";
    std::exit(fisura::cli::kExitFailed);
}

} // namespace

int main(int argc, char** argv)
{
    if (!fisura::cli::isLightCommand(commandName(argc, argv)))
        becomeNetworkProgram(argv);
    CLI::App app{"Fisura command-line tools: machine facts, demo data, projects, training and "
                 "inference without the GUI."};
    fisura::cli::setUpCommandLine(app);
    fisura::cli::registerLightCommands(app);
    return fisura::cli::runCommandLine(app, argc, argv);
}
