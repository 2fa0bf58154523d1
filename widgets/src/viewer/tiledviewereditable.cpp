// TiledViewer, the editable layer: an in-memory overlay (labels being drawn) above the map
// overlays. Zoomed in, its level-0 tiles are read from the source when first drawn and cached as
// coloured pixmaps; zoomed out, its overview is drawn. An edit drops the tiles it touches and
// patches the overview cells it covers, so a stroke never rereads the whole layer.
#include "viewer/tiledviewer.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

#include "viewer/tiledviewerprivate.h"

namespace fisura::ui
{

using namespace viewerdetail;

namespace
{
constexpr int kEditTile = 512;
constexpr int kEditOverviewSide = 2048;
// Zoomed out so far that more level-0 pixels than this are in view: the overview is drawn.
constexpr qint64 kEditMaxViewPixels = 12ll * 1024 * 1024;
// A change larger than this rebuilds the overview from the source instead of patching it.
constexpr qint64 kPatchMaxPixels = 16ll * 1024 * 1024;

quint64 tileKey(int tx, int ty)
{
    return (quint64(quint32(ty)) << 32) | quint32(tx);
}
} // namespace

void TiledViewer::setEditableOverlay(std::shared_ptr<EditableOverlaySource> source,
                                     const OverlayStyle& style)
{
    if (!source) {
        editable_.reset();
        update();
        return;
    }
    editable_ = std::make_unique<Editable>();
    editable_->source = std::move(source);
    editable_->tiles.setMaxCost(96ll << 20);
    setEditableOverlayStyle(style);
}

bool TiledViewer::hasEditableOverlay() const
{
    return bool(editable_);
}

OverlayStyle TiledViewer::editableOverlayStyle() const
{
    return editable_ ? editable_->style : OverlayStyle();
}

void TiledViewer::setEditableOverlayStyle(const OverlayStyle& style)
{
    if (!editable_)
        return;
    editable_->style = style;
    editable_->lut = overlayLut(style);
    editable_->lutStamp = nextLutStamp();
    update();
}

void TiledViewer::editableOverlayChanged(const QRect& region)
{
    if (!editable_)
        return;
    Editable& e = *editable_;
    const QSize size = e.source->size();
    const QRect r = region.intersected(QRect(QPoint(0, 0), size));
    if (r.isEmpty())
        return;
    for (int ty = r.top() / kEditTile; ty <= r.bottom() / kEditTile; ++ty)
        for (int tx = r.left() / kEditTile; tx <= r.right() / kEditTile; ++tx)
            e.tiles.remove(tileKey(tx, ty));
    if (!e.overview.isNull()) {
        const int ow = e.overview.width(), oh = e.overview.height();
        if (qint64(r.width()) * r.height() > kPatchMaxPixels) {
            e.overview = QImage(); // rebuilt when next drawn
        } else {
            // Overview cell of level-0 x is x * ow / width (as the source builds it). Reread the
            // level-0 span of every cell the change touches and take its maximum again.
            const int cx0 = int(qint64(r.left()) * ow / size.width());
            const int cx1 = int(qint64(r.right()) * ow / size.width());
            const int cy0 = int(qint64(r.top()) * oh / size.height());
            const int cy1 = int(qint64(r.bottom()) * oh / size.height());
            const auto first = [](int cell, int full, int cells) {
                return int((qint64(cell) * full + cells - 1) / cells);
            };
            const int x0 = first(cx0, size.width(), ow);
            const int x1 = std::min(size.width(), first(cx1 + 1, size.width(), ow));
            const int y0 = first(cy0, size.height(), oh);
            const int y1 = std::min(size.height(), first(cy1 + 1, size.height(), oh));
            const QImage v = e.source->readRegion(QRect(x0, y0, x1 - x0, y1 - y0));
            if (v.isNull()) {
                e.overview = QImage();
            } else {
                for (int y = cy0; y <= cy1; ++y)
                    std::fill_n(e.overview.scanLine(y) + cx0, cx1 - cx0 + 1, uchar(0));
                for (int y = 0; y < v.height(); ++y) {
                    const uchar* s = v.constScanLine(y);
                    uchar* d = e.overview.scanLine(int(qint64(y0 + y) * oh / size.height()));
                    for (int x = 0; x < v.width(); ++x) {
                        uchar& c = d[int(qint64(x0 + x) * ow / size.width())];
                        c = std::max(c, s[x]);
                    }
                }
            }
        }
        e.overviewStamp = ~0ull;
    }
    e.overviewFailed = false;
    update(QRectF(mapFromImage(r.topLeft()), mapFromImage(r.bottomRight() + QPoint(1, 1)))
               .toAlignedRect()
               .adjusted(-2, -2, 2, 2));
}

void TiledViewer::paintEditable(QPainter& p)
{
    if (!editable_ || !editable_->style.visible || !hasImage())
        return;
    Editable& e = *editable_;
    const QSize size = e.source->size();
    const QRectF vr = viewportRect().intersected(QRectF(QPointF(0, 0), QSizeF(size)));
    if (vr.isEmpty())
        return;
    p.save();
    const bool tiles = vr.width() * vr.height() <= double(kEditMaxViewPixels);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (!tiles) {
        if (e.overview.isNull() && !e.overviewFailed) {
            e.overview = e.source->overview(kEditOverviewSide);
            e.overviewFailed = e.overview.isNull();
            if (!e.overview.isNull())
                e.overview = e.overview.convertToFormat(QImage::Format_Grayscale8);
            e.overviewStamp = ~0ull;
        }
        if (!e.overview.isNull()) {
            if (e.overviewStamp != e.lutStamp) {
                e.overviewPixmap = QPixmap::fromImage(
                    colourValues(e.overview, e.lut, e.style.outline, e.style.threshold));
                e.overviewStamp = e.lutStamp;
            }
            const QRectF full(mapFromImage(QPointF(0, 0)),
                              mapFromImage(QPointF(size.width(), size.height())));
            p.drawPixmap(full, e.overviewPixmap, QRectF(e.overviewPixmap.rect()));
        }
        p.restore();
        return;
    }
    const int tx0 = int(vr.left()) / kEditTile, tx1 = int(std::ceil(vr.right()) - 1) / kEditTile;
    const int ty0 = int(vr.top()) / kEditTile, ty1 = int(std::ceil(vr.bottom()) - 1) / kEditTile;
    for (int ty = ty0; ty <= ty1; ++ty)
        for (int tx = tx0; tx <= tx1; ++tx) {
            const QRect tileRect = QRect(tx * kEditTile, ty * kEditTile, kEditTile, kEditTile)
                                       .intersected(QRect(QPoint(0, 0), size));
            Editable::Tile* t = e.tiles.object(tileKey(tx, ty));
            if (!t) {
                // The source is in memory (or a mask file beside the image): read at once.
                QImage v = e.source->readRegion(tileRect);
                if (v.isNull())
                    continue;
                t = new Editable::Tile;
                t->values = v.convertToFormat(QImage::Format_Grayscale8);
                e.tiles.insert(tileKey(tx, ty), t,
                               qint64(tileRect.width()) * tileRect.height() * 5);
                t = e.tiles.object(tileKey(tx, ty));
                if (!t)
                    continue;
            }
            if (t->pixmap.isNull() || t->lutStamp != e.lutStamp) {
                t->pixmap = QPixmap::fromImage(
                    colourValues(t->values, e.lut, e.style.outline, e.style.threshold));
                t->lutStamp = e.lutStamp;
            }
            const QPointF a = mapFromImage(tileRect.topLeft());
            const QPointF b = mapFromImage(tileRect.bottomRight() + QPoint(1, 1));
            const QRect onScreen(QPoint(int(std::lround(a.x())), int(std::lround(a.y()))),
                                 QPoint(int(std::lround(b.x())) - 1, int(std::lround(b.y())) - 1));
            p.drawPixmap(onScreen, t->pixmap, t->pixmap.rect());
        }
    p.restore();
}

} // namespace fisura::ui
