// Every JSON text Fisura reads goes through parseJson, and everything it writes through dumpJson.
//
// parseJson refuses, before any value is built, text larger than a limit and arrays or objects
// nested deeper than a limit (nlohmann's parser itself is iterative, but copying, comparing and
// dumping a value recurse once per level: 80,000 levels overflowed the stack, and 50,000 levels
// written back with an indent of 2 made a 100 KB file 5 GB). Strings and keys come back as the
// bytes they stand for (fisura/bytetext.h); dumpJson writes them by the same rule, so a file name
// that is not UTF-8 never throws (nlohmann's type_error 316) and round-trips.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fisura/bytetext.h"
#include "fisura/status.h"

namespace fisura::util
{

/// Deeper than any file Fisura writes (a project's run policy is 5 levels) and shallow enough
/// that recursion over it is harmless.
constexpr int kJsonMaxDepth = 64;
/// Larger than any JSON Fisura writes: a manifest of 100,000 scans is about 40 MB.
constexpr uint64_t kJsonMaxBytes = 64ull << 20;

struct JsonLimits {
    int maxDepth = kJsonMaxDepth;
    uint64_t maxBytes = kJsonMaxBytes;
};

/// Checks `text` without building it (a SAX pass): Corrupt, naming `what`, for text that is not
/// JSON, larger than limits.maxBytes or nested deeper than limits.maxDepth. `escaped` is set when
/// a string or key holds a character that stands for a byte (bytetext.h).
Status checkJsonText(std::string_view text, const std::string& what, const JsonLimits& limits,
                     bool* escaped = nullptr);

/// The whole file at `path` as text, refused (TooLarge, unread) above `maxBytes`; NotFound or
/// IoError otherwise.
Result<std::string> readTextFile(const std::string& path, uint64_t maxBytes = kJsonMaxBytes);

/// Every string and key of `j` through utf8ToBytes.
template <class Json> void decodeStrings(Json& j)
{
    if (j.is_string()) {
        auto& s = j.template get_ref<typename Json::string_t&>();
        if (hasEscapedBytes(s))
            s = utf8ToBytes(s);
    } else if (j.is_array()) {
        for (auto& v : j)
            decodeStrings(v);
    } else if (j.is_object()) {
        Json out = Json::object();
        for (auto it = j.begin(); it != j.end(); ++it) {
            decodeStrings(it.value());
            out[utf8ToBytes(it.key())] = std::move(it.value());
        }
        j = std::move(out);
    }
}

/// True when a string or key of `j` needs bytesToUtf8 before dumping.
template <class Json> bool needsEncoding(const Json& j)
{
    if (j.is_string())
        return needsUtf8Escape(j.template get_ref<const typename Json::string_t&>());
    if (j.is_array()) {
        for (const auto& v : j)
            if (needsEncoding(v))
                return true;
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (needsUtf8Escape(it.key()) || needsEncoding(it.value()))
                return true;
    }
    return false;
}

/// A copy of `j` with every string and key through bytesToUtf8.
template <class Json> Json encodedCopy(const Json& j)
{
    if (j.is_string())
        return bytesToUtf8(j.template get_ref<const typename Json::string_t&>());
    if (j.is_array()) {
        Json out = Json::array();
        for (const auto& v : j)
            out.push_back(encodedCopy(v));
        return out;
    }
    if (j.is_object()) {
        Json out = Json::object();
        for (auto it = j.begin(); it != j.end(); ++it)
            out[bytesToUtf8(it.key())] = encodedCopy(it.value());
        return out;
    }
    return j;
}

/// `text` parsed within `limits` (see checkJsonText), strings decoded to bytes.
template <class Json = nlohmann::json>
Result<Json> parseJson(std::string_view text, const std::string& what,
                       const JsonLimits& limits = {})
{
    bool escaped = false;
    if (Status s = checkJsonText(text, what, limits, &escaped); !s)
        return s;
    Json j = Json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) // the check passed, so this does not happen
        return Status(ErrorCode::Corrupt, what + ": not JSON");
    if (escaped)
        decodeStrings(j);
    return j;
}

/// parseJson's value, or null when the text is refused (for callers with their own message).
template <class Json = nlohmann::json> Json parseJsonOrNull(std::string_view text)
{
    auto j = parseJson<Json>(text, {});
    return j ? std::move(*j) : Json();
}

/// `j` as text, strings and keys written by bytesToUtf8 (never throws for invalid UTF-8).
template <class Json> std::string dumpJson(const Json& j, int indent = -1)
{
    if (!needsEncoding(j))
        return j.dump(indent);
    return encodedCopy(j).dump(indent);
}

} // namespace fisura::util
