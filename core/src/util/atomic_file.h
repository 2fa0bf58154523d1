// Files appear whole or not at all: write a temporary next to the target, flush, fsync, rename.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "fisura/status.h"

namespace fisura
{

Status writeFileAtomic(const std::string& path, const std::string& bytes);

/// Takes the next piece of a file being written.
using ChunkSink = std::function<void(std::string_view bytes)>;
/// The same for a file produced piece by piece (`produce` calls `put` with each piece, in
/// order), so that a large file need not be held in memory whole. A failed write drops the
/// pieces after it and is reported once `produce` returns; nothing is left at `path` then.
Status writeFileAtomicStreamed(const std::string& path,
                               const std::function<void(const ChunkSink& put)>& produce);

/// The temporary a write of `path` uses: ".<name>.tmp<pid>-<random>" beside it, so that a
/// temporary left by a killed process can be told from one still being written.
std::string temporaryPathFor(const std::string& path);

/// Removes temporaries of `path` left by processes that no longer run (kill -9, power loss):
/// ".<name>.tmp<pid>-*" (temporaryPathFor) and "<name>.part<pid>*" (the TIFF writers). Those of
/// running processes, this one included, are left alone. Every writer calls it before writing.
void removeStaleTemporaries(const std::string& path);

} // namespace fisura
