#include "io/tiff_handle.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "io/tiff_tags.h"
#include "util/io_error.h"

namespace fisura::io
{

TiffHandle::~TiffHandle()
{
    if (tif_)
        TIFFClose(tif_);
}

int TiffHandle::onError(TIFF*, void* user, const char* module, const char* fmt, va_list ap)
{
    auto* self = static_cast<TiffHandle*>(user);
    char buf[1024];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    std::lock_guard<std::mutex> lock(self->mutex_);
    if (!self->lastError_.empty())
        self->lastError_ += "; ";
    if (module && *module) {
        self->lastError_ += module;
        self->lastError_ += ": ";
    }
    self->lastError_ += buf;
    return 1; // handled: keep it off stderr
}

int TiffHandle::onWarning(TIFF*, void*, const char*, const char*, va_list)
{
    return 1; // warnings (unknown tags, ...) are not the user's concern
}

TIFFOpenOptions* TiffHandle::options()
{
    registerExtraTags();
    TIFFOpenOptions* opts = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(opts, &TiffHandle::onError, this);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, &TiffHandle::onWarning, this);
    // A corrupt header must not make libtiff allocate gigabytes for one strip/tile table.
    TIFFOpenOptionsSetMaxSingleMemAlloc(opts, 512 * 1024 * 1024);
    return opts;
}

Status TiffHandle::open(std::unique_ptr<OutputFile> file, const char* mode)
{
    path_ = file->path();
    writing_ = true;
    output_ = std::move(file);
    TIFFOpenOptions* opts = options();
    tif_ = TIFFClientOpenExt(path_.c_str(), mode, output_.get(), &OutputFile::read,
                             &OutputFile::write, &OutputFile::seek, &OutputFile::close,
                             &OutputFile::size, &OutputFile::map, &OutputFile::unmap, opts);
    TIFFOpenOptionsFree(opts);
    if (!tif_)
        return error(ErrorCode::IoError, "cannot open");
    return Status::ok();
}

Status TiffHandle::open(const std::string& path, const char* mode)
{
    path_ = path;
    writing_ = mode[0] != 'r';
    TIFFOpenOptions* opts = options();
    tif_ = TIFFOpenExt(path.c_str(), mode, opts);
    TIFFOpenOptionsFree(opts);
    if (!tif_) {
        const bool reading = mode[0] == 'r';
        FILE* f = reading ? std::fopen(path.c_str(), "rb") : nullptr;
        if (reading && !f)
            return Status(ErrorCode::NotFound, path);
        if (f)
            std::fclose(f);
        return error(reading ? ErrorCode::Corrupt : ErrorCode::IoError, "cannot open");
    }
    return Status::ok();
}

Status TiffHandle::close()
{
    if (!tif_)
        return Status::ok();
    TIFFClose(tif_);
    tif_ = nullptr;
    const std::string err = takeError();
    // A failed system call libtiff did not report (closing the descriptor, say): the file may
    // be incomplete. (OutputFile keeps the first failure, whichever call it was.)
    if (output_ && output_->error() && err.empty())
        return writeFailure(path_, output_->error(),
                            path_ + ": not written completely (" + std::strerror(output_->error()) +
                                ")");
    if (!err.empty()) {
        const Status failed(ErrorCode::IoError, path_ + ": " + err);
        return writing_ ? classifyWriteFailure(path_, failed) : failed;
    }
    return Status::ok();
}

std::string TiffHandle::takeError()
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::string e;
    e.swap(lastError_);
    return e;
}

Status TiffHandle::error(ErrorCode code, const std::string& what)
{
    std::string detail = path_ + ": " + what;
    const std::string err = takeError();
    if (!err.empty())
        detail += " (" + err + ")";
    // libtiff keeps no errno: a full disk or a read-only folder is read from the folder itself,
    // unless the file's own procedures saw the failed call.
    if (writing_ && output_ && output_->error())
        return writeFailure(path_, output_->error(), detail);
    return writing_ ? classifyWriteFailure(path_, Status(code, detail)) : Status(code, detail);
}

} // namespace fisura::io
