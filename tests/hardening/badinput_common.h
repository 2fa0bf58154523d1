// Helpers of the bad-input rows: bytes in and out, crafted TIFF headers, small valid files, a
// tmpfs output folder (full or read-only) and the checks that nothing saved was lost.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "badinput_rows.h"
#include "fisura/image.h"

namespace badinput
{

using Runner = std::function<Outcome(const std::string& scratch)>;
/// Rows by tag; each source file of rows adds its own (inputs, outputs).
void addInputRows(std::map<std::string, Runner>& out);
void addOutputRows(std::map<std::string, Runner>& out);

std::string join(const std::string& dir, const std::string& name);
void writeBytes(const std::string& path, const std::string& bytes);
std::string readBytes(const std::string& path);
/// A small gray/RGB pattern image.
fisura::Image pattern(int width, int height, int channels);
/// A valid TIFF / PNG / JPEG of `image` as bytes.
std::string tiffBytes(const fisura::Image& image, int tileSize = 0);
std::string encodedBytes(const fisura::Image& image, const char* format);
/// A classic little-endian TIFF whose only directory claims `width` x `height` px, 8-bit gray,
/// striped (one strip of `stripBytes`) or tiled (16 px tiles, one offset for all of them).
std::string absurdTiff(uint32_t width, uint32_t height, bool tiled, uint32_t stripBytes);
/// The decompression bomb of issue 33: `side` x `side` px of deflated 8-bit gray, one row per
/// strip, every strip pointing at the same 16 bytes (8 MB for a side of 10^6).
std::string bombTiff(uint32_t side);

/// "" when `path` still holds `bytes`, else what changed.
std::string sameBytes(const std::string& path, const std::string& bytes);
/// Files in `dir` (hidden ones too) that are not in `expected`: left-over temporaries.
std::string leftovers(const std::string& dir, const std::vector<std::string>& expected);

/// A tmpfs of `bytes` mounted at `dir` (created) for the life of the object; unmounted (lazily)
/// on destruction. error() says why it could not be mounted (not root, no mount namespace).
class Tmpfs
{
public:
    Tmpfs(const std::string& dir, uint64_t bytes);
    ~Tmpfs();
    const std::string& error() const { return error_; }
    /// Write a filler file until the file system is full.
    void fill();
    /// Remount read-only; "" or the reason it failed.
    std::string makeReadOnly();

private:
    std::string dir_;
    std::string error_;
    bool mounted_ = false;
};

} // namespace badinput
