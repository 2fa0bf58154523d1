#include "cli_lang.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <locale>

namespace fisura::cli
{

namespace
{

std::string& language()
{
    static std::string lang = "en";
    return lang;
}

/// A decimal comma and no thousands grouping, so integers print as they do in the C locale.
struct DecimalComma final : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    std::string do_grouping() const override { return {}; }
};

std::string commaIfSpanish(std::string s)
{
    if (language() == "es")
        if (const size_t dot = s.find('.'); dot != std::string::npos)
            s[dot] = ',';
    return s;
}

} // namespace

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

const std::string& outputLanguage()
{
    return language();
}

void setOutputLanguage(const std::string& lang)
{
    language() = lang == "es" ? "es" : "en";
    const std::locale loc = language() == "es"
                                ? std::locale(std::locale::classic(), new DecimalComma)
                                : std::locale::classic();
    std::cout.imbue(loc);
    std::cerr.imbue(loc);
}

std::string num(double v, int decimals)
{
    return formatNumber(v, decimals, language());
}

std::string numg(double v, int significant)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", significant, v);
    return commaIfSpanish(buf);
}

} // namespace fisura::cli
