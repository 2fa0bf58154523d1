// What every fisura-cli command shares: how it fails, its exit codes, its error JSON, and the one
// place (runCommandLine) every command passes through, where anything a command throws becomes
// a clear message and an exit code instead of an abort.
//
// Exit codes (also in the man page and the README):
//   0    success
//   1    the job failed (the message says why: a missing or damaged file, a full disk, ...)
//   2    bad arguments (unknown option, value out of range, NaN, an output that is an input)
//   3    out of memory, or another resource exhausted (threads, processes, file handles)
//   128+n  stopped by signal n, after the job was cancelled and nothing half-written was left:
//          129 SIGHUP, 130 SIGINT (Ctrl-C), 131 SIGQUIT, 143 SIGTERM
// With --json (and always for `train`, whose stdout is JSON) a failure also prints
//   {"error": "<code>", "detail": "<what and which file>"}
// on stdout, where <code> is an ErrorCode name (fisura/status.h: not_found, corrupt, ...),
// "invalid_argument" for bad arguments, or "resource" for exhausted threads or processes.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fisura/status.h"

namespace fisura::cli
{

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitResource = 3;

/// A command's failure on its way to runCommandLine, which prints it and exits with `exitCode`.
class CommandError : public std::runtime_error
{
public:
    CommandError(std::string code, std::string detail, std::string what, int exitCode);
    const std::string& code() const { return code_; }
    const std::string& detail() const { return detail_; }
    /// The sentence for stderr: "<what>: <code>: <detail>".
    const std::string& message() const { return message_; }
    int exitCode() const { return exitCode_; }

private:
    std::string code_, detail_, message_;
    int exitCode_;
};

/// The exit code of a command that ended with `s`: 0, 1, 3 (out of memory) or, cancelled,
/// 128 + the signal that cancelled it (130 when none did).
int exitCodeFor(const Status& s);

/// Ends the command: `what` failed with `s` (message on stderr, JSON on stdout in JSON mode).
[[noreturn]] void fail(const Status& s, const std::string& what);
/// Ends the command with exit code 2: the arguments cannot work (detail says why).
[[noreturn]] void failUsage(const std::string& detail);
/// Ends the command with exit code 2 when an output is the same file as an input, whatever the
/// spelling (fisura::refuseOverwritingInputs): called before any work.
void refuseOverwriting(const std::vector<std::string>& outputs,
                       const std::vector<std::string>& inputs);
/// Ends a command whose failure has been reported already (per-scan failures): exit `code`.
[[noreturn]] void exitWith(int code);

/// JSON errors for the command that is running: `wanted` is asked when a failure is reported
/// (the --json flags register themselves; `train` always wants them).
void wantJsonErrorsWhen(std::function<bool()> wanted);
/// No JSON error from this process (the ranks of a job other than rank 0: one job, one answer).
void suppressJsonErrors();

/// Parses and runs the command line; never throws. Prints the help when no command is given.
int runCommandLine(CLI::App& app, int argc, char** argv);

} // namespace fisura::cli
