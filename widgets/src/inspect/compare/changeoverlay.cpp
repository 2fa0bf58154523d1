#include "inspect/compare/changeoverlay.h"

#include <QLocale>
#include <QPainter>
#include <QPolygonF>

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

QPolygonF ChangeOverlay::screenLine(const std::vector<CentrePoint>& line) const
{
    QPolygonF out;
    out.reserve(int(line.size()));
    for (const CentrePoint& c : line)
        out << viewer_->mapFromImage(QPointF(c.x, c.y));
    return out;
}

void ChangeOverlay::paintChange(QPainter& p, const CrackChange& c, bool selected)
{
    // Screen pixels (the painter is not scaled), so the lines read the same at every zoom.
    const double width = (c.kind == ChangeKind::Unchanged ? 1.5 : 2.5) + (selected ? 2 : 0);
    const bool earlier = c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside;
    const QColor colour = ChangeText::kindColour(c.kind);
    const auto stroke = [&](const std::vector<std::vector<CentrePoint>>& lines, double w,
                            Qt::PenStyle style) {
        // A dark halo keeps the colour readable over bright and dark concrete.
        QPen halo(QColor(0, 0, 0, 150), w + 2.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        QPen pen(colour, w, style, Qt::FlatCap, Qt::RoundJoin);
        halo.setCosmetic(true);
        pen.setCosmetic(true);
        for (const QPen& pn : {halo, pen}) {
            p.setPen(pn);
            for (const auto& l : lines)
                if (l.size() == 1)
                    p.drawPoint(viewer_->mapFromImage(QPointF(l[0].x, l[0].y)));
                else
                    p.drawPolyline(screenLine(l));
        }
    };
    const QRectF box = screenBox(c.box).adjusted(-3, -3, 3, 3);
    if (!box.adjusted(-8, -8, 8, 8).intersects(QRectF(viewer_->rect())))
        return;            // out of view
    if (c.lines.empty()) { // nothing to draw along: the box
        p.setPen(QPen(colour, width, earlier ? Qt::DashLine : Qt::SolidLine));
        p.drawRect(box);
        return;
    }
    stroke(c.lines, width, earlier ? Qt::DashLine : Qt::SolidLine);
    if (c.kind == ChangeKind::Grown)
        stroke(c.grownLines, width + 2.5, Qt::SolidLine); // what it gained, bolder
}

void ChangeOverlay::paint(QPainter& p)
{
    if (!result_ || !viewer_ || !shown_)
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(Qt::NoBrush);
    for (size_t i = 0; i < result_->changes.size(); ++i)
        if (int(i) != selected_)
            paintChange(p, result_->changes[i], false);
    if (selected_ >= 0) // on top of the others
        paintChange(p, result_->changes[size_t(selected_)], true);
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
