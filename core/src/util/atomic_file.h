// Files appear whole or not at all: write a temporary next to the target, flush, fsync, rename.
#pragma once

#include <string>

#include "fisura/status.h"

namespace fisura
{

Status writeFileAtomic(const std::string& path, const std::string& bytes);

namespace testing
{
/// Make the next atomic write fail after `bytes` bytes reached the temporary file (-1 = off).
void failNextAtomicWriteAfter(long long bytes);
} // namespace testing

} // namespace fisura
