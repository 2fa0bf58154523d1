// sameFile / refuseOverwritingInputs: see fisura/paths.h.
#include "fisura/paths.h"

#include <sys/stat.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

fs::path canonicalPath(const std::string& p)
{
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec);
    if (ec)
        return fs::path(p).lexically_normal();
    const fs::path c = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : c.lexically_normal();
}

} // namespace

bool sameFile(const std::string& a, const std::string& b)
{
    if (a.empty() || b.empty())
        return false;
    struct stat sa {
    }, sb{};
    // stat() follows symbolic links: a link to the input and a hard link both give its inode.
    if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return canonicalPath(a) == canonicalPath(b);
}

bool isInsideFolder(const std::string& path, const std::string& folder)
{
    if (path.empty() || folder.empty())
        return false;
    const fs::path p = canonicalPath(path), f = canonicalPath(folder);
    auto pi = p.begin();
    for (auto fi = f.begin(); fi != f.end(); ++fi, ++pi) {
        if (fi->empty()) // a trailing separator
            continue;
        if (pi == p.end() || *pi != *fi)
            return false;
    }
    return pi != p.end();
}

Status refuseOverwritingInputs(const std::vector<std::string>& outputs,
                               const std::vector<std::string>& inputs)
{
    for (const auto& out : outputs)
        for (const auto& in : inputs)
            if (sameFile(out, in))
                return Status(ErrorCode::InvalidArgument,
                              "the output " + out + " is the input " + in +
                                  ": writing it would destroy what is being read (choose "
                                  "another output)");
    return Status::ok();
}

} // namespace fisura
