#include "badinput_common.h"

#include <QBuffer>
#include <QImage>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace badinput
{

namespace fs = std::filesystem;

std::string join(const std::string& dir, const std::string& name)
{
    return (fs::path(dir) / name).string();
}

void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

fisura::Image pattern(int width, int height, int channels)
{
    fisura::Image im = fisura::Image::make(width, height, channels);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width * channels; ++x)
            im.row(y)[x] = uint8_t((x * 7 + y * 13) & 0xff);
    return im;
}

std::string tiffBytes(const fisura::Image& image, int tileSize)
{
    const fs::path tmp = fs::temp_directory_path() / ("badinput-" + std::to_string(::getpid()) +
                                                      "-" + std::to_string(tileSize) + ".tif");
    fisura::TiffWriteOptions o;
    o.tileSize = tileSize;
    if (!fisura::writeTiff(tmp.string(), image, o))
        return {};
    std::string bytes = readBytes(tmp.string());
    std::error_code ec;
    fs::remove(tmp, ec);
    return bytes;
}

std::string encodedBytes(const fisura::Image& image, const char* format)
{
    QImage q(image.width, image.height, QImage::Format_RGB888);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const uint8_t* p = image.row(y) + x * image.channels;
            q.setPixel(x, y,
                       qRgb(p[0], p[image.channels > 1 ? 1 : 0], p[image.channels > 2 ? 2 : 0]));
        }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    q.save(&buffer, format);
    return bytes.toStdString();
}

namespace
{
void put16(std::string& s, uint16_t v)
{
    s.push_back(char(v & 0xff));
    s.push_back(char(v >> 8));
}
void put32(std::string& s, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        s.push_back(char((v >> (8 * i)) & 0xff));
}
} // namespace

std::string absurdTiff(uint32_t width, uint32_t height, bool tiled, uint32_t stripBytes)
{
    struct Entry {
        uint16_t tag, type;
        uint32_t value;
    };
    const uint16_t kShort = 3, kLong = 4;
    std::vector<Entry> e = {{256, kLong, width},
                            {257, kLong, height},
                            {258, kShort, 8},
                            {259, kShort, 1},
                            {262, kShort, 1}};
    if (tiled) {
        e.push_back({277, kShort, 1});
        e.push_back({322, kShort, 16});
        e.push_back({323, kShort, 16});
        e.push_back({324, kLong, 256});
        e.push_back({325, kLong, stripBytes});
    } else {
        e.push_back({273, kLong, 256});
        e.push_back({277, kShort, 1});
        e.push_back({278, kLong, height});
        e.push_back({279, kLong, stripBytes});
    }
    std::string s = "II";
    put16(s, 42);
    put32(s, 8);
    put16(s, uint16_t(e.size()));
    for (const Entry& x : e) {
        put16(s, x.tag);
        put16(s, x.type);
        put32(s, 1);
        if (x.type == kShort) {
            put16(s, uint16_t(x.value));
            put16(s, 0);
        } else {
            put32(s, x.value);
        }
    }
    put32(s, 0);
    s.resize(256 + 64, '\x55'); // a few pixel bytes at offset 256
    return s;
}

std::string bombTiff(uint32_t side)
{
    const uint32_t entries = 9, n = side;
    const uint32_t offsets = 8 + 2 + entries * 12 + 4, counts = offsets + 4 * n,
                   block = counts + 4 * n;
    const uint32_t e[entries][4] = {{256, 4, 1, side},  {257, 4, 1, side}, {258, 3, 1, 8},
                                    {259, 3, 1, 32946}, {262, 3, 1, 1},    {273, 4, n, offsets},
                                    {277, 3, 1, 1},     {278, 4, 1, 1},    {279, 4, n, counts}};
    std::string s = "II";
    put16(s, 42);
    put32(s, 8);
    put16(s, uint16_t(entries));
    for (const auto& x : e) {
        put16(s, uint16_t(x[0]));
        put16(s, uint16_t(x[1]));
        put32(s, x[2]);
        put32(s, x[3]); // SHORT values fit the low half (little-endian)
    }
    put32(s, 0);
    s.reserve(size_t(block) + 16);
    for (uint32_t i = 0; i < n; ++i)
        put32(s, block);
    for (uint32_t i = 0; i < n; ++i)
        put32(s, 16);
    s.append(16, '\x55'); // never decoded: the claim is refused first
    return s;
}

std::string sameBytes(const std::string& path, const std::string& bytes)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        return path + " is gone";
    if (readBytes(path) != bytes)
        return path + " changed";
    return {};
}

std::string leftovers(const std::string& dir, const std::vector<std::string>& expected)
{
    const std::set<std::string> keep(expected.begin(), expected.end());
    std::string extra;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!keep.count(name))
            extra += (extra.empty() ? "left over in " + dir + ": " : ", ") + name;
    }
    return extra;
}

Tmpfs::Tmpfs(const std::string& dir, uint64_t bytes) : dir_(dir)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    const std::string options = "size=" + std::to_string(bytes) + ",mode=0755";
    if (::mount("tmpfs", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
        error_ = std::string("cannot mount a tmpfs (needs root): ") + std::strerror(errno);
    else
        mounted_ = true;
}

Tmpfs::~Tmpfs()
{
    if (mounted_)
        ::umount2(dir_.c_str(), MNT_DETACH);
}

void Tmpfs::fill()
{
    const std::string path = join(dir_, "filler");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    const std::string block(4096, 'f');
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    const std::string byte(1, 'f'); // the last partial block
    while (::write(fd, byte.data(), 1) > 0) {
    }
    ::close(fd);
}

std::string Tmpfs::makeReadOnly()
{
    if (::mount(nullptr, dir_.c_str(), nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
                nullptr) != 0)
        return std::string("cannot remount read-only: ") + std::strerror(errno);
    return {};
}

} // namespace badinput
