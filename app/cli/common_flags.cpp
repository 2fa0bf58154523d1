// See common_flags.h.
#include "common_flags.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "command.h"

namespace fisura::cli
{

namespace
{

std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

/// Empty when `text` is a finite number inside the bounds; otherwise why not.
std::string checkNumber(const std::string& text, double min, double max, bool minOpen)
{
    const char* begin = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin || *end != '\0')
        return "not a number: " + text;
    if (!std::isfinite(v))
        return "must be a finite number, not " + text;
    if (minOpen ? !(v > min) : !(v >= min))
        return text + " is too small: it must be " + (minOpen ? "above " : "at least ") +
               number(min);
    if (!(v <= max))
        return text + " is too large: it must be at most " + number(max);
    return {};
}

} // namespace

CLI::Option* addJsonFlag(CLI::App* cmd, bool& json, const std::string& help)
{
    CLI::Option* o = cmd->add_flag("--json", json, help);
    wantJsonErrorsWhen([o] { return o->count() > 0; });
    return o;
}

CLI::Option* addReportLanguageOption(CLI::App* cmd, std::string& lang)
{
    return cmd
        ->add_option("--lang", lang,
                     "Language of the summary and the PDF report (default: from LC_ALL, "
                     "LC_MESSAGES or LANG); CSV and JSON always use a decimal point")
        ->capture_default_str()
        ->check(CLI::IsMember({"es", "en"}));
}

CLI::Option* addQuietFlag(CLI::App* cmd, bool& quiet, const std::string& help)
{
    return cmd->add_flag("--quiet", quiet, help);
}

CLI::Option* addCpuFlag(CLI::App* cmd, bool& cpu, const std::string& help)
{
    return cmd->add_flag("--cpu", cpu, help);
}

CLI::Option* addModelOptions(CLI::App* cmd, std::string& model, ModelLoadOptions& load,
                             const std::string& help)
{
    CLI::Option* o = cmd->add_option("--model", model, help)->required()->check(CLI::ExistingFile);
    addModelLoadOptions(cmd, load);
    return o;
}

void addModelLoadOptions(CLI::App* cmd, ModelLoadOptions& load)
{
    cmd->add_option("--max-model-size", load.maxBytes,
                    "Refuse model files larger than this, before reading them (bytes, or with a "
                    "unit: 512MiB, 80GiB)")
        ->transform(CLI::AsSizeValue(false))
        ->default_str("64GiB");
    cmd->add_flag("--allow-torchscript", load.allowTorchScript,
                  "Load a TorchScript module: it runs code stored in the file, so use it only "
                  "for files from someone you trust");
}

FiniteRange::FiniteRange(double min, double max)
{
    description("FLOAT in [" + number(min) + " - " + number(max) + "]");
    func_ = [min, max](std::string& text) { return checkNumber(text, min, max, false); };
}

PositiveUpTo::PositiveUpTo(double max)
{
    description("FLOAT in (0 - " + number(max) + "]");
    func_ = [max](std::string& text) { return checkNumber(text, 0.0, max, true); };
}

} // namespace fisura::cli
