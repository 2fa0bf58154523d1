// One line of text per item, whatever the item holds: how fisura-cli writes strings that come
// from files (manifest paths and messages) into text output and line lists (--redo-list).
#pragma once

#include <string>

namespace fisura::cli
{

/// The escaping rule: a backslash becomes "\\", a newline "\n", a carriage return "\r", a tab
/// "\t", and every other control character (bytes 0x01-0x1f and 0x7f) "\xHH" (two lower-case
/// hex digits). Everything else is kept as it is, so ordinary paths read unchanged and a line
/// never splits. Undo it with `printf '%b'` in a shell.
std::string escapeLine(const std::string& text);

} // namespace fisura::cli
