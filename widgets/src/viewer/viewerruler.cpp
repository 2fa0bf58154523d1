#include "viewer/viewerruler.h"

#include <QLineF>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

#include "viewer/tiledviewer.h"

namespace fisura::ui
{

ViewerRuler::ViewerRuler(TiledViewer* viewer) : ViewerDecoration(viewer), viewer_(viewer)
{
    setObjectName(QStringLiteral("viewerRuler"));
    viewer->installEventFilter(this);
    connect(viewer, &TiledViewer::imageOpened, this, &ViewerRuler::clear);
}

void ViewerRuler::update()
{
    if (viewer_)
        viewer_->update();
}

void ViewerRuler::setActive(bool on)
{
    active_ = on;
    dragging_ = false;
    if (viewer_)
        viewer_->setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
    update();
}

double ViewerRuler::lengthPx() const
{
    return hasLine_ ? QLineF(a_, b_).length() : 0.0;
}

double ViewerRuler::lengthMm() const
{
    const double mm = viewer_ ? viewer_->pixelSizeMm() : 0.0;
    return mm > 0 ? lengthPx() * mm : -1.0;
}

QString ViewerRuler::text() const
{
    if (!hasLine_)
        return {};
    const QLocale l;
    const double mm = lengthMm();
    if (mm < 0)
        return tr("%1 px").arg(l.toString(lengthPx(), 'f', 1));
    if (mm >= 1000)
        return tr("%1 m").arg(l.toString(mm / 1000.0, 'f', 3));
    return tr("%1 mm").arg(l.toString(mm, 'f', mm < 10 ? 2 : 1));
}

void ViewerRuler::clear()
{
    hasLine_ = dragging_ = false;
    update();
}

bool ViewerRuler::eventFilter(QObject* watched, QEvent* e)
{
    // While the viewer is being destroyed, QWidget's destructor still sends it events (focus
    // out) and it is no longer a TiledViewer: qobject_cast says so, whereas comparing with the
    // QPointer<TiledViewer> would downcast it (undefined behaviour, found by UBSan).
    if (!qobject_cast<TiledViewer*>(watched) || watched != viewer_)
        return false;
    if (!active_ || !viewer_->hasImage())
        return false;
    switch (e->type()) {
    case QEvent::MouseButtonPress: {
        auto* me = static_cast<QMouseEvent*>(e);
        if (me->button() != Qt::LeftButton)
            return false;
        a_ = b_ = viewer_->mapToImage(me->position());
        dragging_ = hasLine_ = true;
        update();
        return true;
    }
    case QEvent::MouseMove: {
        if (!dragging_)
            return false;
        b_ = viewer_->mapToImage(static_cast<QMouseEvent*>(e)->position());
        update();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* me = static_cast<QMouseEvent*>(e);
        if (!dragging_ || me->button() != Qt::LeftButton)
            return false;
        b_ = viewer_->mapToImage(me->position());
        dragging_ = false;
        update();
        Q_EMIT measured(lengthPx(), lengthMm());
        return true;
    }
    default:
        return false;
    }
}

void ViewerRuler::paint(QPainter& p)
{
    if (!hasLine_ || !viewer_)
        return;
    p.setRenderHint(QPainter::Antialiasing);
    const QPointF a = viewer_->mapFromImage(a_), b = viewer_->mapFromImage(b_);
    const QLineF line(a, b);
    // Ticks across both ends.
    QLineF normal =
        line.length() > 0 ? line.normalVector().unitVector() : QLineF(a, a + QPointF(0, 1));
    const QPointF n = (normal.p2() - normal.p1()) * 6.0;
    for (int pass = 0; pass < 2; ++pass) {
        p.setPen(QPen(pass == 0 ? QColor(0, 0, 0, 160) : QColor(255, 235, 60), pass == 0 ? 4 : 2));
        p.drawLine(line);
        p.drawLine(a - n, a + n);
        p.drawLine(b - n, b + n);
    }
    const QString label = text();
    QFont f = viewer_->font();
    f.setBold(true);
    p.setFont(f);
    const QRectF box = QFontMetricsF(f).boundingRect(label).adjusted(-5, -3, 5, 3);
    const QPointF at = (a + b) / 2.0 + QPointF(10, -10);
    const QRectF r(at, box.size());
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0, 0, 0, 170));
    p.drawRoundedRect(r, 4, 4);
    p.setPen(Qt::white);
    p.drawText(r, Qt::AlignCenter, label);
}

} // namespace fisura::ui
