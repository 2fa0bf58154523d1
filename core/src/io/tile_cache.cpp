#include "fisura/tilecache.h"

#include <list>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace fisura
{

size_t TileIdHash::operator()(const TileId& id) const noexcept
{
    // 64-bit mix of the four fields (splitmix64 finaliser): cheap, well spread.
    uint64_t h = id.file * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<uint64_t>(static_cast<uint32_t>(id.level)) << 48) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(id.x)) << 24) ^
         static_cast<uint64_t>(static_cast<uint32_t>(id.y));
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    return static_cast<size_t>(h);
}

size_t TileCache::tileBytes(const Image& tile)
{
    return tile.pixels.capacity() + sizeof(Image) + 64;
}

struct TileCache::Impl {
    struct Entry {
        std::shared_ptr<const Image> tile;
        size_t bytes = 0;
        std::list<TileId>::iterator lru; // position in `order` (front = newest)
    };
    mutable std::mutex mutex;
    size_t budget = 0;
    size_t bytes = 0;
    std::list<TileId> order;
    std::unordered_map<TileId, Entry, TileIdHash> entries;
    std::unordered_map<TileId, int, TileIdHash> pins;
    std::unordered_set<TileId, TileIdHash> visible;
    uint64_t hits = 0, misses = 0, evictions = 0;

    bool isProtected(const TileId& id) const { return pins.count(id) || visible.count(id); }

    void erase(std::unordered_map<TileId, Entry, TileIdHash>::iterator it)
    {
        bytes -= it->second.bytes;
        order.erase(it->second.lru);
        entries.erase(it);
    }

    // Oldest first; protected tiles are skipped, so a budget filled with pinned tiles is allowed
    // to overflow rather than drop what is on screen.
    void evict()
    {
        auto pos = order.end();
        while (bytes > budget && pos != order.begin()) {
            --pos;
            if (isProtected(*pos))
                continue;
            auto it = entries.find(*pos);
            pos = std::next(pos);
            erase(it);
            ++evictions;
        }
    }
};

TileCache::TileCache(size_t budgetBytes) : d_(std::make_unique<Impl>())
{
    d_->budget = budgetBytes;
}

TileCache::~TileCache() = default;

std::shared_ptr<const Image> TileCache::find(const TileId& id)
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    auto it = d_->entries.find(id);
    if (it == d_->entries.end()) {
        ++d_->misses;
        return nullptr;
    }
    ++d_->hits;
    d_->order.splice(d_->order.begin(), d_->order, it->second.lru);
    return it->second.tile;
}

void TileCache::insert(const TileId& id, std::shared_ptr<const Image> tile)
{
    if (!tile)
        return;
    std::lock_guard<std::mutex> lock(d_->mutex);
    auto it = d_->entries.find(id);
    if (it != d_->entries.end())
        d_->erase(it);
    Impl::Entry e;
    e.bytes = tileBytes(*tile);
    e.tile = std::move(tile);
    d_->order.push_front(id);
    e.lru = d_->order.begin();
    d_->bytes += e.bytes;
    d_->entries.emplace(id, std::move(e));
    d_->evict();
}

void TileCache::pin(const TileId& id)
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    ++d_->pins[id];
}

void TileCache::unpin(const TileId& id)
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    auto it = d_->pins.find(id);
    if (it == d_->pins.end())
        return;
    if (--it->second <= 0)
        d_->pins.erase(it);
    d_->evict();
}

void TileCache::setVisible(const std::vector<TileId>& ids)
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    d_->visible = std::unordered_set<TileId, TileIdHash>(ids.begin(), ids.end());
    d_->evict();
}

void TileCache::dropFile(uint64_t file)
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    for (auto it = d_->entries.begin(); it != d_->entries.end();) {
        auto next = std::next(it);
        if (it->first.file == file && !d_->isProtected(it->first))
            d_->erase(it);
        it = next;
    }
}

void TileCache::setBudget(size_t budgetBytes)
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    d_->budget = budgetBytes;
    d_->evict();
}

TileCacheStats TileCache::stats() const
{
    std::lock_guard<std::mutex> lock(d_->mutex);
    TileCacheStats s;
    s.bytes = d_->bytes;
    s.budget = d_->budget;
    s.tiles = d_->entries.size();
    for (const auto& e : d_->entries)
        if (d_->isProtected(e.first))
            ++s.pinnedTiles;
    s.hits = d_->hits;
    s.misses = d_->misses;
    s.evictions = d_->evictions;
    return s;
}

} // namespace fisura
