#include "util/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace fisura
{

namespace
{
std::atomic<long long> g_failAfter{-1};
}

void testing::failNextAtomicWriteAfter(long long bytes)
{
    g_failAfter.store(bytes);
}

Status writeFileAtomic(const std::string& path, const std::string& bytes)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    std::error_code ec;
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        return Status(ErrorCode::NotFound, "no such folder: " + dir.string());
    std::random_device rd;
    const std::string tmp =
        (dir / ("." + target.filename().string() + ".tmp" + std::to_string(rd()))).string();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return Status(ErrorCode::IoError, "cannot create " + tmp + ": " + std::strerror(errno));
    const long long failAfter = g_failAfter.exchange(-1);
    size_t limit = bytes.size();
    if (failAfter >= 0)
        limit = std::min<size_t>(limit, size_t(failAfter));
    size_t written = 0;
    int err = 0;
    while (written < limit) {
        const ssize_t n = ::write(fd, bytes.data() + written, limit - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        written += size_t(n);
    }
    if (!err && failAfter >= 0 && written < bytes.size())
        err = ENOSPC; // injected: behave like a full disk
    if (!err && ::fsync(fd) != 0)
        err = errno;
    if (::close(fd) != 0 && !err)
        err = errno;
    if (!err && std::rename(tmp.c_str(), path.c_str()) != 0)
        err = errno;
    if (err) {
        ::unlink(tmp.c_str());
        return Status(ErrorCode::IoError, "cannot write " + path + ": " + std::strerror(err));
    }
    // Make the rename itself durable.
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return Status::ok();
}

} // namespace fisura
