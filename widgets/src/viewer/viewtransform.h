// Where the image lies in a view: the level-0 image point at the view's top-left corner and
// the screen pixels per level-0 pixel.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSize>

namespace fisura::ui
{

struct ViewTransform {
    QPointF origin;
    double zoom = 1.0;
    QSize size; ///< of the view, in screen pixels

    QPointF toImage(QPointF viewPoint) const { return origin + viewPoint / zoom; }
    QPointF toView(QPointF imagePoint) const { return (imagePoint - origin) * zoom; }
    /// The visible part of the image plane in level-0 coordinates.
    QRectF imageRect() const
    {
        return QRectF(origin, QSizeF(size.width() / zoom, size.height() / zoom));
    }
};

} // namespace fisura::ui
