// Outputs never eat inputs: the one check every command (and the GUI's Analyze) makes before it
// writes, whatever the path spelling: symbolic links, "..", "./", a second hard link.
#pragma once

#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura
{

/// True when `a` and `b` name the same file: the same device and inode where both exist (so
/// hard links and symbolic links match), otherwise the same canonical absolute path (links of
/// the existing part resolved, "." and ".." removed). Empty paths never match.
bool sameFile(const std::string& a, const std::string& b);

/// True when `path` lies inside `folder` (at any depth, after both are made canonical as in
/// sameFile); a folder is not inside itself.
bool isInsideFolder(const std::string& path, const std::string& folder);

/// InvalidArgument naming both paths when any output is the same file as any input (sameFile),
/// checked before any work so that nothing is read, computed or written in vain. Empty entries
/// (options not given) are skipped. A file that is read and then deliberately rewritten (a
/// manifest, a checkpoint being resumed, project.json) is not an input of this check.
Status refuseOverwritingInputs(const std::vector<std::string>& outputs,
                               const std::vector<std::string>& inputs);

} // namespace fisura
