#include "viewer/viewtilecache.h"

#include <QHashFunctions>

namespace fisura::ui
{

size_t qHash(const ViewTileKey& k, size_t seed) noexcept
{
    return qHashMulti(seed, k.file, k.level, k.x, k.y);
}

ViewTileCache::ViewTileCache(qint64 budgetBytes) : budget_(budgetBytes) {}

void ViewTileCache::setBudget(qint64 bytes)
{
    budget_ = bytes;
    evict();
}

void ViewTileCache::setVisible(QSet<ViewTileKey> keys)
{
    visible_ = std::move(keys);
    evict(); // tiles kept over budget only because they were wanted go now
}

LoadedTile* ViewTileCache::find(const ViewTileKey& key)
{
    const auto it = entries_.find(key);
    if (it == entries_.end())
        return nullptr;
    uses_.splice(uses_.begin(), uses_, it->second.use);
    return &it->second.tile;
}

void ViewTileCache::insert(const ViewTileKey& key, LoadedTile tile, qint64 bytes)
{
    if (const auto it = entries_.find(key); it != entries_.end()) {
        bytes_ -= it->second.bytes;
        uses_.erase(it->second.use);
        entries_.erase(it);
    }
    uses_.push_front(key);
    entries_.emplace(key, Entry{std::move(tile), bytes, uses_.begin()});
    bytes_ += bytes;
    evict();
}

void ViewTileCache::clear()
{
    entries_.clear();
    uses_.clear();
    visible_.clear();
    bytes_ = 0;
}

void ViewTileCache::evict()
{
    // Oldest first; a wanted tile is stepped over (it is drawn now), never dropped.
    auto it = uses_.end();
    while (bytes_ > budget_ && it != uses_.begin()) {
        --it;
        if (visible_.contains(*it))
            continue;
        const auto e = entries_.find(*it);
        bytes_ -= e->second.bytes;
        entries_.erase(e);
        it = uses_.erase(it);
        ++evictions_;
    }
}

} // namespace fisura::ui
