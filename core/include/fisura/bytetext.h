// File names in JSON, losslessly.
//
// Linux allows any bytes but '/' and NUL in a file name, so a name need not be UTF-8 (a scan
// copied from an old Windows share, "fisura\xff.tif"). JSON text must be UTF-8. Fisura writes
// every string into JSON by one rule and reads it back by its inverse, so every name round-trips:
//
//   - valid UTF-8 is written as it is, except the characters U+EF80..U+EFFF;
//   - a byte b that is not part of valid UTF-8 (always 0x80..0xFF) is written as the character
//     U+EF00 + b (byte FF becomes U+EFFF, in UTF-8 the bytes EE BF BF);
//   - each of the three bytes of a literal U+EF80..U+EFFF is written that way too, so that
//     reading maps every U+EF80..U+EFFF back to one byte without ambiguity.
//
// This is the mapping of MirBSD's OPTU-8 (used by mksh): private-use characters stand for raw
// bytes. Python's "surrogateescape" (U+DC80 + b) would need lone surrogates, which strict JSON
// parsers, nlohmann's among them, refuse; these characters are valid everywhere. To read a name
// back in another language, map each character U+EF80..U+EFFF to the byte (code point - 0xEF00)
// and every other character to its UTF-8 bytes.
#pragma once

#include <string>
#include <string_view>

namespace fisura
{

/// True when `bytes` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool isUtf8(std::string_view bytes);
/// `bytes` as valid UTF-8 by the rule above (the input itself when nothing needs escaping).
std::string bytesToUtf8(std::string_view bytes);
/// The inverse of bytesToUtf8: every U+EF80..U+EFFF becomes the byte it stands for.
std::string utf8ToBytes(std::string_view text);
/// True when bytesToUtf8(bytes) differs from `bytes` (cheap test before copying).
bool needsUtf8Escape(std::string_view bytes);
/// True when utf8ToBytes(text) differs from `text`.
bool hasEscapedBytes(std::string_view text);

} // namespace fisura
