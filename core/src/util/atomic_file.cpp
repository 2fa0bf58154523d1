#include "util/atomic_file.h"

#include "fisura/testing.h"
#include "util/io_error.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <signal.h>

#include <fcntl.h>
#include <unistd.h>

namespace fisura
{

namespace
{
std::atomic<long long> g_failAfter{-1};

/// The pid in `name` after `prefix` (digits up to a non-digit), or -1.
long pidAfter(const std::string& name, const std::string& prefix)
{
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
        return -1;
    size_t i = prefix.size();
    long pid = 0;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && pid < 1L << 30)
        pid = pid * 10 + (name[i++] - '0');
    return i == prefix.size() ? -1 : pid;
}
} // namespace

std::string temporaryPathFor(const std::string& path)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::random_device rd;
    return (dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()) + "-" +
                   std::to_string(rd())))
        .string();
}

void removeStaleTemporaries(const std::string& path)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string name = target.filename().string();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string other = entry.path().filename().string();
        long pid = pidAfter(other, "." + name + ".tmp");
        if (pid < 0)
            pid = pidAfter(other, name + ".part");
        if (pid <= 0 || pid == long(::getpid()))
            continue;
        if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH) {
            std::error_code rec;
            fs::remove(entry.path(), rec);
        }
    }
}

void testing::failNextAtomicWriteAfter(long long bytes)
{
    g_failAfter.store(bytes);
}

Status writeFileAtomic(const std::string& path, const std::string& bytes)
{
    return writeFileAtomicStreamed(path, [&](const ChunkSink& put) { put(bytes); });
}

namespace
{
/// Writes what it is given to `fd` until the first error (then drops the rest), and at most
/// `limit` bytes in all (a full disk injected by testing::failNextAtomicWriteAfter).
struct FdSink {
    int fd;
    long long limit; // < 0: none
    unsigned long long written = 0;
    int err = 0;

    void put(std::string_view bytes)
    {
        size_t at = 0;
        while (!err && at < bytes.size()) {
            size_t n = bytes.size() - at;
            if (limit >= 0 && written + n > (unsigned long long)limit)
                n = size_t((unsigned long long)limit - written);
            if (n == 0) {
                err = ENOSPC; // injected: behave like a full disk
                break;
            }
            const ssize_t w = ::write(fd, bytes.data() + at, n);
            if (w < 0) {
                if (errno != EINTR)
                    err = errno;
                continue;
            }
            at += size_t(w);
            written += (unsigned long long)w;
        }
    }
};
} // namespace

Status writeFileAtomicStreamed(const std::string& path,
                               const std::function<void(const ChunkSink& put)>& produce)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    std::error_code ec;
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        return Status(ErrorCode::NotFound,
                      "no such folder: " + dir.string() + " (to write " + path + ")");
    removeStaleTemporaries(path);
    const std::string tmp = temporaryPathFor(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int err = errno;
        return writeFailure(
            path, err, "cannot create " + tmp + " to write " + path + ": " + std::strerror(err));
    }
    FdSink sink{fd, g_failAfter.exchange(-1)};
    // Pieces are gathered into writes of about 1 MB.
    std::string buffer;
    const ChunkSink put = [&](std::string_view bytes) {
        if (buffer.size() + bytes.size() > (1u << 20)) {
            sink.put(buffer);
            buffer.clear();
            if (bytes.size() > (1u << 20)) {
                sink.put(bytes);
                return;
            }
        }
        buffer.append(bytes);
    };
    try {
        produce(put);
    } catch (const std::bad_alloc&) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return Status(ErrorCode::OutOfMemory, "writing " + path);
    }
    sink.put(buffer);
    int err = sink.err;
    if (!err && ::fsync(fd) != 0)
        err = errno;
    if (::close(fd) != 0 && !err)
        err = errno;
    if (!err && std::rename(tmp.c_str(), path.c_str()) != 0)
        err = errno;
    if (err) {
        ::unlink(tmp.c_str());
        return writeFailure(path, err, "cannot write " + path + ": " + std::strerror(err));
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
