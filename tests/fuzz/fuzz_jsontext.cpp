// Fuzz target: the one JSON reader every Fisura file goes through (util::parseJson: size and
// depth limits, names decoded by the rule of fisura/bytetext.h) and the name rule itself.
// Properties checked (abort on failure): any bytes survive bytesToUtf8 -> utf8ToBytes and come
// out as valid UTF-8; whatever parses is dumped by dumpJson and parses again to an equal value.
#include <cstdlib>
#include <string>

#include "fisura/bytetext.h"
#include "fuzz_entry.h"
#include "util/json_bounded.h"

FISURA_FUZZ_TARGET(jsontext)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const std::string text = fisura::bytesToUtf8(bytes);
    if (!fisura::isUtf8(text) || fisura::utf8ToBytes(text) != bytes)
        std::abort();
    if (fisura::needsUtf8Escape(bytes) != (text != bytes))
        std::abort();

    fisura::util::JsonLimits limits;
    limits.maxDepth = 16; // reached often by the fuzzer
    auto j = fisura::util::parseJson<nlohmann::json>(bytes, "fuzz", limits);
    if (j) {
        const std::string out = fisura::util::dumpJson(*j);
        auto again = fisura::util::parseJson<nlohmann::json>(out, "fuzz", limits);
        if (!again || *again != *j)
            std::abort();
    }
    // A JSON string holding the input as a name: written and read back losslessly.
    const nlohmann::json name{{"path", bytes}};
    auto back = fisura::util::parseJson<nlohmann::json>(fisura::util::dumpJson(name), "fuzz");
    if (!back || (*back)["path"].get<std::string>() != bytes)
        std::abort();
    return 0;
}
