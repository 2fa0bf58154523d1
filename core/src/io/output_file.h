// The file a TiledTiffWriter makes (internal): libtiff writes level 0 and every directory through
// these procedures (TIFFClientOpenExt), while the writer appends the overviews' compressed tiles
// to the same file as soon as they are made, so that nothing is left to copy when the last row
// comes in.
//
// At the end libtiff still has to learn where those tiles are. For a tile it has not written yet,
// TIFFWriteRawTile seeks to the end of the file and writes the tile there (TIFFAppendToStrip,
// libtiff's tif_write.c); placeNext() makes that seek answer the tile's offset and that write a
// no-op, so libtiff records the offset and size and writes no byte. placementTaken() says
// whether libtiff did exactly that; the writer fails the file rather than trust it otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tiffio.h>

#include "fisura/status.h"

namespace fisura::io
{

class OutputFile
{
public:
    /// Creates (or truncates) `path` for reading and writing.
    static Result<std::unique_ptr<OutputFile>> create(const std::string& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// Appends `blocks` at the end of the file, one after the other, in as few system calls as
    /// the kernel allows; the offset of each goes to `offsets` (appended).
    Status append(const std::vector<std::vector<uint8_t>>& blocks, std::vector<uint64_t>& offsets);

    /// The next tile libtiff appends is `size` bytes already at `offset`.
    void placeNext(uint64_t offset, uint64_t size);
    /// Whether libtiff took the last placement as planned: one seek to the end, then one write
    /// of exactly that size, nothing in between.
    bool placementTaken() const { return place_ == Place::Written; }

    /// The first failed system call's errno (0 if none), e.g. after libtiff reported a failure.
    int error() const { return error_; }
    const std::string& path() const { return path_; }

    /// For TIFFClientOpenExt, with this object as the client data. close() closes the file
    /// descriptor; map() maps nothing (libtiff then reads through read()).
    static tmsize_t read(thandle_t self, void* buf, tmsize_t size);
    static tmsize_t write(thandle_t self, void* buf, tmsize_t size);
    static toff_t seek(thandle_t self, toff_t offset, int whence);
    static int close(thandle_t self);
    static toff_t size(thandle_t self);
    static int map(thandle_t, void**, toff_t*) { return 0; }
    static void unmap(thandle_t, void*, toff_t) {}

private:
    OutputFile() = default;
    enum class Place { None, Armed, Sought, Written, Broken };

    int fd_ = -1;
    std::string path_;
    uint64_t pos_ = 0; // libtiff's position
    uint64_t end_ = 0; // the file's size: every write ends at or before it, or extends it
    Place place_ = Place::None;
    uint64_t placeAt_ = 0, placeSize_ = 0;
    int error_ = 0;
};

} // namespace fisura::io
