// Command-line options declared from the option schema (fisura/options.h): the flag, the help
// (with unit and default), the range check and its "[min - max]" in --help all come from one
// definition, so fisura-cli cannot drift from the GUI and the JSON reader. Values outside the
// range, NaN and infinities are refused while parsing.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fisura/options.h"

namespace fisura::cli
{

/// The help line of `def`: its help, unit and `extra` (what this command adds, e.g. "required").
std::string schemaHelp(const OptionDef& def, const std::string& extra = {});

/// A numeric option bound to the options struct's field. `zeroWord` ("auto", "all") is also
/// accepted for 0 and shown as the default when the default is 0.
CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, int& value,
                             const std::string& zeroWord = {}, const std::string& extra = {});
CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, int64_t& value,
                             const std::string& extra = {});
CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, uint64_t& value,
                             const std::string& extra = {});
CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, double& value,
                             const std::string& extra = {});
/// A text or path option.
CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, std::string& value,
                             const std::string& extra = {});
/// A text option that is one of def.choices (checked while parsing).
CLI::Option* addSchemaTextChoice(CLI::App* cmd, const OptionDef& def, std::string& value,
                                 const std::string& extra = {});
/// A list of `count` numbers (List options), each in the schema's range.
CLI::Option* addSchemaList(CLI::App* cmd, const OptionDef& def, std::vector<double>& value,
                           int count, const std::string& extra = {});
/// A boolean option as a flag: it sets the option, or clears it for "--no-..." style flags
/// (OptionDef::cliClears).
CLI::Option* addSchemaFlag(CLI::App* cmd, const OptionDef& def, bool& value,
                           const std::string& extra = {});

/// A choice option bound to an enum field: one of def.choices, which name the enum's values
/// 0, 1, ... in order (`name` proves it when the option is declared).
template <class E>
CLI::Option* addSchemaChoice(CLI::App* cmd, const OptionDef& def, E& value, const char* (*name)(E),
                             const std::string& extra = {})
{
    for (size_t i = 0; i < def.choices.size(); ++i)
        if (def.choices[i] != name(E(i)))
            throw std::logic_error(def.key + ": the schema's choices are not the enum's order");
    auto* opt = cmd->add_option_function<std::string>(
        def.cli,
        [&value, def](const std::string& text) {
            for (size_t i = 0; i < def.choices.size(); ++i)
                if (def.choices[i] == text)
                    value = E(i);
        },
        schemaHelp(def, extra));
    opt->check(CLI::IsMember(def.choices))->default_str(def.defaultText);
    return opt;
}

} // namespace fisura::cli
