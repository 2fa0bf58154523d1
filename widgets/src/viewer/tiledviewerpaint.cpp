// TiledViewer, painting: overlay colour tables, the scan and its layers (finest cached tiles over
// coarser ones over the overview), the swipe divider, the scale bar and snapshots.
#include "viewer/tiledviewer.h"

#include <QPainter>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

#include "viewer/tiledviewerprivate.h"

namespace fisura::ui
{

using namespace viewerdetail;

namespace
{
std::atomic<quint64> lutStampCounter{1};

QRgb heat(int v)
{
    // Black-red-yellow-white ramp: monotonic in brightness, readable over grey concrete.
    const double t = v / 255.0;
    const int r = int(std::clamp(t * 3.0, 0.0, 1.0) * 255);
    const int g = int(std::clamp(t * 3.0 - 1.0, 0.0, 1.0) * 255);
    const int b = int(std::clamp(t * 3.0 - 2.0, 0.0, 1.0) * 255);
    return qRgb(r, g, b);
}

QRgb baseColour(ColorMap m, int v)
{
    switch (m) {
    case ColorMap::Red:
        return qRgb(255, 32, 32);
    case ColorMap::Green:
        return qRgb(32, 230, 64);
    case ColorMap::Blue:
        return qRgb(40, 120, 255);
    case ColorMap::Yellow:
        return qRgb(255, 230, 0);
    case ColorMap::Magenta:
        return qRgb(255, 0, 220);
    case ColorMap::Heat:
        return heat(v);
    case ColorMap::WidthClasses: { // class codes 1..4, or scaled to 63, 127, 191, 255
        static const QRgb classes[4] = {qRgb(46, 160, 67), qRgb(230, 190, 0), qRgb(245, 120, 20),
                                        qRgb(215, 30, 40)};
        return classes[std::clamp(v <= 4 ? v - 1 : v / 64, 0, 3)];
    }
    case ColorMap::Custom:
        break;
    }
    return qRgb(255, 0, 0);
}
} // namespace

namespace viewerdetail
{
quint64 nextLutStamp()
{
    return lutStampCounter++;
}

// Colours overlay values through the LUT; outline keeps shown pixels with a hidden neighbour.
QImage colourValues(const QImage& values, const QVector<QRgb>& lut, bool outline, int threshold)
{
    const int w = values.width(), h = values.height();
    QImage out(w, h, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < h; ++y) {
        const uchar* v = values.constScanLine(y);
        const uchar* up = values.constScanLine(std::max(0, y - 1));
        const uchar* dn = values.constScanLine(std::min(h - 1, y + 1));
        auto* d = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w; ++x) {
            QRgb c = lut[v[x]];
            if (outline && c) {
                const bool interior = up[x] >= threshold && dn[x] >= threshold &&
                                      v[std::max(0, x - 1)] >= threshold &&
                                      v[std::min(w - 1, x + 1)] >= threshold;
                if (interior)
                    c = 0;
            }
            d[x] = c;
        }
    }
    return out;
}
} // namespace viewerdetail

QVector<QRgb> overlayLut(const OverlayStyle& style)
{
    QVector<QRgb> lut(256, 0);
    const int a = int(std::clamp(style.opacity, 0.0, 1.0) * 255 + 0.5);
    const QRgb custom = style.color.isValid() ? style.color.rgb() : qRgb(255, 32, 32);
    for (int v = std::clamp(style.threshold, 0, 256); v < 256; ++v) {
        const QRgb c = style.colorMap == ColorMap::Custom ? custom : baseColour(style.colorMap, v);
        lut[v] = qPremultiply(qRgba(qRed(c), qGreen(c), qBlue(c), a));
    }
    return lut;
}

QPixmap TiledViewer::pixmapFor(Source& s, CachedTile* t)
{
    if (!s.overlay)
        return t->pixmap;
    if (t->pixmap.isNull() || t->lutStamp != s.lutStamp) {
        t->pixmap =
            QPixmap::fromImage(colourValues(t->values, s.lut, s.style.outline, s.style.threshold));
        t->lutStamp = s.lutStamp;
    }
    return t->pixmap;
}

void TiledViewer::paintSource(QPainter& p, Source& s, const QRect& clip)
{
    p.save();
    p.setClipRect(clip);
    const Wanted w = wantedFor(s);
    const int levels = s.img->levelCount();
    bool missing = !w.drawTiles;
    if (w.drawTiles)
        for (int ty = w.y0; ty <= w.y1 && !missing; ++ty)
            for (int tx = w.x0; tx <= w.x1 && !missing; ++tx)
                missing = !tiles_.contains(ViewTileKey{s.img->id(), w.level, tx, ty});
    if (missing) {
        // Backdrop: the overview, then whatever coarser tiles are cached, coarsest first.
        const QRectF full(mapFromImage(QPointF(0, 0)),
                          mapFromImage(QPointF(s.img->info().width, s.img->info().height)));
        if (!s.overview.isNull()) {
            if (s.overlay) {
                if (s.overviewStamp != s.lutStamp) {
                    s.overviewPixmap = QPixmap::fromImage(
                        colourValues(s.overview, s.lut, s.style.outline, s.style.threshold));
                    s.overviewStamp = s.lutStamp;
                }
            } else if (s.overviewPixmap.isNull()) {
                s.overviewPixmap = QPixmap::fromImage(s.overview);
            }
            p.drawPixmap(full, s.overviewPixmap, QRectF(s.overviewPixmap.rect()));
        }
        const TiledImageInfo& info = s.img->info();
        const QRectF vr = viewportRect().intersected(QRectF(0, 0, info.width, info.height));
        for (int level = std::min(levels - 1, w.level + 3); level > w.level; --level) {
            const TiledLevel& L = info.levels[size_t(level)];
            const int T = tileSizeFor(s, level);
            const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
            const int x0 = std::max(0, int(vr.left() / sx / T)),
                      x1 = std::min((L.width - 1) / T, int(vr.right() / sx / T));
            const int y0 = std::max(0, int(vr.top() / sy / T)),
                      y1 = std::min((L.height - 1) / T, int(vr.bottom() / sy / T));
            for (int ty = y0; ty <= y1; ++ty)
                for (int tx = x0; tx <= x1; ++tx)
                    if (CachedTile* t = tiles_.object(ViewTileKey{s.img->id(), level, tx, ty})) {
                        const QPixmap pm = pixmapFor(s, t);
                        p.drawPixmap(tileRectOnScreen(s, level, T, tx, ty), pm, pm.rect());
                    }
        }
    }
    if (w.drawTiles)
        for (int ty = w.y0; ty <= w.y1; ++ty)
            for (int tx = w.x0; tx <= w.x1; ++tx)
                if (CachedTile* t = tiles_.object(ViewTileKey{s.img->id(), w.level, tx, ty})) {
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
    const int divider = int(std::lround(swipePos_ * width()));
    for (int i = 0; i < overlayCount(); ++i) {
        Source& s = *overlays_[size_t(i)];
        if (!overlayShown(s))
            continue;
        QRect clip = rect();
        if (swipe_ && i == swipeLeft_)
            clip.setRight(divider - 1);
        else if (swipe_ && i == swipeRight_)
            clip.setLeft(divider);
        paintSource(p, s, clip);
    }
    paintEditable(p);
    if (swipe_)
        drawSwipe(p);
    drawScaleBar(p);
    if (tool_)
        tool_->paint(p);
}

void TiledViewer::drawSwipe(QPainter& p)
{
    const int x = int(std::lround(swipePos_ * width()));
    p.setPen(QPen(Qt::white, 2));
    p.drawLine(x, 0, x, height());
    p.setBrush(Qt::white);
    p.drawEllipse(QPoint(x, height() / 2), 6, 6);
    p.setPen(Qt::white);
    const QString l = overlayName(swipeLeft_), r = overlayName(swipeRight_);
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
