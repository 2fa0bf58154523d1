#include "gis/vector_files.h"

#include <algorithm>
#include <filesystem>

#include "util/atomic_file.h"

namespace fisura::gis
{

namespace fs = std::filesystem;

Result<StagingFolder> StagingFolder::create(const std::string& target)
{
    StagingFolder f;
    fs::path t(target);
    f.targetDir_ = t.has_parent_path() ? t.parent_path().string() : std::string(".");
    f.folder_ = temporaryPathFor(target);
    std::error_code ec;
    if (!fs::create_directory(f.folder_, ec) || ec)
        return Status(ErrorCode::IoError, "cannot write in " + f.targetDir_ + ": " +
                                              (ec ? ec.message() : std::string("folder exists")));
    return f;
}

StagingFolder::StagingFolder(StagingFolder&& o) noexcept
    : folder_(std::move(o.folder_)), targetDir_(std::move(o.targetDir_))
{
    o.folder_.clear();
}

StagingFolder::~StagingFolder()
{
    if (folder_.empty())
        return;
    std::error_code ec;
    fs::remove_all(folder_, ec);
}

std::string StagingFolder::staged(const std::string& fileName) const
{
    return (fs::path(folder_) / fs::path(fileName).filename()).string();
}

Result<std::vector<std::string>> StagingFolder::commit()
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder_, ec))
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<std::string> moved;
    for (const auto& f : files) {
        const fs::path to = fs::path(targetDir_) / f.filename();
        fs::rename(f, to, ec);
        if (ec) {
            const std::string why = ec.message();
            for (const auto& m : moved)
                fs::remove(m, ec);
            return Status(ErrorCode::IoError, "cannot move " + f.filename().string() + " to " +
                                                  targetDir_ + ": " + why);
        }
        moved.push_back(to.string());
    }
    return moved;
}

} // namespace fisura::gis
