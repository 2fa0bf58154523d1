// Write failures the user can act on: a full disk and a folder that cannot be written get a
// stable id at the start of the IoError detail ("disk_full: ...", "read_only: ..."), as the
// label tools do for their refusals, so the GUI can say what to do without a new ErrorCode.
#pragma once

#include <string>

#include "fisura/status.h"

namespace fisura
{

/// "disk_full" (ENOSPC, EDQUOT), "read_only" (EROFS, EACCES, EPERM) or "" for `err`. With
/// err == 0 (libtiff and LibTorch lose errno) the folder of `path` is looked at instead: a
/// read-only mount or a folder this process may not write is "read_only", a file system with
/// less than 64 KiB free is "disk_full".
std::string writeFailureKind(const std::string& path, int err);

/// IoError "<kind>: <what>" (or just `what` when the kind is unknown).
Status writeFailure(const std::string& path, int err, const std::string& what);

/// Re-label an IoError about writing `path` with the kind of failure, once (other codes, and
/// details that already carry a kind, are returned as they are).
Status classifyWriteFailure(const std::string& path, Status status);

} // namespace fisura
