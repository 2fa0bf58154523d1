// The boundary every fisura-cli command passes through; see command.h.
#include "command.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_lang.h"
#include "fisura/change.h"
#include "fisura/paths.h"
#include "signals.h"

namespace fisura::cli
{

namespace
{

std::vector<std::function<bool()>>& jsonWishes()
{
    static std::vector<std::function<bool()>> wishes;
    return wishes;
}

bool g_jsonSuppressed = false;

bool jsonErrorsWanted()
{
    if (g_jsonSuppressed)
        return false;
    for (const auto& wanted : jsonWishes())
        if (wanted && wanted())
            return true;
    return false;
}

/// After a model was refused: how to proceed, when the user can do something about it.
void printModelLoadHint(const std::string& code)
{
    if (code == errorCodeName(ErrorCode::NeedsConsent))
        std::cerr << "fisura-cli: a TorchScript module runs code stored in the file. Load it "
                     "only if it comes from someone you trust, by adding --allow-torchscript\n";
    else if (code == errorCodeName(ErrorCode::TooLarge))
        std::cerr << "fisura-cli: if this is a model you trust, raise the limit with "
                     "--max-model-size (for example --max-model-size 100GiB)\n";
}

/// After two scans could not be aligned (or a map is not its scan's size): what that means, in
/// the output language.
void printAlignmentHint(const std::string& code)
{
    struct Hint {
        ErrorCode code;
        const char* en;
        const char* es;
    };
    static const Hint hints[] = {
        {ErrorCode::AlignNotSameSurface,
         "the scans do not seem to show the same surface: check --before and --after",
         "los escaneos no parecen mostrar la misma superficie: compruebe --before y --after"},
        {ErrorCode::AlignTooFewWindows,
         "the scans match roughly, but too few windows agree at full resolution (a blurred "
         "scan, or a surface that changed too much)",
         "los escaneos coinciden a grandes rasgos, pero a resolución completa coinciden "
         "demasiado pocas ventanas (un escaneo borroso o una superficie muy cambiada)"},
        {ErrorCode::AlignNoOverlap,
         "the later scan covers too little of the earlier one: choose scans of the same area",
         "el escaneo posterior cubre demasiado poco del anterior: elija escaneos de la misma "
         "zona"},
        {ErrorCode::AlignDegenerateModel,
         "the alignment has an implausible scale, shear or perspective: the scans are probably "
         "not of the same surface",
         "la alineación tiene una escala, cizalla o perspectiva inverosímil: probablemente los "
         "escaneos no son de la misma superficie"},
        {ErrorCode::AlignScanTooSmall, "alignment needs scans of at least %d px a side",
         "para alinear, los escaneos deben medir al menos %d px por lado"},
        {ErrorCode::MapSizeMismatch,
         "each map must be the crack map made from its scan (the same width and height)",
         "cada mapa debe ser el mapa de fisuras hecho de su escaneo (mismo ancho y alto)"},
    };
    for (const Hint& h : hints) {
        if (code != errorCodeName(h.code))
            continue;
        std::string text = outputLanguage() == "es" ? h.es : h.en;
        if (const size_t at = text.find("%d"); at != std::string::npos)
            text.replace(at, 2, std::to_string(kMinAlignSidePx));
        std::cerr << "fisura-cli: " << text << "\n";
        return;
    }
}

/// stderr always; stdout as {"error", "detail"} in JSON mode. Invalid UTF-8 in a detail (a
/// file name) is replaced rather than allowed to throw on the way out.
void report(const CommandError& e)
{
    std::cerr << "fisura-cli: " << e.message() << std::endl;
    printModelLoadHint(e.code());
    printAlignmentHint(e.code());
    if (!jsonErrorsWanted())
        return;
    const nlohmann::json j{{"error", e.code()}, {"detail", e.detail()}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

bool mentionsOutOfMemory(const std::string& what)
{
    for (const char* m : {"out of memory", "can't allocate memory", "cannot allocate memory",
                          "bad_alloc", "std::bad_alloc"})
        if (what.find(m) != std::string::npos)
            return true;
    return false;
}

/// What the exception being handled means for the user.
CommandError classifyCurrentException()
{
    const std::string what = "the command stopped";
    try {
        throw;
    } catch (const CommandError& e) {
        return e;
    } catch (const std::bad_alloc&) {
        return {errorCodeName(ErrorCode::OutOfMemory),
                "not enough memory (a memory limit, or other programs use it): close them, or "
                "use fewer threads or a smaller --tile / --batch",
                what, kExitResource};
    } catch (const std::system_error& e) {
        // Thread or process creation (EAGAIN), mmap of a stack (ENOMEM), too many open files.
        const int ev = e.code().value();
        const bool memory = e.code().category() == std::generic_category() && ev == ENOMEM;
        return {memory ? errorCodeName(ErrorCode::OutOfMemory) : "resource",
                std::string(e.what()) +
                    " (the system refused a thread, a file or memory: a limit such as ulimit, "
                    "or too many programs at once)",
                what, kExitResource};
    } catch (const std::exception& e) {
        if (mentionsOutOfMemory(e.what()))
            return {errorCodeName(ErrorCode::OutOfMemory), e.what(), what, kExitResource};
        return {errorCodeName(ErrorCode::Internal), e.what(), what, kExitFailed};
    } catch (...) {
        return {errorCodeName(ErrorCode::Internal), "an unknown exception", what, kExitFailed};
    }
}

/// An exception that escaped a worker thread (or any noexcept function) ends the process here
/// instead of in abort(): the same message and exit code as on the main thread.
[[noreturn]] void onTerminate()
{
    int code = kExitFailed;
    try {
        if (std::current_exception()) {
            const CommandError e = classifyCurrentException();
            code = e.exitCode();
            report(e);
        } else {
            std::fputs("fisura-cli: internal: terminated without an exception\n", stderr);
        }
    } catch (...) {
        std::fputs("fisura-cli: out_of_memory: not enough memory to report the error\n", stderr);
        code = kExitResource;
    }
    std::fflush(stdout);
    std::_Exit(code);
}

} // namespace

CommandError::CommandError(std::string code, std::string detail, std::string what, int exitCode)
    : std::runtime_error(code + ": " + detail), code_(std::move(code)), detail_(std::move(detail)),
      message_(what.empty() ? code_ + ": " + detail_ : what + ": " + code_ + ": " + detail_),
      exitCode_(exitCode)
{
}

int exitCodeFor(const Status& s)
{
    switch (s.code()) {
    case ErrorCode::Ok:
        return 0;
    case ErrorCode::Cancelled:
        return cancelledExitCode();
    case ErrorCode::OutOfMemory:
        return kExitResource;
    default:
        return kExitFailed;
    }
}

void fail(const Status& s, const std::string& what)
{
    throw CommandError(errorCodeName(s.code()), s.detail(), what, exitCodeFor(s));
}

void failUsage(const std::string& detail)
{
    throw CommandError(errorCodeName(ErrorCode::InvalidArgument), detail, {}, kExitUsage);
}

void refuseOverwriting(const std::vector<std::string>& outputs,
                       const std::vector<std::string>& inputs)
{
    if (Status s = refuseOverwritingInputs(outputs, inputs); !s)
        failUsage(s.detail());
}

void exitWith(int code)
{
    throw CLI::RuntimeError(code);
}

void wantJsonErrorsWhen(std::function<bool()> wanted)
{
    jsonWishes().push_back(std::move(wanted));
}

void suppressJsonErrors()
{
    g_jsonSuppressed = true;
}

int runCommandLine(CLI::App& app, int argc, char** argv)
{
    std::set_terminate(onTerminate);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e);
    } catch (const CLI::RuntimeError& e) { // a command's own exit code, its messages printed
        return e.get_exit_code();
    } catch (const CLI::ParseError& e) {
        app.exit(e); // CLI11's message and "Run with --help" on stderr
        if (jsonErrorsWanted())
            std::cout << nlohmann::json{{"error", errorCodeName(ErrorCode::InvalidArgument)},
                                        {"detail", e.what()}}
                             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                      << std::endl;
        return kExitUsage;
    } catch (...) {
        const CommandError e = classifyCurrentException();
        report(e);
        return e.exitCode();
    }
    if (app.get_subcommands().empty())
        std::cout << app.help();
    return 0;
}

} // namespace fisura::cli
