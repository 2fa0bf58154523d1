// Errors as values at the facade: every fallible core call returns Status or Result<T>.
// The UI maps ErrorCode to a translated sentence and shows detail (file names, numbers) verbatim.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace fisura
{

enum class ErrorCode {
    Ok = 0,
    InvalidArgument, ///< a parameter is out of range or malformed
    NotFound,        ///< a file or folder does not exist
    IoError,         ///< reading or writing failed (permissions, disk full, ...)
    Unsupported,     ///< the input is valid but Fisura cannot handle this variant
    Corrupt,         ///< the input is damaged or not what its name says
    OutOfMemory,     ///< host or device memory was exhausted
    Cancelled,       ///< the user cancelled the job
    DeviceError,     ///< the GPU or LibTorch reported an error
    TooLarge,        ///< a file is larger than the limit for its kind (nothing of it was read)
    NeedsConsent,    ///< the file runs code stored in it; it loads only when the user agrees
    MapSizeMismatch, ///< a crack map is not the size of its scan (or of the grid it must be on)
    // Why two scans could not be aligned (fisura/change.h); the detail gives the numbers.
    AlignNotSameSurface,  ///< too few features of the two scans match: not the same surface
    AlignTooFewWindows,   ///< the scans match coarsely, too few full-resolution windows agree
    AlignNoOverlap,       ///< the later scan covers too little of the earlier one
    AlignDegenerateModel, ///< the fitted scale, shear or perspective is no plausible change of view
    AlignScanTooSmall,    ///< a scan is smaller than alignment needs (kMinAlignSidePx a side)
    Internal,             ///< a bug: an invariant did not hold
};

/// Stable machine-readable name of a code ("not_found", ...), used in JSON output.
const char* errorCodeName(ErrorCode code);

class Status
{
public:
    Status() = default;
    Status(ErrorCode code, std::string detail) : code_(code), detail_(std::move(detail)) {}

    static Status ok() { return {}; }

    bool isOk() const { return code_ == ErrorCode::Ok; }
    explicit operator bool() const { return isOk(); }
    ErrorCode code() const { return code_; }
    /// Untranslated context for the message: a path, a size, LibTorch's own words.
    const std::string& detail() const { return detail_; }
    /// "not_found: /path/x.tif" — for logs and the CLI, never for GUI text.
    std::string toString() const;

private:
    ErrorCode code_ = ErrorCode::Ok;
    std::string detail_;
};

/// A value or the Status explaining why there is none.
template <class T> class Result
{
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Status error) : error_(std::move(error))
    {
        if (error_.isOk())
            error_ = Status(ErrorCode::Internal, "Result constructed from an ok Status");
    }
    Result(ErrorCode code, std::string detail) : Result(Status(code, std::move(detail))) {}

    bool isOk() const { return value_.has_value(); }
    explicit operator bool() const { return isOk(); }
    const Status& status() const { return error_; }

    T& value() & { return *value_; }
    const T& value() const& { return *value_; }
    T&& value() && { return std::move(*value_); }
    T& operator*() & { return *value_; }
    const T& operator*() const& { return *value_; }
    T* operator->() { return &*value_; }
    const T* operator->() const { return &*value_; }

private:
    std::optional<T> value_;
    Status error_;
};

} // namespace fisura
