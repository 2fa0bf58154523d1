// TiledViewer, painting: the scan and its layers in the overlay stack's order (finest cached
// tiles over coarser ones over the overview), the label layer, the swipe divider, the scale
// bar, the tool and the decorations; and snapshots.
#include "viewer/tiledviewer.h"

#include <QPainter>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

#include "viewer/tileloadscheduler.h"

namespace fisura::ui
{

QPixmap TiledViewer::pixmapFor(ViewSource& s, LoadedTile* t)
{
    if (!s.overlay)
        return t->pixmap;
    if (t->pixmap.isNull() || t->lutStamp != s.colours.stamp()) {
        t->pixmap = QPixmap::fromImage(s.colours.colour(t->values));
        t->lutStamp = s.colours.stamp();
    }
    return t->pixmap;
}

QRect TiledViewer::tileRectOnScreen(const ViewSource& s, int level, int tile, int tx, int ty) const
{
    const TiledImageInfo& info = s.img->info();
    const TiledLevel& L = info.levels[size_t(level)];
    const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
    // Each edge is rounded on its own, so neighbouring tiles share edges: no seams.
    const auto X = [&](int lx) { return int(std::lround((lx * sx - origin_.x()) * zoom_)); };
    const auto Y = [&](int ly) { return int(std::lround((ly * sy - origin_.y()) * zoom_)); };
    const int l = X(tx * tile), r = X(std::min((tx + 1) * tile, L.width));
    const int t = Y(ty * tile), b = Y(std::min((ty + 1) * tile, L.height));
    return QRect(l, t, r - l, b - t);
}

// Beneath missing tiles: the overview, then whatever coarser tiles are cached, coarsest first.
void TiledViewer::paintBackdrop(QPainter& p, ViewSource& s, const Wanted& w)
{
    const TiledImageInfo& info = s.img->info();
    const QRectF full(mapFromImage(QPointF(0, 0)), mapFromImage(QPointF(info.width, info.height)));
    if (!s.overview.isNull()) {
        if (s.overlay) {
            if (s.overviewStamp != s.colours.stamp()) {
                s.overviewPixmap = QPixmap::fromImage(s.colours.colour(s.overview));
                s.overviewStamp = s.colours.stamp();
            }
        } else if (s.overviewPixmap.isNull()) {
            s.overviewPixmap = QPixmap::fromImage(s.overview);
        }
        p.drawPixmap(full, s.overviewPixmap, QRectF(s.overviewPixmap.rect()));
    }
    const QRectF vr = viewportRect().intersected(QRectF(0, 0, info.width, info.height));
    for (int level = std::min(s.img->levelCount() - 1, w.level + 3); level > w.level; --level) {
        const TiledLevel& L = info.levels[size_t(level)];
        const int T = tileSizeFor(s, level);
        const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
        const int x0 = std::max(0, int(vr.left() / sx / T)),
                  x1 = std::min((L.width - 1) / T, int(vr.right() / sx / T));
        const int y0 = std::max(0, int(vr.top() / sy / T)),
                  y1 = std::min((L.height - 1) / T, int(vr.bottom() / sy / T));
        for (int ty = y0; ty <= y1; ++ty)
            for (int tx = x0; tx <= x1; ++tx)
                if (LoadedTile* t = loader_->tile(ViewTileKey{s.img->id(), level, tx, ty})) {
                    const QPixmap pm = pixmapFor(s, t);
                    p.drawPixmap(tileRectOnScreen(s, level, T, tx, ty), pm, pm.rect());
                }
    }
}

void TiledViewer::paintSource(QPainter& p, ViewSource& s, const QRect& clip)
{
    p.save();
    p.setClipRect(clip);
    const Wanted w = wantedFor(s);
    bool missing = !w.drawTiles;
    if (w.drawTiles)
        for (int ty = w.y0; ty <= w.y1 && !missing; ++ty)
            for (int tx = w.x0; tx <= w.x1 && !missing; ++tx)
                missing = !loader_->isLoaded(ViewTileKey{s.img->id(), w.level, tx, ty});
    if (missing)
        paintBackdrop(p, s, w);
    if (w.drawTiles)
        for (int ty = w.y0; ty <= w.y1; ++ty)
            for (int tx = w.x0; tx <= w.x1; ++tx)
                if (LoadedTile* t = loader_->tile(ViewTileKey{s.img->id(), w.level, tx, ty})) {
                    const QPixmap pm = pixmapFor(s, t);
                    p.drawPixmap(tileRectOnScreen(s, w.level, w.tile, tx, ty), pm, pm.rect());
                }
    p.restore();
}

void TiledViewer::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(48, 48, 48));
    if (!hasImage()) {
        p.setPen(QColor(200, 200, 200));
        p.drawText(rect(), Qt::AlignCenter, tr("Open a scan to inspect it."));
        return;
    }
    // Smooth when shrinking (no aliasing), nearest when enlarging (the user sees pixels).
    const int level = currentLevel();
    const double drawn = zoom_ * base_.img->info().levels[size_t(level)].downsample;
    p.setRenderHint(QPainter::SmoothPixmapTransform, drawn < 0.999);
    paintSource(p, base_, rect());
    for (const OverlayStack::Draw& d : layers_->drawOrder(rect()))
        paintSource(p, layers_->at(d.layer), d.clip);
    if (EditableLayer* e = layers_->editable())
        e->paint(p, view());
    if (layers_->swipe())
        drawSwipe(p);
    drawScaleBar(p);
    if (tool_)
        tool_->paint(p);
    for (ViewerDecoration* d : layers_->decorations()) {
        p.save();
        d->paint(p);
        p.restore();
    }
}

void TiledViewer::drawSwipe(QPainter& p)
{
    const int x = layers_->dividerX(width());
    p.setPen(QPen(Qt::white, 2));
    p.drawLine(x, 0, x, height());
    p.setBrush(Qt::white);
    p.drawEllipse(QPoint(x, height() / 2), 6, 6);
    p.setPen(Qt::white);
    const QString l = overlayName(layers_->swipeLeft()), r = overlayName(layers_->swipeRight());
    p.drawText(QRect(0, 4, x - 8, 20), Qt::AlignRight, l);
    p.drawText(QRect(x + 8, 4, width() - x - 8, 20), Qt::AlignLeft, r);
}

void TiledViewer::drawScaleBar(QPainter& p)
{
    const double mm = pixelSizeMm();
    if (mm <= 0)
        return;
    const double mmPerScreenPx = mm / zoom_;
    const double target = 120 * mmPerScreenPx;
    const double e = std::pow(10.0, std::floor(std::log10(target)));
    double nice = e;
    for (double m : {2.0, 5.0, 10.0})
        if (m * e <= target)
            nice = m * e;
    const int len = int(std::lround(nice / mmPerScreenPx));
    const QString label = nice >= 1000 ? tr("%1 m").arg(nice / 1000.0) : tr("%1 mm").arg(nice);
    const QRect box(10, height() - 38, len + 20, 28);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(box, QColor(255, 255, 255, 200));
    p.fillRect(QRect(box.left() + 10, box.bottom() - 8, len, 4), Qt::black);
    p.setPen(Qt::black);
    p.drawText(QRect(box.left(), box.top() + 1, box.width(), 16), Qt::AlignCenter, label);
}

QImage TiledViewer::snapshot()
{
    return grab().toImage();
}

Status TiledViewer::saveSnapshot(const QString& path)
{
    const QImage img = snapshot();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Status(ErrorCode::IoError,
                      path.toStdString() + ": " + f.errorString().toStdString());
    if (!img.save(&f, "PNG") || !f.commit())
        return Status(ErrorCode::IoError,
                      path.toStdString() + ": " + f.errorString().toStdString());
    return {};
}

} // namespace fisura::ui
