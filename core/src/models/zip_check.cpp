// Checking every record of a zip archive against its CRC-32; see zip_check.h.
#include "models/zip_check.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

namespace fisura::models
{

namespace
{

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50, kLocator64Sig = 0x07064b50;
constexpr size_t kChunk = 1 << 20;

uint16_t le16(const uint8_t* p)
{
    return uint16_t(p[0] | p[1] << 8);
}
uint32_t le32(const uint8_t* p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t le64(const uint8_t* p)
{
    return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32;
}

Status corrupt(const std::string& why)
{
    return Status(ErrorCode::Corrupt, why);
}

/// One central directory entry, sizes and offset already widened by its ZIP64 extra field.
struct Entry {
    std::string name;
    uint16_t method = 0;
    uint32_t crc = 0;
    uint64_t packed = 0, size = 0, local = 0;
    uint64_t data = 0; ///< where the record's bytes start (after its local header)
};

struct Directory {
    uint64_t offset = 0, size = 0, entries = 0;
};

class Archive
{
public:
    Archive(const ReadAt& read, uint64_t fileSize) : read_(read), fileSize_(fileSize) {}

    bool readExact(uint64_t offset, void* out, size_t n) const
    {
        return offset <= fileSize_ && n <= fileSize_ - offset && read_(offset, out, n) == n;
    }

    Status findDirectory(Directory& dir) const;
    Status readEntries(const Directory& dir, std::vector<Entry>& out) const;
    Status locateData(Entry& e) const;
    Status checkRecord(const Entry& e) const;

private:
    Status checkStored(const Entry& e, uint32_t& crc) const;
    Status checkDeflated(const Entry& e, uint32_t& crc, uint64_t& size) const;

    const ReadAt& read_;
    uint64_t fileSize_;
};

/// The end-of-central-directory record (the last one in the file's final 64 KiB + 22 bytes),
/// and its ZIP64 form when the classic one points there.
Status Archive::findDirectory(Directory& dir) const
{
    const uint64_t tail = std::min<uint64_t>(fileSize_, 65535 + 22);
    std::vector<uint8_t> buf(static_cast<size_t>(tail));
    if (tail < 22 || !readExact(fileSize_ - tail, buf.data(), buf.size()))
        return corrupt("not a zip archive (too short)");
    size_t at = std::string::npos;
    for (size_t i = buf.size() - 22 + 1; i-- > 0;)
        if (le32(&buf[i]) == kEndSig) {
            at = i;
            break;
        }
    if (at == std::string::npos)
        return corrupt("not a zip archive (no end of central directory)");
    const uint8_t* e = &buf[at];
    dir.entries = le16(e + 10);
    dir.size = le32(e + 12);
    dir.offset = le32(e + 16);
    const uint64_t endOffset = fileSize_ - tail + at;
    if (dir.entries == 0xFFFF || dir.size == 0xFFFFFFFF || dir.offset == 0xFFFFFFFF) {
        uint8_t loc[20], e64[56];
        if (endOffset < 20 || !readExact(endOffset - 20, loc, 20) || le32(loc) != kLocator64Sig)
            return corrupt("zip64 archive without its locator");
        if (!readExact(le64(loc + 8), e64, 56) || le32(e64) != kEnd64Sig)
            return corrupt("zip64 end of central directory missing");
        dir.entries = le64(e64 + 32);
        dir.size = le64(e64 + 40);
        dir.offset = le64(e64 + 48);
    }
    if (dir.offset > fileSize_ || dir.size > fileSize_ - dir.offset)
        return corrupt("the central directory lies outside the file");
    if (dir.entries > dir.size / 46) // every entry has at least 46 bytes
        return corrupt("the central directory claims more records than it can hold");
    return Status::ok();
}

/// Widen 0xFFFFFFFF fields from the ZIP64 extended information extra field (id 1).
bool applyZip64(const uint8_t* extra, size_t n, Entry& e, bool wideSize, bool widePacked,
                bool wideLocal)
{
    for (size_t i = 0; i + 4 <= n;) {
        const uint16_t id = le16(extra + i), len = le16(extra + i + 2);
        if (i + 4 + len > n)
            return false;
        if (id == 1) {
            size_t k = i + 4;
            const auto take = [&](uint64_t& v) {
                if (k + 8 > i + 4 + len)
                    return false;
                v = le64(extra + k);
                k += 8;
                return true;
            };
            return (!wideSize || take(e.size)) && (!widePacked || take(e.packed)) &&
                   (!wideLocal || take(e.local));
        }
        i += 4 + size_t(len);
    }
    return !wideSize && !widePacked && !wideLocal;
}

Status Archive::readEntries(const Directory& dir, std::vector<Entry>& out) const
{
    std::vector<uint8_t> cd(size_t(dir.size));
    if (!readExact(dir.offset, cd.data(), cd.size()))
        return corrupt("cannot read the central directory");
    size_t pos = 0;
    for (uint64_t n = 0; n < dir.entries; ++n) {
        if (pos + 46 > cd.size() || le32(&cd[pos]) != kCentralSig)
            return corrupt("central directory entry " + std::to_string(n) + " is damaged");
        const uint8_t* h = &cd[pos];
        const size_t nameLen = le16(h + 28), extraLen = le16(h + 30), commentLen = le16(h + 32);
        if (pos + 46 + nameLen + extraLen + commentLen > cd.size())
            return corrupt("central directory entry " + std::to_string(n) + " is cut short");
        Entry e;
        e.name.assign(reinterpret_cast<const char*>(h + 46), nameLen);
        e.method = le16(h + 10);
        e.crc = le32(h + 16);
        e.packed = le32(h + 20);
        e.size = le32(h + 24);
        e.local = le32(h + 42);
        if (le16(h + 6) & 1)
            return Status(ErrorCode::Unsupported, "record " + e.name + " is encrypted");
        if (!applyZip64(h + 46 + nameLen, extraLen, e, e.size == 0xFFFFFFFF, e.packed == 0xFFFFFFFF,
                        e.local == 0xFFFFFFFF))
            return corrupt("record " + e.name + ": damaged zip64 sizes");
        out.push_back(std::move(e));
        pos += 46 + nameLen + extraLen + commentLen;
    }
    return Status::ok();
}

Status Archive::locateData(Entry& e) const
{
    uint8_t h[30];
    if (!readExact(e.local, h, 30) || le32(h) != kLocalSig)
        return corrupt("record " + e.name + ": its local header is missing");
    e.data = e.local + 30 + le16(h + 26) + le16(h + 28);
    if (e.data > fileSize_ || e.packed > fileSize_ - e.data)
        return corrupt("record " + e.name + " extends past the end of the file");
    return Status::ok();
}

Status Archive::checkStored(const Entry& e, uint32_t& crc) const
{
    std::vector<uint8_t> buf(size_t(std::min<uint64_t>(kChunk, e.packed)));
    crc = uint32_t(crc32(0L, Z_NULL, 0));
    for (uint64_t done = 0; done < e.packed;) {
        const size_t n = size_t(std::min<uint64_t>(buf.size(), e.packed - done));
        if (!readExact(e.data + done, buf.data(), n))
            return corrupt("record " + e.name + " cannot be read");
        crc = uint32_t(crc32(crc, buf.data(), uInt(n)));
        done += n;
    }
    return Status::ok();
}

Status Archive::checkDeflated(const Entry& e, uint32_t& crc, uint64_t& size) const
{
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
        return Status(ErrorCode::OutOfMemory, "cannot start zlib");
    std::vector<uint8_t> in(size_t(std::min<uint64_t>(kChunk, std::max<uint64_t>(e.packed, 1)))),
        out(kChunk);
    crc = uint32_t(crc32(0L, Z_NULL, 0));
    size = 0;
    int rc = Z_OK;
    for (uint64_t done = 0; rc != Z_STREAM_END;) {
        if (z.avail_in == 0) {
            const size_t n = size_t(std::min<uint64_t>(in.size(), e.packed - done));
            if (n == 0 || !readExact(e.data + done, in.data(), n))
                break;
            done += n;
            z.next_in = in.data();
            z.avail_in = uInt(n);
        }
        z.next_out = out.data();
        z.avail_out = uInt(out.size());
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END)
            break;
        const size_t produced = out.size() - z.avail_out;
        crc = uint32_t(crc32(crc, out.data(), uInt(produced)));
        size += produced;
        if (size > e.size) // more than the directory says: stop before a bomb unpacks
            break;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END)
        return corrupt("record " + e.name + ": its compressed data is damaged");
    return Status::ok();
}

Status Archive::checkRecord(const Entry& e) const
{
    uint32_t crc = 0;
    uint64_t size = e.packed;
    if (e.method == 0) {
        if (e.packed != e.size)
            return corrupt("record " + e.name + ": stored with two different sizes");
        if (Status s = checkStored(e, crc); !s)
            return s;
    } else if (e.method == 8) {
        if (Status s = checkDeflated(e, crc, size); !s)
            return s;
    } else {
        return Status(ErrorCode::Unsupported,
                      "record " + e.name + " uses zip compression " + std::to_string(e.method));
    }
    if (size != e.size)
        return corrupt("record " + e.name + " holds " + std::to_string(size) +
                       " bytes, its directory entry says " + std::to_string(e.size));
    if (crc != e.crc)
        return corrupt("record " + e.name + " is damaged (its CRC-32 does not match)");
    return Status::ok();
}

/// Records must not share bytes: their data ranges, in file order, may not overlap.
Status checkLayout(std::vector<Entry>& entries)
{
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.local < b.local; });
    for (size_t i = 1; i < entries.size(); ++i)
        if (entries[i].local < entries[i - 1].data + entries[i - 1].packed)
            return corrupt("records " + entries[i - 1].name + " and " + entries[i].name +
                           " overlap");
    for (const auto& e : entries)
        if (e.method == 8 && e.size / 1100 > std::max<uint64_t>(e.packed, 1))
            return corrupt("record " + e.name + " claims " + std::to_string(e.size) +
                           " bytes from " + std::to_string(e.packed) + " compressed bytes");
    return Status::ok();
}

} // namespace

Status verifyZipRecords(const ReadAt& read, uint64_t fileSize)
{
    Archive zip(read, fileSize);
    Directory dir;
    if (Status s = zip.findDirectory(dir); !s)
        return s;
    std::vector<Entry> entries;
    if (Status s = zip.readEntries(dir, entries); !s)
        return s;
    for (auto& e : entries)
        if (Status s = zip.locateData(e); !s)
            return s;
    if (Status s = checkLayout(entries); !s)
        return s;
    for (const auto& e : entries)
        if (Status s = zip.checkRecord(e); !s)
            return s;
    return Status::ok();
}

Status verifyZipFile(const std::string& path)
{
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
        return Status(ErrorCode::NotFound, ec.message());
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Status(ErrorCode::IoError, std::strerror(errno));
    const ReadAt read = [fd](uint64_t offset, void* out, size_t n) {
        size_t done = 0;
        while (done < n) {
            const ssize_t got =
                ::pread(fd, static_cast<char*>(out) + done, n - done, off_t(offset + done));
            if (got > 0)
                done += size_t(got);
            else if (got == 0 || errno != EINTR)
                break;
        }
        return done;
    };
    Status s = verifyZipRecords(read, size);
    ::close(fd);
    return s;
}

Status verifyZipBytes(const uint8_t* data, size_t size)
{
    const ReadAt read = [data, size](uint64_t offset, void* out, size_t n) {
        if (offset >= size || n == 0) // nothing to copy (`out` may be an empty buffer's null)
            return size_t(0);
        n = std::min<size_t>(n, size - size_t(offset));
        std::memcpy(out, data + offset, n);
        return n;
    };
    return verifyZipRecords(read, size);
}

} // namespace fisura::models
