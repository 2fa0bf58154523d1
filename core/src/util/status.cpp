#include "fisura/status.h"

namespace fisura
{

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Ok:
        return "ok";
    case ErrorCode::InvalidArgument:
        return "invalid_argument";
    case ErrorCode::NotFound:
        return "not_found";
    case ErrorCode::IoError:
        return "io_error";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::Corrupt:
        return "corrupt";
    case ErrorCode::OutOfMemory:
        return "out_of_memory";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::DeviceError:
        return "device_error";
    case ErrorCode::TooLarge:
        return "too_large";
    case ErrorCode::NeedsConsent:
        return "needs_consent";
    case ErrorCode::AlignNotSameSurface:
        return "align_not_same_surface";
    case ErrorCode::AlignTooFewWindows:
        return "align_too_few_windows";
    case ErrorCode::AlignNoOverlap:
        return "align_no_overlap";
    case ErrorCode::AlignDegenerateModel:
        return "align_degenerate_model";
    case ErrorCode::AlignScanTooSmall:
        return "align_scan_too_small";
    case ErrorCode::MapSizeMismatch:
        return "map_size_mismatch";
    case ErrorCode::Internal:
        return "internal";
    }
    return "internal";
}

std::string Status::toString() const
{
    std::string s = errorCodeName(code_);
    if (!detail_.empty())
        s += ": " + detail_;
    return s;
}

} // namespace fisura
