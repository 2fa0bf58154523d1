#include "cli_lang.h"

#include <cstdio>
#include <cstdlib>

namespace fisura::cli
{

std::string languageFromEnvironment()
{
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* v = std::getenv(name);
        if (v && *v)
            return std::string(v).rfind("es", 0) == 0 ? "es" : "en";
    }
    return "en";
}

std::string formatNumber(double v, int decimals, const std::string& lang)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v); // fisura-cli keeps the C locale
    std::string s = buf;
    if (lang == "es")
        if (const size_t dot = s.find('.'); dot != std::string::npos)
            s[dot] = ',';
    return s;
}

} // namespace fisura::cli
