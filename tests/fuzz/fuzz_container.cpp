// Fuzz target: the zip container of a model file, checkpoint or TorchScript module as Fisura
// checks it before LibTorch reads a byte of it (models::verifyZipBytes: end of central directory
// and its ZIP64 form, central directory, local headers, every record's CRC-32, stored and
// deflated records). The pickle and weights inside are LibTorch's to read and are not built with
// clang here (see CMakeLists.txt).
#include "fuzz_entry.h"
#include "models/zip_check.h"

FISURA_FUZZ_TARGET(container)
{
    (void)fisura::models::verifyZipBytes(data, size);
    return 0;
}
