// A map-like viewer for scans of any size: only the visible blocks of the right pyramid level are
// decoded, on worker threads, by its TileLoadScheduler (newest request first, stale requests
// replaced, late results dropped). While fine tiles load, coarser levels and an overview image
// are drawn scaled beneath them, so the view is never blank. The layers above the scan live in
// its OverlayStack: map overlays coloured through a lookup table (threshold, colour map and
// opacity changes need no recomputation), the editable label layer and the decorations. The
// widget itself holds the view transform, paints, and turns input into pan and zoom.
#pragma once

#include <QImage>
#include <QThreadPool>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

#include "fisura/status.h"
#include "fisura/tilecache.h"
#include "fisura/tiledimage.h"
#include "viewer/editablelayer.h"
#include "viewer/overlaystack.h"
#include "viewer/overlaystyle.h"
#include "viewer/viewertool.h"
#include "viewer/viewtilecache.h"
#include "viewer/viewtransform.h"

class QKeyEvent;
class QMouseEvent;
class QPainter;

namespace fisura::ui
{

class TileLoadScheduler;
struct LoadedTile;

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
    int overlayCount() const;
    QString overlayName(int i) const;
    QString overlayPath(int i) const;
    /// Draw only overlay `i` (side-by-side comparison); -1 draws every visible overlay.
    void setSoloOverlay(int i);
    int soloOverlay() const;
    OverlayStyle overlayStyle(int i) const;
    void setOverlayStyle(int i, const OverlayStyle& style);
    /// Drawing order: layer 0 is drawn first (bottom).
    void moveOverlay(int from, int to);
    void removeOverlay(int i);

    /// Swipe comparison: layer `left` only left of the divider, layer `right` only right of it.
    void setSwipe(bool on, int left = 0, int right = 1);
    bool swipeEnabled() const;
    /// Divider position as a fraction of the width.
    void setSwipePosition(double fraction);
    double swipePosition() const;

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
    QRectF viewportRect() const { return view().imageRect(); }
    QPointF mapToImage(QPointF widgetPoint) const { return view().toImage(widgetPoint); }
    QPointF mapFromImage(QPointF imagePoint) const { return view().toView(imagePoint); }

    /// The overview (whole image, at most 2048 px a side); null until built.
    QImage overview() const { return base_.overview; }
    bool overviewReady() const { return !base_.overview.isNull(); }
    /// Level drawn at the current zoom.
    int currentLevel() const;
    /// True when every tile the current view wants is decoded and cached.
    bool frameComplete() const;
    ViewerStats stats() const;
    std::shared_ptr<TileCache> tileCache() const { return cache_; }
    /// Budget of the GUI-side pixmap cache (bytes); the tiles in view may exceed it.
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
    /// Puts `d` on top of the decorations (ViewerDecoration's constructor does).
    void addDecoration(ViewerDecoration* d);

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
    /// The tiles of one source the view wants: one level, a range of tiles.
    struct Wanted {
        int level = 0;
        int tile = 256;
        int x0 = 0, y0 = 0, x1 = -1, y1 = -1; ///< tile range, inclusive
        bool drawTiles = true;                ///< false: too many tiles, backdrop only
    };

    ViewTransform view() const { return {origin_, zoom_, size()}; }
    Result<std::shared_ptr<TiledImage>> openTiled(const QString& path) const;
    void setView(double zoom, QPointF origin);
    void refreshView() { setView(zoom_, origin_); }
    void clampView();
    void updateRequests();
    Wanted wantedFor(const ViewSource& s) const;
    int tileSizeFor(const ViewSource& s, int level) const;
    QRect tileRectOnScreen(const ViewSource& s, int level, int tile, int tx, int ty) const;
    void paintSource(QPainter& p, ViewSource& s, const QRect& clip);
    void paintBackdrop(QPainter& p, ViewSource& s, const Wanted& w);
    QPixmap pixmapFor(ViewSource& s, LoadedTile* t);
    void startOverview(ViewSource& s);
    void overviewArrived(quint64 file, const QImage& overview);
    void drawScaleBar(QPainter& p);
    void drawSwipe(QPainter& p);
    void reportCursor(QPointF widgetPoint);
    void reportStoredValues();
    /// The scan, then every overlay, bottom to top.
    std::vector<ViewSource*> sources();

    std::shared_ptr<TileCache> cache_;
    std::unique_ptr<TileLoadScheduler> loader_;
    std::unique_ptr<OverlayStack> layers_;
    QThreadPool overviewPool_;
    ViewSource base_;
    double zoom_ = 1.0;
    QPointF origin_; ///< level-0 image point at the widget's top-left corner
    bool draggingSwipe_ = false;
    bool panning_ = false;
    QPoint lastMouse_;
    bool fitPending_ = true;
    QString overviewCacheDir_;
    ViewerTool* tool_ = nullptr;
    /// Scans whose samples are not 8-bit (16-bit, signed, float): once the cursor rests, the
    /// readout adds the values the file stores (one block decode, not on every move).
    QTimer* storedValueTimer_ = nullptr;
    QPoint storedValueAt_;
    QString cursorText_;
};

} // namespace fisura::ui
