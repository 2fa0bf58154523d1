// Options several fisura-cli commands share, declared once: --json, --quiet, --cpu, --model with
// its loading limits, and the validator every floating-point option uses. (The inference and
// training engine options come from their schema.)
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "fisura/model.h"

namespace fisura::cli
{

/// --json: print JSON instead of text; a failure then prints its JSON error on stdout too.
CLI::Option* addJsonFlag(CLI::App* cmd, bool& json,
                         const std::string& help = "Print JSON instead of text");
/// `--lang es|en` of a command that writes a summary and a PDF report (measure, compare); its
/// default is `lang`'s value (the environment's language).
CLI::Option* addReportLanguageOption(CLI::App* cmd, std::string& lang);
/// --quiet: no progress output.
CLI::Option* addQuietFlag(CLI::App* cmd, bool& quiet,
                          const std::string& help = "No progress output");
/// --cpu: use the CPU even when a GPU is usable.
CLI::Option* addCpuFlag(CLI::App* cmd, bool& cpu,
                        const std::string& help = "Use the CPU even when a GPU is usable");

/// --model (required unless the caller says otherwise, an existing file), --max-model-size and
/// --allow-torchscript: the options of every command that loads a model file (infer, propose, rank,
/// evaluate).
CLI::Option* addModelOptions(
    CLI::App* cmd, std::string& model, ModelLoadOptions& load,
    const std::string& help = "Fisura model, or TorchScript module with a JSON sidecar");
/// --max-model-size and --allow-torchscript alone (a command whose model is positional).
void addModelLoadOptions(CLI::App* cmd, ModelLoadOptions& load);

/// A floating-point value: finite (no NaN, no infinity) and within [min, max], checked on the
/// text before it is converted (CLI::Range lets NaN through: every comparison with NaN is
/// false).
class FiniteRange : public CLI::Validator
{
public:
    FiniteRange(double min, double max);
};

/// A finite value above 0 and at most `max` (a size, a rate).
class PositiveUpTo : public CLI::Validator
{
public:
    explicit PositiveUpTo(double max);
};

} // namespace fisura::cli
