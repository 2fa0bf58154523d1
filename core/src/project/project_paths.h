// Path rules of a project: absolute and lexically normal in memory; relative to the project folder
// ('/'-separated) on disk when inside it, absolute otherwise.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace fisura::project_detail
{

namespace fs = std::filesystem;

/// Absolute (against the working directory) and lexically normal, without a trailing '/'.
fs::path normalPath(const fs::path& p);
/// `p` relative to `dir` when it lies inside it ("models/a.fisura"), else empty.
fs::path insideOf(const fs::path& p, const fs::path& dir);

/// On-disk form of an in-memory path (empty stays empty).
std::string storedPath(const std::string& path, const fs::path& dir);
/// In-memory form of an on-disk path (empty stays empty).
std::string loadedPath(const std::string& stored, const fs::path& dir);

/// Applies `fn` to every path inside toJson(TrainOptions) text; returns the new text (the input
/// unchanged when it is not a JSON object).
std::string mapOptionPaths(const std::string& optionsJson,
                           const std::function<std::string(const std::string&)>& fn);

} // namespace fisura::project_detail
