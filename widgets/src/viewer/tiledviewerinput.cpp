// TiledViewer, input: wheel, gestures, mouse and keys pan and zoom (a tool takes them first),
// the swipe divider is dragged, and the cursor's position and pixel values are reported.
#include "viewer/tiledviewer.h"

#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QStringList>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace fisura::ui
{

namespace
{
QString pixelText(const Image& b, int x, int y)
{
    const uint8_t* p = b.row(y) + size_t(x) * b.channels;
    if (b.channels == 1)
        return QString::number(p[0]);
    QStringList parts;
    for (int c = 0; c < b.channels; ++c)
        parts << QString::number(p[c]);
    return parts.join(QLatin1Char(','));
}
} // namespace

void TiledViewer::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0)
        setZoom(zoom_ * std::pow(1.25, steps), e->position());
    e->accept();
}

bool TiledViewer::event(QEvent* e)
{
    if (e->type() == QEvent::NativeGesture) {
        auto* g = static_cast<QNativeGestureEvent*>(e);
        if (g->gestureType() == Qt::ZoomNativeGesture) {
            setZoom(zoom_ * (1.0 + g->value()), g->position());
            return true;
        }
    }
    return QWidget::event(e);
}

void TiledViewer::mousePressEvent(QMouseEvent* e)
{
    if (tool_ && hasImage() && tool_->mousePress(e))
        return;
    // The middle button always pans, so a tool that takes the left button can still move around.
    if (e->button() != Qt::LeftButton && e->button() != Qt::MiddleButton)
        return;
    const int x = layers_->dividerX(width());
    if (layers_->swipe() && e->button() == Qt::LeftButton && std::abs(e->position().x() - x) <= 8)
        draggingSwipe_ = true;
    else
        panning_ = true;
    lastMouse_ = e->position().toPoint();
}

void TiledViewer::mouseMoveEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (tool_ && hasImage() && !panning_ && !draggingSwipe_ && tool_->mouseMove(e)) {
        lastMouse_ = pos;
        reportCursor(e->position());
        return;
    }
    if (draggingSwipe_)
        setSwipePosition(double(pos.x()) / std::max(1, width()));
    else if (panning_)
        panBy(pos - lastMouse_);
    lastMouse_ = pos;
    reportCursor(e->position());
}

void TiledViewer::mouseReleaseEvent(QMouseEvent* e)
{
    if (!panning_ && !draggingSwipe_ && tool_ && hasImage() && tool_->mouseRelease(e))
        return;
    panning_ = false;
    draggingSwipe_ = false;
}

void TiledViewer::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (tool_ && hasImage() && tool_->mouseDoubleClick(e))
        return;
    QWidget::mouseDoubleClickEvent(e);
}

void TiledViewer::leaveEvent(QEvent* e)
{
    if (tool_)
        tool_->leave();
    QWidget::leaveEvent(e);
}

void TiledViewer::setTool(ViewerTool* tool)
{
    if (tool_ == tool)
        return;
    if (tool_)
        tool_->leave();
    tool_ = tool;
    panning_ = draggingSwipe_ = false;
    update();
}

void TiledViewer::keyPressEvent(QKeyEvent* e)
{
    if (tool_ && hasImage() && tool_->keyPress(e))
        return;
    const double step = std::max(16, width() / 8);
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        break;
    case Qt::Key_Minus:
        zoomBy(1 / 1.25);
        break;
    case Qt::Key_Left:
        panBy(QPointF(step, 0));
        break;
    case Qt::Key_Right:
        panBy(QPointF(-step, 0));
        break;
    case Qt::Key_Up:
        panBy(QPointF(0, step));
        break;
    case Qt::Key_Down:
        panBy(QPointF(0, -step));
        break;
    case Qt::Key_Home:
        fitToWindow();
        break;
    case Qt::Key_1:
        actualSize();
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

void TiledViewer::reportCursor(QPointF widgetPoint)
{
    if (!hasImage())
        return;
    const QPointF ip = mapToImage(widgetPoint);
    const QSize s = imageSize();
    if (ip.x() < 0 || ip.y() < 0 || ip.x() >= s.width() || ip.y() >= s.height()) {
        Q_EMIT cursorInfo(QPoint(-1, -1), QString());
        return;
    }
    const QPoint at(int(ip.x()), int(ip.y()));
    // Values come from decoded blocks already in the cache: hovering never decodes.
    QStringList parts;
    for (ViewSource* src : sources()) {
        const TiledImageInfo& info = src->img->info();
        const int level = src->img->bestLevelForDownsample(1.0 / zoom_);
        const TiledLevel& L = info.levels[size_t(level)];
        const int lx = std::min(L.width - 1, int(ip.x() * L.width / info.width));
        const int ly = std::min(L.height - 1, int(ip.y() * L.height / info.height));
        const int bx = lx / L.blockWidth, by = ly / L.blockHeight;
        auto blk = cache_->find(TileId{src->img->id(), level, bx, by});
        if (!blk)
            continue;
        const QString v = pixelText(*blk, lx - bx * L.blockWidth, ly - by * L.blockHeight);
        parts << (src->overlay ? src->name + QStringLiteral(" ") + v : v);
    }
    cursorText_ = parts.join(QStringLiteral("  ·  "));
    Q_EMIT cursorInfo(at, cursorText_);
    const TiledImageInfo& info = base_.img->info();
    if (info.bitsPerSample != 8 || info.sampleFormat != "uint") {
        storedValueAt_ = at;
        if (!storedValueTimer_) {
            storedValueTimer_ = new QTimer(this);
            storedValueTimer_->setSingleShot(true);
            storedValueTimer_->setInterval(150);
            connect(storedValueTimer_, &QTimer::timeout, this, &TiledViewer::reportStoredValues);
        }
        storedValueTimer_->start();
    }
}

void TiledViewer::reportStoredValues()
{
    if (!hasImage())
        return;
    auto raw = base_.img->readRawValue(0, storedValueAt_.x(), storedValueAt_.y());
    if (!raw)
        return;
    QStringList values;
    for (double v : *raw)
        values << QLocale().toString(v, 'g', 6);
    Q_EMIT cursorInfo(storedValueAt_, cursorText_ + QStringLiteral("  ·  ") +
                                          tr("stored %1").arg(values.join(QStringLiteral("; "))));
}
} // namespace fisura::ui
