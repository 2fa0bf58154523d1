// The file a TiledTiffWriter makes; see output_file.h.
#include "io/output_file.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util/io_error.h"

namespace fisura::io
{

namespace
{
OutputFile& self(thandle_t h)
{
    return *static_cast<OutputFile*>(h);
}
} // namespace

Result<std::unique_ptr<OutputFile>> OutputFile::create(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        const int err = errno;
        return writeFailure(path, err, path + ": cannot create (" + std::strerror(err) + ")");
    }
    std::unique_ptr<OutputFile> f(new OutputFile);
    f->fd_ = fd;
    f->path_ = path;
    return f;
}

OutputFile::~OutputFile()
{
    if (fd_ >= 0)
        ::close(fd_);
}

Status OutputFile::append(const std::vector<std::vector<uint8_t>>& blocks,
                          std::vector<uint64_t>& offsets)
{
    if (fd_ < 0)
        return Status(ErrorCode::Internal, path_ + ": closed");
    std::vector<iovec> iov;
    iov.reserve(std::min<size_t>(blocks.size(), IOV_MAX));
    size_t next = 0;
    while (next < blocks.size()) {
        iov.clear();
        uint64_t bytes = 0;
        for (size_t i = next; i < blocks.size() && iov.size() < IOV_MAX; ++i) {
            iov.push_back({const_cast<uint8_t*>(blocks[i].data()), blocks[i].size()});
            offsets.push_back(end_ + bytes);
            bytes += blocks[i].size();
        }
        next += iov.size();
        // pwritev may write less than asked (a signal, a full disk): go on where it stopped.
        size_t first = 0;
        while (first < iov.size()) {
            const ssize_t n =
                ::pwritev(fd_, iov.data() + first, int(iov.size() - first), off_t(end_));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                error_ = n < 0 ? errno : ENOSPC;
                return writeFailure(path_, error_,
                                    path_ + ": cannot write overview tiles (" +
                                        std::strerror(error_) + ")");
            }
            end_ += uint64_t(n);
            for (size_t left = size_t(n); left > 0;) {
                if (left >= iov[first].iov_len) {
                    left -= iov[first].iov_len;
                    ++first;
                } else {
                    iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + left;
                    iov[first].iov_len -= left;
                    left = 0;
                }
            }
        }
    }
    return Status::ok();
}

void OutputFile::placeNext(uint64_t offset, uint64_t size)
{
    placeAt_ = offset;
    placeSize_ = size;
    place_ = Place::Armed;
}

tmsize_t OutputFile::read(thandle_t h, void* buf, tmsize_t size)
{
    OutputFile& f = self(h);
    tmsize_t done = 0;
    while (done < size) {
        const ssize_t n =
            ::pread(f.fd_, static_cast<char*>(buf) + done, size_t(size - done), off_t(f.pos_));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            f.error_ = errno;
        if (n <= 0)
            break;
        done += n;
        f.pos_ += uint64_t(n);
    }
    return done;
}

tmsize_t OutputFile::write(thandle_t h, void* buf, tmsize_t size)
{
    OutputFile& f = self(h);
    if (f.place_ == Place::Sought) { // the placed tile: its bytes are already there
        f.place_ = size == tmsize_t(f.placeSize_) ? Place::Written : Place::Broken;
        if (f.place_ == Place::Broken)
            return -1;
        f.pos_ += uint64_t(size);
        return size;
    }
    if (f.place_ == Place::Armed)
        f.place_ = Place::Broken; // a write before the seek to the end: not the expected pattern
    tmsize_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(f.fd_, static_cast<const char*>(buf) + done, size_t(size - done),
                                   off_t(f.pos_));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            f.error_ = n < 0 ? errno : ENOSPC;
            break;
        }
        done += n;
        f.pos_ += uint64_t(n);
        f.end_ = std::max(f.end_, f.pos_);
    }
    return done;
}

toff_t OutputFile::seek(thandle_t h, toff_t offset, int whence)
{
    OutputFile& f = self(h);
    if (f.place_ == Place::Armed) {
        if (whence == SEEK_END && offset == 0) {
            f.place_ = Place::Sought;
            f.pos_ = f.placeAt_;
            return f.pos_;
        }
        f.place_ = Place::Broken;
    }
    switch (whence) {
    case SEEK_SET:
        f.pos_ = offset;
        break;
    case SEEK_CUR:
        f.pos_ += offset;
        break;
    case SEEK_END:
        f.pos_ = f.end_ + offset;
        break;
    default:
        return toff_t(-1);
    }
    return f.pos_;
}

int OutputFile::close(thandle_t h)
{
    OutputFile& f = self(h);
    if (f.fd_ < 0)
        return 0;
    const int r = ::close(f.fd_);
    f.fd_ = -1;
    if (r != 0 && !f.error_)
        f.error_ = errno;
    return r;
}

toff_t OutputFile::size(thandle_t h)
{
    return self(h).end_;
}

} // namespace fisura::io
