// What a user should know about an input image before trusting the output: a multi-page TIFF
// is read for its first page only, and NaN or infinite values of a float scan become 0 or 255.
#pragma once

#include <string>
#include <vector>

namespace fisura::cli
{

/// The notices for the image at `path` (none for a file that is not a TIFF or does not open:
/// the command's own read reports that).
std::vector<std::string> inputNotices(const std::string& path);

/// Prints inputNotices(path) on stderr, one "notice: ..." line each.
void printInputNotices(const std::string& path);

} // namespace fisura::cli
