// The language of fisura-cli's text output. `--lang es|en` (before or after the command's name)
// chooses it; without the option it follows the environment as the GUI's "System" language does
// (LC_ALL, then LC_MESSAGES, then LANG: Spanish when it starts with "es", English otherwise).
// Numbers in Spanish text use the decimal comma ("0,2 mm", "3,49 MP/s"): the standard streams
// are given a comma numpunct and the printf-style lines go through num()/numg(). CSV and JSON
// (files, and JSON printed as text) stay C-locale whatever the language; so do values meant to be
// typed back on a command line ("--threshold 0.5").
#pragma once

#include <string>

namespace fisura::cli
{

/// "es" or "en" from LC_ALL / LC_MESSAGES / LANG (the first one set and not empty).
std::string languageFromEnvironment();

/// `v` with `decimals` decimals in `lang`'s notation: "1234.5" (en), "1234,5" (es). No group
/// separators, so a Spanish "1.000" can never be read as one thousand or as one.
std::string formatNumber(double v, int decimals, const std::string& lang);

/// The language of this process's text output ("en" until setOutputLanguage).
const std::string& outputLanguage();
/// Sets it and gives std::cout and std::cerr the matching decimal separator (no grouping).
void setOutputLanguage(const std::string& lang);

/// formatNumber in the output language.
std::string num(double v, int decimals);
/// `v` with `significant` significant digits (printf's %g) in the output language.
std::string numg(double v, int significant);

} // namespace fisura::cli
