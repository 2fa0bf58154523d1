#include "schema_options.h"

#include <cmath>
#include <cstdlib>
#include <locale>
#include <sstream>

namespace fisura::cli
{

namespace
{

/// The number `text` says, when it is one and nothing else (C locale, as CLI11 reads it).
bool readNumber(const std::string& text, double& out)
{
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    in >> out;
    if (in.fail()) { // istream does not read "nan" or "inf": strtod does
        char* end = nullptr;
        out = std::strtod(text.c_str(), &end);
        return !text.empty() && end && *end == '\0';
    }
    return in.eof() || (in >> std::ws).eof();
}

/// The range check: its description puts "[min - max]" into --help (as CLI::Range does), its
/// message names what is allowed. `zeroWord` was replaced by 0 before it runs.
CLI::Validator rangeCheck(const OptionDef& def, const std::string& zeroWord)
{
    const std::string kind = def.type == OptionType::Integer ? "INT" : "FLOAT";
    // "INT in [16 - 4096] px": the range as CLI::Range shows it, then the unit.
    const std::string range = "[" + optionNumberText(def, def.min) + " - " +
                              optionNumberText(def, def.max) + "]" +
                              (def.unit.empty() ? "" : " " + def.unit);
    const std::string allowed = (zeroWord.empty() ? "" : zeroWord + " or ") + optionRangeText(def);
    return CLI::Validator(
        [def, allowed](std::string& text) -> std::string {
            double v = 0;
            if (!readNumber(text, v))
                return "must be " + allowed + " (got \"" + text + "\")";
            if (!std::isfinite(v))
                return "must be a finite number, " + allowed + " (got " + text + ")";
            if (!def.allows(v))
                return "must be " + allowed + " (got " + text + ")";
            return {};
        },
        kind + " in " + range);
}

template <class T>
CLI::Option* addNumber(CLI::App* cmd, const OptionDef& def, T& value, const std::string& zeroWord,
                       const std::string& extra)
{
    auto* opt = cmd->add_option(def.cli, value, schemaHelp(def, extra));
    if (!zeroWord.empty()) {
        opt->transform(CLI::Validator(
            [zeroWord](std::string& text) {
                if (text == zeroWord)
                    text = "0";
                return std::string();
            },
            ""));
    }
    opt->check(rangeCheck(def, zeroWord));
    if (!zeroWord.empty() && value == T(0))
        opt->default_str(zeroWord);
    else
        opt->capture_default_str();
    return opt;
}

} // namespace

std::string schemaHelp(const OptionDef& def, const std::string& extra)
{
    std::string help = def.help; // the unit is shown with the range
    if (def.type == OptionType::Boolean && def.cliClears)
        help += " (on by default; this flag turns it off)";
    if (!extra.empty())
        help += "; " + extra;
    return help;
}

CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, int& value,
                             const std::string& zeroWord, const std::string& extra)
{
    return addNumber(cmd, def, value, zeroWord, extra);
}

CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, int64_t& value,
                             const std::string& extra)
{
    return addNumber(cmd, def, value, {}, extra);
}

CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, uint64_t& value,
                             const std::string& extra)
{
    return addNumber(cmd, def, value, {}, extra);
}

CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, double& value,
                             const std::string& extra)
{
    return addNumber(cmd, def, value, {}, extra);
}

CLI::Option* addSchemaOption(CLI::App* cmd, const OptionDef& def, std::string& value,
                             const std::string& extra)
{
    return cmd->add_option(def.cli, value, schemaHelp(def, extra));
}

CLI::Option* addSchemaTextChoice(CLI::App* cmd, const OptionDef& def, std::string& value,
                                 const std::string& extra)
{
    return cmd->add_option(def.cli, value, schemaHelp(def, extra))
        ->check(CLI::IsMember(def.choices))
        ->default_str(def.defaultText);
}

CLI::Option* addSchemaList(CLI::App* cmd, const OptionDef& def, std::vector<double>& value,
                           int count, const std::string& extra)
{
    std::string defaults;
    for (double v : def.defaultNumbers)
        defaults += (defaults.empty() ? "" : " ") + optionNumberText(def, v);
    return cmd->add_option(def.cli, value, schemaHelp(def, extra))
        ->expected(count)
        ->check(rangeCheck(def, {}))
        ->default_str(defaults);
}

CLI::Option* addSchemaFlag(CLI::App* cmd, const OptionDef& def, bool& value,
                           const std::string& extra)
{
    const bool clears = def.cliClears;
    return cmd->add_flag_callback(
        def.cli, [&value, clears] { value = !clears; }, schemaHelp(def, extra));
}

} // namespace fisura::cli
