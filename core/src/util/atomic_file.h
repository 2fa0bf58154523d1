// Files appear whole or not at all: write a temporary next to the target, flush, fsync, rename.
#pragma once

#include <string>

#include "fisura/status.h"

namespace fisura
{

Status writeFileAtomic(const std::string& path, const std::string& bytes);

/// The temporary a write of `path` uses: ".<name>.tmp<pid>-<random>" beside it, so that a
/// temporary left by a killed process can be told from one still being written.
std::string temporaryPathFor(const std::string& path);

/// Removes temporaries of `path` left by processes that no longer run (kill -9, power loss):
/// ".<name>.tmp<pid>-*" (temporaryPathFor) and "<name>.part<pid>*" (the TIFF writers). Those of
/// running processes, this one included, are left alone. Every writer calls it before writing.
void removeStaleTemporaries(const std::string& path);

} // namespace fisura
