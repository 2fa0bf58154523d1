// The language of fisura-cli's text output. `--lang es|en` chooses it; without the option it
// follows the environment as the GUI's "System" language does (LC_ALL, then LC_MESSAGES, then
// LANG: Spanish when it starts with "es", English otherwise). Numbers in Spanish text use the
// decimal comma ("0,2 mm"); CSV and JSON files stay C-locale whatever the language.
#pragma once

#include <string>

namespace fisura::cli
{

/// "es" or "en" from LC_ALL / LC_MESSAGES / LANG (the first one set and not empty).
std::string languageFromEnvironment();

/// `v` with `decimals` decimals in `lang`'s notation: "1234.5" (en), "1234,5" (es). No group
/// separators, so a Spanish "1.000" can never be read as one thousand or as one.
std::string formatNumber(double v, int decimals, const std::string& lang);

} // namespace fisura::cli
