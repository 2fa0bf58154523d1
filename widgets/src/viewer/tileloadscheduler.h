// Loads the tiles a view wants, off the GUI thread, the way libvips' sink_screen and Okular's
// requestPixmaps do: each new view replaces the queue (stale requests are dropped before a
// worker takes them), the tile nearest the view's centre is decoded first, and a result that
// arrives for a view that no longer wants it is dropped by its generation. Workers make QImage;
// the scheduler, on the GUI thread, makes the pixmaps and keeps them in a ViewTileCache that
// never evicts a wanted tile.
#pragma once

#include <QImage>
#include <QObject>
#include <QSet>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <vector>

#include "viewer/viewtilecache.h"

namespace fisura::ui
{

struct TileRequest {
    ViewTileKey key;
    double priority = 0; ///< lower loads sooner (the distance from the view's centre)
    /// Runs on a worker thread: RGB32/ARGB32 for a pixmap, Grayscale8 for values kept as such;
    /// a null image marks the tile undecodable (it is not asked for again).
    std::function<QImage()> decode;
};

struct TileLoadStats {
    quint64 generation = 0;
    quint64 requested = 0;    ///< tiles queued for decoding
    quint64 decoded = 0;      ///< tiles decoded by workers
    quint64 droppedStale = 0; ///< queued requests replaced before a worker took them
    quint64 droppedLate = 0;  ///< results that arrived for a view that no longer wants them
    int pending = 0;          ///< queued now
    qint64 bytes = 0;         ///< held by the tile cache
    qint64 budget = 0;
};

class TileLoadScheduler : public QObject
{
    Q_OBJECT
public:
    explicit TileLoadScheduler(QObject* parent = nullptr);
    /// Drops the queue and waits for the workers: no decode outlives the scheduler.
    ~TileLoadScheduler() override;

    /// Workers decoding tiles (default: the ideal thread count, at least 2).
    void setWorkerCount(int n);
    int workerCount() const;
    /// Byte budget of the tile cache; only wanted tiles may exceed it.
    void setBudget(qint64 bytes);

    /// A new view begins: results for the views before it are kept only if it wants them.
    void beginView();
    quint64 generation() const { return generation_; }
    /// The tiles the view wants, and requests for the ones to load (tiles loaded, undecodable
    /// or being decoded are not queued again). Replaces every queued request.
    void request(QSet<ViewTileKey> wanted, std::vector<TileRequest> requests);
    /// Forgets everything (the image closed): the queue, the tiles, what is wanted and what
    /// failed; results still on their way are dropped.
    void reset();

    bool isLoaded(const ViewTileKey& key) const { return cache_.contains(key); }
    bool hasFailed(const ViewTileKey& key) const { return failed_.contains(key); }
    /// A loaded tile for drawing (now the most recently used), or null.
    LoadedTile* tile(const ViewTileKey& key) { return cache_.find(key); }
    /// Every wanted tile is loaded or undecodable.
    bool frameComplete() const;
    TileLoadStats stats() const;

Q_SIGNALS:
    /// A tile the view wants arrived (draw again).
    void tileLoaded(fisura::ui::ViewTileKey key);
    /// Every tile the view of `generation` wants is in.
    void frameCompleted(quint64 generation);

private:
    struct Queue;
    void startWorkers(int n);
    void onResult(const ViewTileKey& key, quint64 generation, QImage image);
    void checkComplete();

    std::shared_ptr<Queue> queue_;
    QThreadPool pool_;
    ViewTileCache cache_;
    QSet<ViewTileKey> failed_;
    quint64 generation_ = 0;
    quint64 completedGeneration_ = ~0ull;
    quint64 droppedLate_ = 0;
};

} // namespace fisura::ui
