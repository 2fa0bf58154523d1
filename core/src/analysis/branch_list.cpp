// BranchList: a measurement's branches as packed records, in memory up to a budget and beyond it
// in an unlinked temporary file.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

#include <fcntl.h>
#include <stdlib.h> // mkostemp
#include <unistd.h>

#include "fisura/measure.h"
#include "util/io_error.h"

namespace fisura
{

namespace
{

// Records are appended to memory blocks of about this size (a record is never split), so the
// memory part grows without ever copying what it holds.
constexpr size_t kBlockBytes = size_t(1) << 20;
// What an iterator reads at once.
constexpr size_t kWindowBytes = size_t(1) << 20;

// Every field of a branch, in record order, for writing (Io = Packer, const branch) and for
// reading (Io = Unpacker): one list, so the two cannot disagree.
template <class Io, class Branch> void branchFields(Io& io, Branch& b)
{
    io(b.id);
    io(b.crackId);
    io(b.lengthPx);
    io(b.lengthMm);
    io(b.width);
    io(b.orientationDeg);
    io(b.box.x);
    io(b.box.y);
    io(b.box.width);
    io(b.box.height);
    io(b.centroidX);
    io(b.centroidY);
    io(b.widthClass);
    io(b.exceedsLimit);
    io.list(b.centreLine, [&io](auto& v) {
        io(v.x);
        io(v.y);
        io(v.widthPx);
    });
    io.list(b.segments, [&io](auto& s) {
        io(s.id);
        io(s.firstVertex);
        io(s.lastVertex);
        io(s.lengthPx);
        io(s.lengthMm);
        io(s.width);
        io(s.widthClass);
        io(s.exceedsLimit);
    });
}

class Packer
{
public:
    explicit Packer(std::string& out) : out_(out) {}
    template <class T> void operator()(const T& v)
    {
        out_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void operator()(bool v) { (*this)(uint8_t(v)); }
    void operator()(const WidthStats& w)
    {
        for (double v : {w.meanPx, w.medianPx, w.maxPx, w.meanMm, w.medianMm, w.maxMm})
            (*this)(v);
    }
    template <class T, class Fn> void list(const std::vector<T>& items, Fn&& each)
    {
        (*this)(uint32_t(items.size()));
        for (const T& item : items)
            each(item);
    }

private:
    std::string& out_;
};

class Unpacker
{
public:
    Unpacker(const char* p, size_t n) : p_(p), end_(p + n) {}
    template <class T> void operator()(T& v)
    {
        if (size_t(end_ - p_) < sizeof v)
            throw std::system_error(std::make_error_code(std::errc::io_error),
                                    "branch record cut short");
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
    }
    void operator()(bool& v)
    {
        uint8_t byte = 0;
        (*this)(byte);
        v = byte != 0;
    }
    void operator()(WidthStats& w)
    {
        for (double* v : {&w.meanPx, &w.medianPx, &w.maxPx, &w.meanMm, &w.medianMm, &w.maxMm})
            (*this)(*v);
    }
    template <class T, class Fn> void list(std::vector<T>& items, Fn&& each)
    {
        uint32_t count = 0;
        (*this)(count);
        items.resize(count);
        for (T& item : items)
            each(item);
    }

private:
    const char* p_;
    const char* end_;
};

void pack(const CrackBranch& b, std::string& out)
{
    Packer p(out);
    branchFields(p, b);
}

CrackBranch unpack(const char* data, size_t n)
{
    Unpacker u(data, n);
    CrackBranch b;
    branchFields(u, b);
    return b;
}

// TMPDIR as given, even when it is not a folder (making the file then fails and says where).
std::string temporaryFolder()
{
    std::error_code ec;
    const auto dir = std::filesystem::temp_directory_path(ec);
    if (!ec)
        return dir.string();
    const char* env = std::getenv("TMPDIR");
    return env && *env ? std::string(env) : std::string("/tmp");
}

// An unlinked file in `dir` (O_TMPFILE where the file system has it), or -1 with errno set.
int openUnlinked(const std::string& dir)
{
#ifdef O_TMPFILE
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    std::string name = dir + "/.fisura-branches-XXXXXX";
    const int other = ::mkostemp(name.data(), O_CLOEXEC);
    if (other >= 0)
        ::unlink(name.c_str());
    return other;
}

} // namespace

// The records of one or more lists (copies share it): bytes [0, fileBytes) in the file, the rest
// in memory blocks. It only grows.
struct BranchList::Store {
    explicit Store(size_t budget) : budget(budget) {}
    ~Store()
    {
        if (fd >= 0)
            ::close(fd);
    }
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    uint64_t total() const { return fileBytes + memoryBytes; }

    // Appends `record`; its offset in `at`.
    Status append(const std::string& record, uint64_t& at)
    {
        std::lock_guard<std::mutex> lock(m);
        if (memoryBytes + record.size() > budget) {
            if (Status s = spill(); !s)
                return s;
            if (record.size() > budget) { // straight to the file
                if (Status s = writeAt(record.data(), record.size(), fileBytes); !s)
                    return s;
                at = fileBytes;
                fileBytes += record.size();
                return {};
            }
        }
        if (blocks.empty() || blocks.back().size() >= kBlockBytes) {
            blockStart.push_back(total());
            blocks.emplace_back();
        }
        at = total();
        blocks.back().insert(blocks.back().end(), record.begin(), record.end());
        memoryBytes += record.size();
        return {};
    }

    // Copies [at, at + n) into `out` (throws std::system_error if the file fails).
    void read(uint64_t at, size_t n, char* out)
    {
        std::lock_guard<std::mutex> lock(m);
        while (n > 0 && at < fileBytes) {
            const ssize_t got =
                ::pread(fd, out, size_t(std::min<uint64_t>(n, fileBytes - at)), off_t(at));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                throw std::system_error(got < 0 ? errno : EIO, std::generic_category(),
                                        "cannot read the branches' temporary file");
            at += uint64_t(got);
            out += got;
            n -= size_t(got);
        }
        while (n > 0) {
            const size_t k = size_t(std::upper_bound(blockStart.begin(), blockStart.end(), at) -
                                    blockStart.begin()) -
                             1;
            const size_t from = size_t(at - blockStart[k]);
            const size_t take = std::min(n, blocks[k].size() - from);
            std::memcpy(out, blocks[k].data() + from, take);
            at += take;
            out += take;
            n -= take;
        }
    }

    std::mutex m;
    const size_t budget;
    std::string folder; // of the file, for messages
    int fd = -1;
    uint64_t fileBytes = 0;
    std::vector<std::vector<char>> blocks;
    std::vector<uint64_t> blockStart; // offset of each block's first byte
    uint64_t memoryBytes = 0;

private:
    // Moves the memory blocks to the file (on failure nothing moves).
    Status spill()
    {
        if (fd < 0) {
            folder = temporaryFolder();
            fd = openUnlinked(folder);
            if (fd < 0)
                return writeFailure(folder, errno,
                                    "cannot make a temporary file for the branches in " + folder);
        }
        uint64_t at = fileBytes;
        for (const auto& b : blocks) {
            if (Status s = writeAt(b.data(), b.size(), at); !s)
                return s;
            at += b.size();
        }
        fileBytes = at;
        memoryBytes = 0;
        blocks.clear();
        blockStart.clear();
        return {};
    }

    Status writeAt(const char* p, size_t n, uint64_t at)
    {
        while (n > 0) {
            const ssize_t put = ::pwrite(fd, p, n, off_t(at));
            if (put < 0 && errno == EINTR)
                continue;
            if (put <= 0)
                return writeFailure(folder, put < 0 ? errno : ENOSPC,
                                    "cannot write the branches' temporary file in " + folder);
            p += put;
            n -= size_t(put);
            at += uint64_t(put);
        }
        return {};
    }
};

BranchList::BranchList() : BranchList(kDefaultMemoryBytes) {}

BranchList::BranchList(size_t memoryBytes) : store_(std::make_shared<Store>(memoryBytes)) {}

CrackBranch BranchList::operator[](size_t i) const
{
    std::string record(sizes_.at(i), '\0');
    store_->read(offsets_[i], record.size(), record.data());
    return unpack(record.data(), record.size());
}

Status BranchList::push_back(const CrackBranch& b)
{
    if (!store_) // moved from
        store_ = std::make_shared<Store>(kDefaultMemoryBytes);
    std::string record;
    pack(b, record);
    uint64_t at = 0;
    if (Status s = store_->append(record, at); !s)
        return s;
    offsets_.push_back(at);
    sizes_.push_back(uint32_t(record.size()));
    return {};
}

void BranchList::clear()
{
    offsets_.clear();
    sizes_.clear();
    store_ = std::make_shared<Store>(store_ ? store_->budget : kDefaultMemoryBytes);
}

uint64_t BranchList::fileBytes() const
{
    if (!store_)
        return 0;
    std::lock_guard<std::mutex> lock(store_->m);
    return store_->fileBytes;
}

struct BranchList::const_iterator::Window {
    uint64_t start = 0;
    std::vector<char> bytes;
};

BranchList::const_iterator::const_iterator(const BranchList* list, size_t i) : list_(list), i_(i) {}

CrackBranch BranchList::const_iterator::operator*() const
{
    const uint64_t at = list_->offsets_[i_];
    const size_t n = list_->sizes_[i_];
    Window* w = window_.get();
    if (!w || at < w->start || at + n > w->start + w->bytes.size()) {
        auto fresh = std::make_shared<Window>();
        Store& store = *list_->store_;
        uint64_t end = 0;
        {
            std::lock_guard<std::mutex> lock(store.m);
            end = store.total();
        }
        fresh->start = at;
        fresh->bytes.resize(
            size_t(std::max<uint64_t>(n, std::min<uint64_t>(kWindowBytes, end - at))));
        store.read(at, fresh->bytes.size(), fresh->bytes.data());
        window_ = std::move(fresh);
        w = window_.get();
    }
    return unpack(w->bytes.data() + (at - w->start), n);
}

} // namespace fisura
