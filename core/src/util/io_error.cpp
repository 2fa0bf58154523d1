#include "util/io_error.h"

#include <cerrno>
#include <filesystem>

#include <sys/statvfs.h>
#include <unistd.h>

namespace fisura
{

namespace
{
bool hasKind(const std::string& detail)
{
    return detail.rfind("disk_full: ", 0) == 0 || detail.rfind("read_only: ", 0) == 0;
}
} // namespace

std::string writeFailureKind(const std::string& path, int err)
{
    if (err == ENOSPC || err == EDQUOT)
        return "disk_full";
    if (err == EROFS || err == EACCES || err == EPERM)
        return "read_only";
    if (err != 0)
        return {};
    namespace fs = std::filesystem;
    const fs::path p(path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
    struct statvfs vfs {
    };
    if (::statvfs(dir.c_str(), &vfs) != 0)
        return {};
    if ((vfs.f_flag & ST_RDONLY) || ::access(dir.c_str(), W_OK) != 0)
        return "read_only";
    if (uint64_t(vfs.f_bavail) * vfs.f_frsize < 64 * 1024)
        return "disk_full";
    return {};
}

Status writeFailure(const std::string& path, int err, const std::string& what)
{
    const std::string kind = writeFailureKind(path, err);
    return Status(ErrorCode::IoError, kind.empty() ? what : kind + ": " + what);
}

Status classifyWriteFailure(const std::string& path, Status status)
{
    if (status.code() != ErrorCode::IoError || hasKind(status.detail()))
        return status;
    const std::string kind = writeFailureKind(path, 0);
    if (kind.empty())
        return status;
    return Status(ErrorCode::IoError, kind + ": " + status.detail());
}

} // namespace fisura
