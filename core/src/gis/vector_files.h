// Vector datasets appear whole or not at all: GDAL writes them (a Shapefile is several files)
// into a temporary folder beside the target, and the files move into place at the end.
#pragma once

#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura::gis
{

class StagingFolder
{
public:
    /// A new temporary folder beside `target`; IoError when the folder cannot be written.
    static Result<StagingFolder> create(const std::string& target);
    StagingFolder(StagingFolder&& o) noexcept;
    StagingFolder& operator=(StagingFolder&&) = delete;
    ~StagingFolder(); ///< removes the folder and whatever is left in it

    /// Where a file named like `target` (or a sibling of it) is written in the folder.
    std::string staged(const std::string& fileName) const;
    /// Moves every file of the folder beside the target (same names). On failure the files moved
    /// so far are removed again and IoError is returned.
    Result<std::vector<std::string>> commit();

private:
    StagingFolder() = default;
    std::string folder_, targetDir_;
};

} // namespace fisura::gis
