// A map-like viewer for scans of any size: only the visible blocks of the right pyramid level are
// decoded, on worker threads (QImage), newest request first; panning replaces stale requests and
// late results are dropped by a generation counter. The GUI thread alone turns them into pixmaps.
// While fine tiles load, coarser levels and an overview image are drawn scaled beneath them, so
// the view is never blank. Aligned overlay layers (probability, masks) are coloured through a
// 256-entry lookup table, so threshold, colour map and opacity changes need no recomputation.
#pragma once

#include <QCache>
#include <QColor>
#include <QImage>
#include <QPixmap>
#include <QPointer>
#include <QSet>
#include <QThreadPool>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

#include "fisura/status.h"
#include "fisura/tilecache.h"
#include "fisura/tiledimage.h"

class QKeyEvent;
class QMouseEvent;
class QPainter;

namespace fisura::ui
{

/// Custom draws every shown value in OverlayStyle::color (comparison layers, user colours).
/// WidthClasses colours width classes 0..3 green, yellow, orange and red, coded either 1..4 or
/// as the quarters of 1..255 (class maps, fisura/measuremap.h).
enum class ColorMap { Red, Green, Blue, Yellow, Magenta, Heat, Custom, WidthClasses };

struct OverlayStyle {
    ColorMap colorMap = ColorMap::Red;
    QColor color = QColor(255, 32, 32); ///< used by ColorMap::Custom
    double opacity = 0.6;               ///< 0..1
    int threshold = 128;                ///< values at or above are shown; 256 shows nothing
    bool outline = false;               ///< draw only the boundary of the shown region
    bool visible = true;
};

/// value -> premultiplied ARGB: transparent below the threshold.
QVector<QRgb> overlayLut(const OverlayStyle& style);

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

/// An overlay that lives in memory and changes while the user works on it (a label layer being
/// drawn). The viewer reads level-0 regions of it when zoomed in and a small overview of it when
/// zoomed out, and redraws only the regions it is told have changed.
class EditableOverlaySource
{
public:
    virtual ~EditableOverlaySource() = default;
    virtual QSize size() const = 0;
    /// Grayscale8 values of a level-0 region inside the image; null on failure.
    virtual QImage readRegion(const QRect& region) const = 0;
    /// Grayscale8 values of the whole layer, at most `maxSide` a side (max-pooled); null on
    /// failure.
    virtual QImage overview(int maxSide) const = 0;
};

/// Input and drawing of an interactive tool on the view (drawing labels, for instance). While a
/// tool is set the viewer offers it every mouse and key event first; what it does not take pans
/// and zooms as usual. paint() draws over the layers, in widget coordinates.
class ViewerTool
{
public:
    virtual ~ViewerTool() = default;
    virtual bool mousePress(QMouseEvent*) { return false; }
    virtual bool mouseMove(QMouseEvent*) { return false; }
    virtual bool mouseRelease(QMouseEvent*) { return false; }
    virtual bool mouseDoubleClick(QMouseEvent*) { return false; }
    virtual bool keyPress(QKeyEvent*) { return false; }
    /// The pointer left the view.
    virtual void leave() {}
    virtual void paint(QPainter&) {}
};

struct ViewerStats {
    quint64 generation = 0;
    quint64 requested = 0;    ///< tiles queued for decoding
    quint64 decoded = 0;      ///< tiles decoded by workers
    quint64 droppedStale = 0; ///< queued requests replaced before a worker took them
    quint64 droppedLate = 0;  ///< results that arrived for a view that no longer wants them
    int pending = 0;          ///< queued now
    qint64 pixmapBytes = 0;   ///< held by the GUI tile cache
    qint64 pixmapBudget = 0;
};

class TiledViewer : public QWidget
{
    Q_OBJECT
public:
    /// `cache` holds decoded blocks (shared with other users); null makes a private one.
    explicit TiledViewer(QWidget* parent = nullptr, std::shared_ptr<TileCache> cache = {});
    ~TiledViewer() override;

    Status openImage(const QString& path);
    void closeImage();
    bool hasImage() const { return bool(base_.img); }
    QString imagePath() const { return base_.path; }
    QSize imageSize() const;
    int levelCount() const { return hasImage() ? base_.img->levelCount() : 0; }
    /// Millimetres per level-0 pixel (0 when unknown).
    double pixelSizeMm() const;

    /// Adds a layer from a TIFF of the same size as the scan (refused otherwise).
    Status addOverlay(const QString& path, const QString& name, const OverlayStyle& style = {});
    int overlayCount() const { return int(overlays_.size()); }
    QString overlayName(int i) const;
    QString overlayPath(int i) const;
    /// Draw only overlay `i` (side-by-side comparison); -1 draws every visible overlay.
    void setSoloOverlay(int i);
    int soloOverlay() const { return solo_; }
    OverlayStyle overlayStyle(int i) const;
    void setOverlayStyle(int i, const OverlayStyle& style);
    /// Drawing order: layer 0 is drawn first (bottom).
    void moveOverlay(int from, int to);
    void removeOverlay(int i);

    /// Swipe comparison: layer `left` only left of the divider, layer `right` only right of it.
    void setSwipe(bool on, int left = 0, int right = 1);
    bool swipeEnabled() const { return swipe_; }
    /// Divider position as a fraction of the width.
    void setSwipePosition(double fraction);
    double swipePosition() const { return swipePos_; }

    /// Screen pixels per level-0 pixel.
    double zoom() const { return zoom_; }
    /// Zooms keeping the image point under `anchor` (widget coordinates) fixed.
    void setZoom(double zoom, QPointF anchor);
    void setZoom(double zoom) { setZoom(zoom, QPointF(width() / 2.0, height() / 2.0)); }
    void zoomBy(double factor) { setZoom(zoom_ * factor); }
    void centerOn(QPointF imagePoint);
    /// Both at once (one view change, one request round).
    void showAt(QPointF imagePoint, double zoom);
    void panBy(QPointF widgetDelta);
    void fitToWindow();
    void actualSize();
    double fitZoom() const;
    /// The visible part of the image in level-0 coordinates.
    QRectF viewportRect() const;
    QPointF mapToImage(QPointF widgetPoint) const;
    QPointF mapFromImage(QPointF imagePoint) const;

    /// The overview (whole image, at most 2048 px a side); null until built.
    QImage overview() const { return base_.overview; }
    bool overviewReady() const { return !base_.overview.isNull(); }
    /// Level drawn at the current zoom.
    int currentLevel() const;
    /// True when every tile the current view wants is decoded and cached.
    bool frameComplete() const;
    ViewerStats stats() const;
    std::shared_ptr<TileCache> tileCache() const { return cache_; }
    /// Budget of the GUI-side pixmap cache (bytes).
    void setPixmapBudget(qint64 bytes);
    /// Workers decoding tiles (default: ideal thread count).
    void setWorkerCount(int n);
    /// Directory for overview cache files of non-pyramidal scans (empty: no cache).
    void setOverviewCacheDir(const QString& dir) { overviewCacheDir_ = dir; }
    /// The editable layer, drawn above every overlay in `style` (null removes it).
    void setEditableOverlay(std::shared_ptr<EditableOverlaySource> source,
                            const OverlayStyle& style = {});
    bool hasEditableOverlay() const;
    OverlayStyle editableOverlayStyle() const;
    void setEditableOverlayStyle(const OverlayStyle& style);
    /// The editable layer changed inside `region` (level-0 pixels): only that part is redrawn.
    void editableOverlayChanged(const QRect& region);

    /// The tool that takes mouse and key input first (not owned; null: pan and zoom only).
    void setTool(ViewerTool* tool);
    ViewerTool* tool() const { return tool_; }

    /// The current view with overlays and scale bar, as displayed.
    QImage snapshot();
    Status saveSnapshot(const QString& path);

Q_SIGNALS:
    void imageOpened();
    void viewChanged();
    void overlaysChanged();
    /// Cursor over the image: level-0 position and a description of the pixel values there.
    void cursorInfo(QPoint imagePos, const QString& values);
    void overviewProgress(double fraction);
    void overviewBuilt();
    /// Every tile the view wants is in; `generation` of the view it completes.
    void frameCompleted(quint64 generation);

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;

private:
    Result<std::shared_ptr<TiledImage>> openTiled(const QString& path) const;

    struct Source {
        std::shared_ptr<TiledImage> img;
        QString path;
        QString name;
        bool overlay = false;
        OverlayStyle style;
        QVector<QRgb> lut;
        quint64 lutStamp = 0;
        QImage overview;        ///< base: RGB32; overlay: Grayscale8 (max-pooled)
        QPixmap overviewPixmap; ///< overlay: coloured with lut at overviewStamp
        quint64 overviewStamp = ~0ull;
        std::shared_ptr<std::atomic<bool>> cancelOverview;
    };
    struct CachedTile {
        QImage values; ///< overlays: Grayscale8 values, coloured on demand
        QPixmap pixmap;
        quint64 lutStamp = 0;
    };
    struct Queue;
    struct Editable;
    struct Wanted {
        int level = 0;
        int tile = 256;
        int x0 = 0, y0 = 0, x1 = -1, y1 = -1; ///< tile range, inclusive
        bool drawTiles = true;                ///< false: too many tiles, backdrop only
    };

    void setView(double zoom, QPointF origin);
    void clampView();
    void updateRequests();
    Wanted wantedFor(const Source& s) const;
    int tileSizeFor(const Source& s, int level) const;
    QRect tileRectOnScreen(const Source& s, int level, int tile, int tx, int ty) const;
    void onTileLoaded(ViewTileKey key, quint64 generation, QImage image);
    void paintSource(QPainter& p, Source& s, const QRect& clip);
    QPixmap pixmapFor(Source& s, CachedTile* t);
    void startOverview(Source& s);
    void drawScaleBar(QPainter& p);
    void drawSwipe(QPainter& p);
    void reportCursor(QPointF widgetPoint);
    void reportStoredValues();
    std::vector<Source*> sources();
    void checkComplete();
    bool overlayShown(const Source& s) const;
    void paintEditable(QPainter& p);

    std::shared_ptr<TileCache> cache_;
    std::shared_ptr<Queue> queue_;
    QThreadPool pool_;
    QThreadPool overviewPool_;
    Source base_;
    std::vector<std::unique_ptr<Source>> overlays_;
    QCache<ViewTileKey, CachedTile> tiles_;
    QSet<ViewTileKey> wanted_;
    QSet<ViewTileKey> failed_; ///< undecodable: not requested again
    double zoom_ = 1.0;
    QPointF origin_; ///< level-0 image point at the widget's top-left corner
    quint64 generation_ = 0;
    quint64 completedGeneration_ = ~0ull;
    quint64 retriedGeneration_ = ~0ull;
    quint64 droppedLate_ = 0;
    bool swipe_ = false;
    int solo_ = -1;
    int swipeLeft_ = 0;
    int swipeRight_ = 1;
    double swipePos_ = 0.5;
    bool draggingSwipe_ = false;
    bool panning_ = false;
    QPoint lastMouse_;
    bool fitPending_ = true;
    QString overviewCacheDir_;
    std::unique_ptr<Editable> editable_;
    ViewerTool* tool_ = nullptr;
    /// Scans whose samples are not 8-bit (16-bit, signed, float): once the cursor rests, the
    /// readout adds the values the file stores (one block decode, not on every move).
    QTimer* storedValueTimer_ = nullptr;
    QPoint storedValueAt_;
    QString cursorText_;
};

/// The whole image small, with the viewport rectangle; click or drag to move the view.
class OverviewMap : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewMap(TiledViewer* viewer, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {220, 180}; }
    /// Where the image is drawn inside this widget.
    QRectF imageArea() const;

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void jumpTo(QPointF widgetPoint);
    QPointer<TiledViewer> viewer_;
};

} // namespace fisura::ui
