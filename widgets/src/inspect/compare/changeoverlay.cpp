#include "inspect/compare/changeoverlay.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>

#include "inspect/compare/changetext.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

ChangeOverlay::ChangeOverlay(TiledViewer* viewer) : ViewerDecoration(viewer), viewer_(viewer)
{
    setObjectName(QStringLiteral("changeOverlay"));
}

void ChangeOverlay::update()
{
    if (viewer_)
        viewer_->update();
}

void ChangeOverlay::setResult(std::shared_ptr<const ChangeResult> result)
{
    result_ = std::move(result);
    selected_ = -1;
    update();
}

void ChangeOverlay::setShown(bool on)
{
    shown_ = on;
    update();
}

void ChangeOverlay::setSelected(int index)
{
    selected_ = result_ && index >= 0 && size_t(index) < result_->changes.size() ? index : -1;
    update();
}

void ChangeOverlay::zoomTo(int index)
{
    setSelected(index);
    if (selected_ < 0 || !viewer_ || viewer_->width() <= 0)
        return;
    const PixelBox& b = result_->changes[size_t(index)].box;
    const double w = std::max(16.0, b.width * 1.4), h = std::max(16.0, b.height * 1.4);
    const double zoom = std::min({viewer_->width() / w, viewer_->height() / h, 8.0});
    viewer_->showAt(QPointF(b.x + b.width / 2.0, b.y + b.height / 2.0), zoom);
}

QRectF ChangeOverlay::screenBox(const PixelBox& b) const
{
    return QRectF(viewer_->mapFromImage(QPointF(b.x, b.y)),
                  viewer_->mapFromImage(QPointF(b.x + b.width, b.y + b.height)));
}

void ChangeOverlay::paint(QPainter& p)
{
    if (!result_ || !viewer_ || !shown_)
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(Qt::NoBrush);
    for (size_t i = 0; i < result_->changes.size(); ++i) {
        const CrackChange& c = result_->changes[i];
        const bool sel = int(i) == selected_;
        const QRectF box = screenBox(c.box).adjusted(-3, -3, 3, 3);
        // A dark halo keeps the colour readable over bright and dark concrete.
        p.setPen(QPen(QColor(0, 0, 0, 150), sel ? 6 : 4));
        p.drawRect(box);
        p.setPen(QPen(ChangeText::kindColour(c.kind), sel ? 4 : 2,
                      c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside ? Qt::DashLine
                                                                                  : Qt::SolidLine));
        p.drawRect(box);
    }
    paintLegend(p);
    p.restore();
}

void ChangeOverlay::paintLegend(QPainter& p)
{
    const QFontMetrics fm = viewer_->fontMetrics();
    const QLocale l;
    QStringList lines;
    int wide = 0;
    for (int k = 0; k < 5; ++k) {
        lines << tr("%1 (%2)").arg(ChangeText::kindName(ChangeKind(k)),
                                   l.toString(result_->totals[size_t(k)].count));
        wide = std::max(wide, fm.horizontalAdvance(lines.back()));
    }
    const int row = fm.height() + 4;
    const QRectF frame(8, viewer_->height() - 8 - 5 * row - 8, wide + 36, 5 * row + 8);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0, 0, 0, 170));
    p.drawRoundedRect(frame, 4, 4);
    for (int k = 0; k < 5; ++k) {
        const double y = frame.top() + 4 + k * row;
        p.setBrush(ChangeText::kindColour(ChangeKind(k)));
        p.setPen(Qt::NoPen);
        p.drawRect(QRectF(frame.left() + 6, y + 3, 14, row - 8));
        p.setPen(Qt::white);
        p.drawText(QRectF(frame.left() + 26, y, wide + 6, row), Qt::AlignVCenter | Qt::AlignLeft,
                   lines[k]);
    }
}

} // namespace fisura::ui
