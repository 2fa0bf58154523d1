// RAII libtiff handle with per-handle error capture (libtiff >= 4.5 TIFFOpenExt), so errors
// become Status values with libtiff's own words instead of text on stderr.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <tiffio.h>

#include "fisura/status.h"
#include "io/output_file.h"

namespace fisura::io
{

class TiffHandle
{
public:
    TiffHandle() = default;
    ~TiffHandle();
    TiffHandle(const TiffHandle&) = delete;
    TiffHandle& operator=(const TiffHandle&) = delete;

    /// mode as TIFFOpen: "r", "w", "w8" (BigTIFF) ...
    Status open(const std::string& path, const char* mode);
    /// Writing (mode "w" or "w8") through `file`'s own procedures, which the handle then owns:
    /// the caller may also append to the file and place tiles (output()).
    Status open(std::unique_ptr<OutputFile> file, const char* mode);
    /// Close explicitly (a failed flush on write is reported here).
    Status close();

    TIFF* get() const { return tif_; }
    OutputFile* output() const { return output_.get(); }
    const std::string& path() const { return path_; }
    /// The last error libtiff reported on this handle ("" if none), cleared by takeError().
    std::string takeError();
    /// A Status of `code` that names the file, `what` and libtiff's own message.
    Status error(ErrorCode code, const std::string& what);

private:
    TIFFOpenOptions* options(); // error capture, allocation limit
    static int onError(TIFF*, void* user, const char* module, const char* fmt, va_list ap);
    static int onWarning(TIFF*, void* user, const char* module, const char* fmt, va_list ap);

    std::unique_ptr<OutputFile> output_; // libtiff's TIFFClose closes its descriptor
    TIFF* tif_ = nullptr;
    std::string path_;
    bool writing_ = false;
    std::mutex mutex_;
    std::string lastError_;
};

} // namespace fisura::io
