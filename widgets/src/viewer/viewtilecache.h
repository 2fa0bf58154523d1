// The viewer's cache of tiles ready to draw (GUI thread only): a byte budget, the least recently
// used tile out first, and never a tile the view wants now - as Okular's TilesManager keeps the
// visible pixmaps and OpenImageIO's ImageCache its pinned tiles. Only wanted tiles may take it
// over its budget, so a view always completes whatever the budget.
#pragma once

#include <QImage>
#include <QPixmap>
#include <QSet>

#include <list>
#include <unordered_map>

#include "viewer/viewerbudgets.h"

namespace fisura::ui
{

/// Identifies one viewer tile: a square of `tileSize` pixels of one level of one open file.
struct ViewTileKey {
    quint64 file = 0;
    int level = 0;
    int x = 0;
    int y = 0;
    bool operator==(const ViewTileKey& o) const
    {
        return file == o.file && level == o.level && x == o.x && y == o.y;
    }
};
size_t qHash(const ViewTileKey& k, size_t seed = 0) noexcept;

/// A decoded tile: the scan's as a pixmap, an overlay's as values coloured when drawn.
struct LoadedTile {
    QImage values;        ///< overlays: Grayscale8 values
    QPixmap pixmap;       ///< the scan's tile, or an overlay's coloured values
    quint64 lutStamp = 0; ///< overlays: the colour table `pixmap` was made with
};

class ViewTileCache
{
public:
    explicit ViewTileCache(qint64 budgetBytes = kViewerPixmapBudgetBytes);

    /// Changes the budget; shrinking evicts at once.
    void setBudget(qint64 bytes);
    qint64 budget() const { return budget_; }
    qint64 bytes() const { return bytes_; }
    int count() const { return int(entries_.size()); }
    quint64 evictions() const { return evictions_; }

    /// The tiles the view wants now: never evicted while they are.
    void setVisible(QSet<ViewTileKey> keys);
    const QSet<ViewTileKey>& visible() const { return visible_; }

    bool contains(const ViewTileKey& key) const { return entries_.count(key) != 0; }
    /// The tile, now the most recently used; null when it is not cached. Valid until the next
    /// insert(), setBudget(), setVisible() or clear().
    LoadedTile* find(const ViewTileKey& key);
    /// Adds (or replaces) a tile that accounts for `bytes`, then evicts the least recently used
    /// tiles the view does not want until the budget holds.
    void insert(const ViewTileKey& key, LoadedTile tile, qint64 bytes);
    void clear();

private:
    struct KeyHash {
        size_t operator()(const ViewTileKey& k) const noexcept { return qHash(k); }
    };
    struct Entry {
        LoadedTile tile;
        qint64 bytes = 0;
        std::list<ViewTileKey>::iterator use;
    };
    void evict();

    std::unordered_map<ViewTileKey, Entry, KeyHash> entries_;
    std::list<ViewTileKey> uses_; ///< front: the most recently used
    QSet<ViewTileKey> visible_;
    qint64 budget_;
    qint64 bytes_ = 0;
    quint64 evictions_ = 0;
};

} // namespace fisura::ui
