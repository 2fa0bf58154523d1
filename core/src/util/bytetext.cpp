// Byte strings in JSON; see fisura/bytetext.h.
#include "fisura/bytetext.h"

#include <cstdint>

namespace fisura
{

namespace
{

/// Length of the well-formed UTF-8 sequence at s[i] (1..4), or 0 when the byte there does not
/// start one (RFC 3629's table: no overlong forms, no surrogates, nothing past U+10FFFF).
size_t sequenceAt(std::string_view s, size_t i)
{
    const auto b = [&](size_t k) { return i + k < s.size() ? uint8_t(s[i + k]) : 0; };
    const auto cont = [](uint8_t c, uint8_t lo = 0x80, uint8_t hi = 0xBF) {
        return c >= lo && c <= hi;
    };
    const uint8_t c0 = b(0);
    if (c0 < 0x80)
        return 1;
    if (c0 >= 0xC2 && c0 <= 0xDF)
        return cont(b(1)) ? 2 : 0;
    if (c0 >= 0xE0 && c0 <= 0xEF) {
        const uint8_t lo = c0 == 0xE0 ? 0xA0 : 0x80, hi = c0 == 0xED ? 0x9F : 0xBF;
        return cont(b(1), lo, hi) && cont(b(2)) ? 3 : 0;
    }
    if (c0 >= 0xF0 && c0 <= 0xF4) {
        const uint8_t lo = c0 == 0xF0 ? 0x90 : 0x80, hi = c0 == 0xF4 ? 0x8F : 0xBF;
        return cont(b(1), lo, hi) && cont(b(2)) && cont(b(3)) ? 4 : 0;
    }
    return 0;
}

/// A well-formed U+EF80..U+EFFF (EE BE xx or EE BF xx) at s[i]: the characters that stand for
/// raw bytes.
bool escapeCharAt(std::string_view s, size_t i)
{
    return i + 2 < s.size() && uint8_t(s[i]) == 0xEE &&
           (uint8_t(s[i + 1]) == 0xBE || uint8_t(s[i + 1]) == 0xBF) && uint8_t(s[i + 2]) >= 0x80 &&
           uint8_t(s[i + 2]) <= 0xBF;
}

void appendEscaped(std::string& out, uint8_t byte)
{
    // U+EF00 + byte, byte >= 0x80: EE, then BE or BF, then 80..BF.
    out += char(0xEE);
    out += char(byte < 0xC0 ? 0xBE : 0xBF);
    out += char(0x80 | (byte & 0x3F));
}

} // namespace

bool isUtf8(std::string_view bytes)
{
    for (size_t i = 0; i < bytes.size();) {
        const size_t n = sequenceAt(bytes, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

bool needsUtf8Escape(std::string_view bytes)
{
    for (size_t i = 0; i < bytes.size();) {
        if (uint8_t(bytes[i]) < 0x80) {
            ++i;
            continue;
        }
        const size_t n = sequenceAt(bytes, i);
        if (n == 0 || escapeCharAt(bytes, i))
            return true;
        i += n;
    }
    return false;
}

bool hasEscapedBytes(std::string_view text)
{
    for (size_t i = 0; i + 2 < text.size(); ++i)
        if (escapeCharAt(text, i))
            return true;
    return false;
}

std::string bytesToUtf8(std::string_view bytes)
{
    if (!needsUtf8Escape(bytes))
        return std::string(bytes);
    std::string out;
    out.reserve(bytes.size() + bytes.size() / 2);
    for (size_t i = 0; i < bytes.size();) {
        const size_t n = sequenceAt(bytes, i);
        if (n == 0 || escapeCharAt(bytes, i)) {
            // A stray byte, or a literal escape character: each of its bytes stands alone.
            const size_t count = n == 0 ? 1 : n;
            for (size_t k = 0; k < count; ++k)
                appendEscaped(out, uint8_t(bytes[i + k]));
            i += count;
        } else {
            out.append(bytes.data() + i, n);
            i += n;
        }
    }
    return out;
}

std::string utf8ToBytes(std::string_view text)
{
    if (!hasEscapedBytes(text))
        return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        if (escapeCharAt(text, i)) {
            const uint8_t second = uint8_t(text[i + 1]), third = uint8_t(text[i + 2]);
            out += char((second == 0xBE ? 0x80 : 0xC0) | (third & 0x3F));
            i += 3;
        } else {
            out += text[i++];
        }
    }
    return out;
}

} // namespace fisura
