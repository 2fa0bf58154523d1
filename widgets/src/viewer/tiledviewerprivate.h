// Internals shared by the files of TiledViewer (viewer core, tile loading, painting): limits, the
// request queue and the pixel helpers. Not part of the widgets' API.
#pragma once

#include <QCache>
#include <QImage>
#include <QPixmap>
#include <QSet>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "viewer/tiledviewer.h"

namespace fisura::ui
{

namespace viewerdetail
{
constexpr int kOverviewSide = 2048;
constexpr int kSyncOverviewSide = 512;
// More decoded pixels than this for one view and the viewer draws the overview instead: a
// non-pyramidal scan seen whole would otherwise decode gigabytes per frame.
constexpr qint64 kMaxViewPixels = 20ll * 1024 * 1024;

/// A new stamp for a changed lookup table (cached coloured pixmaps compare against it).
quint64 nextLutStamp();

/// One tile of one level as a QImage: RGB32/ARGB32 for the scan, Grayscale8 values for overlays.
QImage decodeTile(const TiledImage& img, int level, int tile, int tx, int ty, bool aligned,
                  bool values);

/// The whole image at most `maxSide` a side (scan: box average; overlays: max).
QImage buildOverview(const TiledImage& img, bool values, int maxSide,
                     const std::atomic<bool>& cancel, const std::function<void(double)>& progress);

/// Colours overlay values through the LUT; outline keeps shown pixels with a hidden neighbour.
QImage colourValues(const QImage& values, const QVector<QRgb>& lut, bool outline, int threshold);
} // namespace viewerdetail

struct TiledViewer::Queue {
    struct Req {
        std::shared_ptr<TiledImage> img;
        ViewTileKey key;
        int tile = 256;
        bool aligned = true;
        bool values = false;
        quint64 generation = 0;
    };
    std::mutex m;
    std::vector<Req> pending; ///< served from the back: the newest, most central request first
    QSet<ViewTileKey> inFlight;
    int running = 0;
    bool closed = false;
    quint64 requested = 0;
    quint64 droppedStale = 0;
    std::atomic<quint64> decoded{0};
};
// The editable layer: level-0 tiles read from its source on demand (coloured pixmaps cached,
// dropped where an edit lands) and an overview patched region by region.
struct TiledViewer::Editable {
    struct Tile {
        QImage values;
        QPixmap pixmap;
        quint64 lutStamp = 0;
    };
    std::shared_ptr<EditableOverlaySource> source;
    OverlayStyle style;
    QVector<QRgb> lut;
    quint64 lutStamp = 0;
    QCache<quint64, Tile> tiles; ///< key: ty << 32 | tx, level 0
    QImage overview;             ///< Grayscale8; null until first needed
    QPixmap overviewPixmap;
    quint64 overviewStamp = ~0ull;
    bool overviewFailed = false;
};

} // namespace fisura::ui
