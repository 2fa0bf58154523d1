// A byte-budgeted cache of decoded tiles shared by the viewer and tiled inference.
// Keys are (file, level, column, row); eviction is least-recently-used but never drops a tile
// that is pinned or marked visible (the OpenImageIO ImageCache / Okular TilesManager idea).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "fisura/image.h"

namespace fisura
{

/// Identifies one decoded block of one pyramid level of one open file.
struct TileId {
    uint64_t file = 0; ///< TiledImage::id(): unique per open image, never reused in a process
    int level = 0;
    int x = 0; ///< block column
    int y = 0; ///< block row

    bool operator==(const TileId& o) const
    {
        return file == o.file && level == o.level && x == o.x && y == o.y;
    }
    bool operator!=(const TileId& o) const { return !(*this == o); }
};

struct TileIdHash {
    size_t operator()(const TileId& id) const noexcept;
};

struct TileCacheStats {
    size_t bytes = 0;       ///< decoded bytes held now
    size_t budget = 0;      ///< the byte budget
    size_t tiles = 0;       ///< tiles held now
    size_t pinnedTiles = 0; ///< tiles that eviction may not touch (pinned or visible)
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t evictions = 0;
};

/// Thread-safe. Tiles are shared immutable images: a tile handed out stays valid for its holder
/// even after the cache evicted it. The budget may be exceeded only by pinned/visible tiles.
class TileCache
{
public:
    explicit TileCache(size_t budgetBytes);
    ~TileCache();
    TileCache(const TileCache&) = delete;
    TileCache& operator=(const TileCache&) = delete;

    /// The tile, or nullptr when it is not cached. Counts a hit or a miss; a hit becomes newest.
    std::shared_ptr<const Image> find(const TileId& id);
    /// Adds (or replaces) a tile and evicts older unpinned tiles until the budget holds.
    void insert(const TileId& id, std::shared_ptr<const Image> tile);

    /// Pins are counted: a tile pinned twice needs two unpins. Pinning a tile that is not cached
    /// yet protects it as soon as it arrives.
    void pin(const TileId& id);
    void unpin(const TileId& id);
    /// Replaces the visible set (the viewer calls this on every scroll/zoom); visible tiles are
    /// never evicted. An empty list releases them all.
    void setVisible(const std::vector<TileId>& ids);

    /// Drops every unpinned, invisible tile of `file` (e.g. when it is closed).
    void dropFile(uint64_t file);
    /// Changes the budget; shrinking evicts at once.
    void setBudget(size_t budgetBytes);
    TileCacheStats stats() const;

    /// Bytes a tile accounts for (pixels plus bookkeeping).
    static size_t tileBytes(const Image& tile);

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fisura
