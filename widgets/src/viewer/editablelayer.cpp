#include "viewer/editablelayer.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

#include "viewer/viewerbudgets.h"

namespace fisura::ui
{

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

EditableLayer::EditableLayer(std::shared_ptr<EditableOverlaySource> source,
                             const OverlayStyle& style)
    : source_(std::move(source)), colours_(style)
{
    tiles_.setMaxCost(kEditableTileCacheBytes);
}

void EditableLayer::changed(const QRect& region)
{
    const QSize size = source_->size();
    const QRect r = region.intersected(QRect(QPoint(0, 0), size));
    if (r.isEmpty())
        return;
    for (int ty = r.top() / kEditTile; ty <= r.bottom() / kEditTile; ++ty)
        for (int tx = r.left() / kEditTile; tx <= r.right() / kEditTile; ++tx)
            tiles_.remove(tileKey(tx, ty));
    if (!overview_.isNull()) {
        if (qint64(r.width()) * r.height() > kPatchMaxPixels)
            overview_ = QImage(); // rebuilt when next drawn
        else
            patchOverview(r);
        overviewStamp_ = ~0ull;
    }
    overviewFailed_ = false;
}

void EditableLayer::patchOverview(const QRect& r)
{
    // Overview cell of level-0 x is x * ow / width (as the source builds it). Reread the level-0
    // span of every cell the change touches and take its maximum again.
    const QSize size = source_->size();
    const int ow = overview_.width(), oh = overview_.height();
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
    const QImage v = source_->readRegion(QRect(x0, y0, x1 - x0, y1 - y0));
    if (v.isNull()) {
        overview_ = QImage();
        return;
    }
    for (int y = cy0; y <= cy1; ++y)
        std::fill_n(overview_.scanLine(y) + cx0, cx1 - cx0 + 1, uchar(0));
    for (int y = 0; y < v.height(); ++y) {
        const uchar* s = v.constScanLine(y);
        uchar* d = overview_.scanLine(int(qint64(y0 + y) * oh / size.height()));
        for (int x = 0; x < v.width(); ++x) {
            uchar& c = d[int(qint64(x0 + x) * ow / size.width())];
            c = std::max(c, s[x]);
        }
    }
}

void EditableLayer::paint(QPainter& p, const ViewTransform& view)
{
    if (!style().visible)
        return;
    const QSize size = source_->size();
    const QRectF vr = view.imageRect().intersected(QRectF(QPointF(0, 0), QSizeF(size)));
    if (vr.isEmpty())
        return;
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (vr.width() * vr.height() > double(kEditMaxViewPixels)) {
        paintOverview(p, view);
    } else {
        const int tx0 = int(vr.left()) / kEditTile;
        const int tx1 = int(std::ceil(vr.right()) - 1) / kEditTile;
        const int ty0 = int(vr.top()) / kEditTile;
        const int ty1 = int(std::ceil(vr.bottom()) - 1) / kEditTile;
        for (int ty = ty0; ty <= ty1; ++ty)
            for (int tx = tx0; tx <= tx1; ++tx)
                paintTile(p, view, tx, ty);
    }
    p.restore();
}

void EditableLayer::paintOverview(QPainter& p, const ViewTransform& view)
{
    if (overview_.isNull() && !overviewFailed_) {
        overview_ = source_->overview(kEditOverviewSide);
        overviewFailed_ = overview_.isNull();
        if (!overview_.isNull())
            overview_ = overview_.convertToFormat(QImage::Format_Grayscale8);
        overviewStamp_ = ~0ull;
    }
    if (overview_.isNull())
        return;
    if (overviewStamp_ != colours_.stamp()) {
        overviewPixmap_ = QPixmap::fromImage(colours_.colour(overview_));
        overviewStamp_ = colours_.stamp();
    }
    const QSize size = source_->size();
    const QRectF full(view.toView(QPointF(0, 0)),
                      view.toView(QPointF(size.width(), size.height())));
    p.drawPixmap(full, overviewPixmap_, QRectF(overviewPixmap_.rect()));
}

void EditableLayer::paintTile(QPainter& p, const ViewTransform& view, int tx, int ty)
{
    const QRect tileRect = QRect(tx * kEditTile, ty * kEditTile, kEditTile, kEditTile)
                               .intersected(QRect(QPoint(0, 0), source_->size()));
    Tile* t = tiles_.object(tileKey(tx, ty));
    if (!t) {
        // The source is in memory (or a mask file beside the image): read at once.
        QImage v = source_->readRegion(tileRect);
        if (v.isNull())
            return;
        t = new Tile;
        t->values = v.convertToFormat(QImage::Format_Grayscale8);
        tiles_.insert(tileKey(tx, ty), t, qint64(tileRect.width()) * tileRect.height() * 5);
        t = tiles_.object(tileKey(tx, ty));
        if (!t)
            return;
    }
    if (t->pixmap.isNull() || t->lutStamp != colours_.stamp()) {
        t->pixmap = QPixmap::fromImage(colours_.colour(t->values));
        t->lutStamp = colours_.stamp();
    }
    const QPointF a = view.toView(tileRect.topLeft());
    const QPointF b = view.toView(tileRect.bottomRight() + QPoint(1, 1));
    const QRect onScreen(QPoint(int(std::lround(a.x())), int(std::lround(a.y()))),
                         QPoint(int(std::lround(b.x())) - 1, int(std::lround(b.y())) - 1));
    p.drawPixmap(onScreen, t->pixmap, t->pixmap.rect());
}

} // namespace fisura::ui
