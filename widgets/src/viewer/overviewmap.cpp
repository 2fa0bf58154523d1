#include "viewer/overviewmap.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

#include "viewer/tiledviewer.h"

namespace fisura::ui
{

OverviewMap::OverviewMap(TiledViewer* viewer, QWidget* parent) : QWidget(parent), viewer_(viewer)
{
    setObjectName(QStringLiteral("overviewMap"));
    setMinimumSize(120, 90);
    const auto refresh = [this] { update(); };
    connect(viewer, &TiledViewer::viewChanged, this, refresh);
    connect(viewer, &TiledViewer::overviewBuilt, this, refresh);
    connect(viewer, &TiledViewer::imageOpened, this, refresh);
}

QRectF OverviewMap::imageArea() const
{
    if (!viewer_ || !viewer_->hasImage())
        return {};
    const QSizeF s = viewer_->imageSize();
    const QRectF box = QRectF(rect()).adjusted(4, 4, -4, -4);
    const double k = std::min(box.width() / s.width(), box.height() / s.height());
    const QSizeF d = s * k;
    return QRectF(box.center() - QPointF(d.width() / 2, d.height() / 2), d);
}

void OverviewMap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRectF area = imageArea();
    if (area.isEmpty())
        return;
    const QImage ov = viewer_->overview();
    if (ov.isNull())
        p.fillRect(area, QColor(90, 90, 90));
    else {
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        p.drawImage(area, ov);
    }
    const double k = area.width() / viewer_->imageSize().width();
    const QRectF vr = viewer_->viewportRect();
    const QRectF r(area.topLeft() + vr.topLeft() * k, vr.size() * k);
    p.setPen(QPen(QColor(255, 60, 60), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.intersected(area.adjusted(-1, -1, 1, 1)));
}

void OverviewMap::jumpTo(QPointF pt)
{
    const QRectF area = imageArea();
    if (area.isEmpty())
        return;
    const double k = area.width() / viewer_->imageSize().width();
    viewer_->centerOn((pt - area.topLeft()) / k);
}

void OverviewMap::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton)
        jumpTo(e->position());
}

void OverviewMap::mouseMoveEvent(QMouseEvent* e)
{
    if (e->buttons() & Qt::LeftButton)
        jumpTo(e->position());
}

} // namespace fisura::ui
