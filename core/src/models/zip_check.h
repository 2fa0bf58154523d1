// The checksums of a model file's records. A .fisura model, a checkpoint and a TorchScript module
// are zip archives (LibTorch's caffe2::serialize format), whose every record carries a CRC-32 in
// the central directory. LibTorch's reader does not check them: eight bytes changed inside a
// weight record load as different weights without a word (LibTorch 1.13). verifyZipRecords reads
// every record once and compares.
//
// Plain C++ (zlib): the zip layout is PKWARE's APPNOTE.TXT (end of central directory, its ZIP64
// form, central directory and local headers; "stored" and "deflated" records).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "fisura/status.h"

namespace fisura::models
{

/// Reads `size` bytes at `offset` into `out`; returns the number of bytes read.
using ReadAt = std::function<size_t(uint64_t offset, void* out, size_t size)>;

/// Checks the zip archive of `fileSize` bytes that `read` gives: Corrupt (detail without the
/// file name) when it is not a zip, a record lies outside the file or overlaps another, or a
/// record's CRC-32 or size differs from its central directory entry; Unsupported for a
/// compression other than stored or deflated. Records that hold more bytes together than the
/// file are refused before any is read, so the work is bounded by the file's size.
Status verifyZipRecords(const ReadAt& read, uint64_t fileSize);

/// verifyZipRecords on the file at `path` (NotFound / IoError when it cannot be read; the detail
/// never names the file, the caller does).
Status verifyZipFile(const std::string& path);

/// verifyZipRecords on bytes in memory.
Status verifyZipBytes(const uint8_t* data, size_t size);

} // namespace fisura::models
