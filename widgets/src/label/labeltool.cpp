#include "label/labeltool.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <utility>

#include "fisura/labels.h"
#include "label/labelsession.h"

namespace fisura::ui
{

namespace
{
const QColor kLabelColour(0, 200, 255);

std::vector<LabelPoint> toLabelPoints(const QVector<QPointF>& pts)
{
    std::vector<LabelPoint> out;
    out.reserve(size_t(pts.size()));
    for (const QPointF& q : pts)
        out.push_back(LabelPoint{q.x(), q.y()});
    return out;
}
} // namespace

LabelTool::LabelTool(TiledViewer* viewer, QObject* parent) : QObject(parent), viewer_(viewer) {}

void LabelTool::setSession(LabelSession* session)
{
    cancelGesture();
    session_ = session;
}

LabelSession* LabelTool::session() const
{
    return session_;
}

void LabelTool::setKind(LabelToolKind kind)
{
    if (kind_ != kind)
        cancelGesture();
    kind_ = kind;
    refresh();
}

void LabelTool::setLineWidth(double px)
{
    px = std::clamp(px, 0.5, 500.0);
    if (px == lineWidth_)
        return;
    lineWidth_ = px;
    refresh();
    Q_EMIT lineWidthChanged(px);
}

void LabelTool::setBrushSize(double px)
{
    px = std::clamp(px, 1.0, 1000.0);
    if (px == brushSize_)
        return;
    brushSize_ = px;
    refresh();
    Q_EMIT brushSizeChanged(px);
}

bool LabelTool::usable() const
{
    return viewer_ && session_ && !session_->isBusy();
}

QPointF LabelTool::imagePoint(const QMouseEvent* e) const
{
    return viewer_->mapToImage(e->position());
}

QPointF LabelTool::constrained(QPointF from, QPointF to)
{
    const QPointF d = to - from;
    const double len = std::hypot(d.x(), d.y());
    if (len == 0)
        return to;
    const double step = M_PI / 4;
    const double a = std::round(std::atan2(d.y(), d.x()) / step) * step;
    // Projected onto the snapped direction: the point stays where the pointer is along it.
    const double along = d.x() * std::cos(a) + d.y() * std::sin(a);
    return from + QPointF(std::cos(a), std::sin(a)) * along;
}

bool LabelTool::finishPolyline()
{
    if (points_.isEmpty() || !usable())
        return false;
    const QVector<QPointF> pts = std::exchange(points_, {});
    Q_EMIT pendingChanged(0);
    session_->apply(session_->layer()->polyline(toLabelPoints(pts), lineWidth_), tr("Crack line"));
    refresh();
    return true;
}

void LabelTool::cancelGesture()
{
    const bool had = !points_.isEmpty();
    points_.clear();
    stroking_ = false;
    if (had)
        Q_EMIT pendingChanged(0);
    refresh();
}

void LabelTool::removeLastPoint()
{
    if (points_.isEmpty())
        return;
    points_.removeLast();
    Q_EMIT pendingChanged(int(points_.size()));
    refresh();
}

bool LabelTool::mousePress(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !usable())
        return false;
    QPointF at = imagePoint(e);
    shift_ = e->modifiers().testFlag(Qt::ShiftModifier);
    switch (kind_) {
    case LabelToolKind::Polyline:
        if (shift_ && !points_.isEmpty())
            at = constrained(points_.back(), at);
        points_.push_back(at);
        Q_EMIT pendingChanged(int(points_.size()));
        break;
    case LabelToolKind::Brush:
    case LabelToolKind::Eraser:
        points_ = {at};
        stroking_ = true;
        break;
    case LabelToolKind::Fill:
        session_->apply(session_->layer()->fill(LabelPoint{at.x(), at.y()}), tr("Fill"));
        break;
    case LabelToolKind::CrackFree:
        dragStart_ = at;
        stroking_ = true;
        break;
    }
    hover_ = at;
    hovering_ = true;
    refresh();
    return true;
}

bool LabelTool::mouseMove(QMouseEvent* e)
{
    if (!viewer_)
        return false;
    hover_ = imagePoint(e);
    hovering_ = true;
    shift_ = e->modifiers().testFlag(Qt::ShiftModifier);
    if (stroking_ && (kind_ == LabelToolKind::Brush || kind_ == LabelToolKind::Eraser))
        points_.push_back(hover_);
    refresh();
    // Without a button held the move is only hover: the viewer still reports the cursor.
    return stroking_ || (e->buttons().testFlag(Qt::LeftButton) && usable());
}

bool LabelTool::mouseRelease(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !stroking_)
        return e->button() == Qt::LeftButton && usable();
    stroking_ = false;
    if (!usable())
        return true;
    const QPointF at = imagePoint(e);
    if (kind_ == LabelToolKind::Brush || kind_ == LabelToolKind::Eraser) {
        if (points_.isEmpty() || points_.back() != at)
            points_.push_back(at);
        const bool erase = kind_ == LabelToolKind::Eraser;
        const QVector<QPointF> stroke = std::exchange(points_, {});
        session_->apply(session_->layer()->brush(toLabelPoints(stroke), brushSize_, erase),
                        erase ? tr("Eraser") : tr("Brush"));
    } else if (kind_ == LabelToolKind::CrackFree) {
        const QRectF r = QRectF(dragStart_, at).normalized();
        const QSize s = viewer_->imageSize();
        const QRect px =
            QRect(QPoint(int(std::floor(r.left())), int(std::floor(r.top()))),
                  QPoint(int(std::ceil(r.right())) - 1, int(std::ceil(r.bottom())) - 1))
                .intersected(QRect(QPoint(0, 0), s));
        if (!px.isEmpty())
            session_->apply(
                session_->layer()->setRegion(LabelRect{px.x(), px.y(), px.width(), px.height()}, 0),
                tr("Crack-free region"));
    }
    refresh();
    return true;
}

bool LabelTool::mouseDoubleClick(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || kind_ != LabelToolKind::Polyline || !usable())
        return false;
    // The double click's own point ends the line (once: its first press may have added it).
    QPointF at = imagePoint(e);
    if (e->modifiers().testFlag(Qt::ShiftModifier) && !points_.isEmpty())
        at = constrained(points_.back(), at);
    const double near = 1.0 / std::max(1e-6, viewer_->zoom());
    if (points_.isEmpty() ||
        std::hypot(at.x() - points_.back().x(), at.y() - points_.back().y()) > near)
        points_.push_back(at);
    finishPolyline();
    return true;
}

bool LabelTool::keyPress(QKeyEvent* e)
{
    if (!usable())
        return false;
    const bool line = kind_ == LabelToolKind::Polyline;
    switch (e->key()) {
    case Qt::Key_Backspace:
        if (!line || points_.isEmpty())
            return false;
        removeLastPoint();
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return line && finishPolyline();
    case Qt::Key_Escape:
        if (points_.isEmpty() && !stroking_)
            return false;
        cancelGesture();
        return true;
    case Qt::Key_BracketLeft:
    case Qt::Key_BracketRight: {
        const double f = e->key() == Qt::Key_BracketRight ? 1.25 : 0.8;
        if (line)
            setLineWidth(std::max(0.5, std::round(lineWidth_ * f * 2) / 2));
        else
            setBrushSize(std::max(1.0, std::round(brushSize_ * f)));
        return true;
    }
    case Qt::Key_Shift:
        shift_ = true;
        refresh();
        return false;
    default:
        return false;
    }
}

void LabelTool::leave()
{
    hovering_ = false;
    refresh();
}

void LabelTool::refresh()
{
    if (viewer_)
        viewer_->update();
}

void LabelTool::paintFootprint(QPainter& p, double diameterPx)
{
    if (!hovering_)
        return;
    const double r = std::max(1.0, diameterPx * viewer_->zoom() / 2);
    const QPointF c = viewer_->mapFromImage(hover_);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0, 0, 0, 180), 3));
    p.drawEllipse(c, r, r);
    p.setPen(QPen(Qt::white, 1));
    p.drawEllipse(c, r, r);
}

void LabelTool::paintPolyline(QPainter& p)
{
    QVector<QPointF> pts = points_;
    if (hovering_ && !pts.isEmpty())
        pts.push_back(shift_ ? constrained(pts.back(), hover_) : hover_);
    if (!pts.isEmpty()) {
        QPainterPath path(viewer_->mapFromImage(pts.front()));
        for (int i = 1; i < pts.size(); ++i)
            path.lineTo(viewer_->mapFromImage(pts[i]));
        QColor c = kLabelColour;
        c.setAlpha(120);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(c, std::max(1.0, lineWidth_ * viewer_->zoom()), Qt::SolidLine, Qt::RoundCap,
                      Qt::RoundJoin));
        p.drawPath(path);
        p.setPen(QPen(Qt::white, 1, Qt::DashLine));
        p.drawPath(path);
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(Qt::white);
        for (int i = 0; i < points_.size(); ++i)
            p.drawEllipse(viewer_->mapFromImage(points_[i]), 3, 3);
    }
    paintFootprint(p, lineWidth_);
}

void LabelTool::paint(QPainter& p)
{
    if (!viewer_ || !session_)
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    switch (kind_) {
    case LabelToolKind::Polyline:
        paintPolyline(p);
        break;
    case LabelToolKind::Brush:
    case LabelToolKind::Eraser: {
        if (stroking_ && points_.size() > 1) {
            QPainterPath path(viewer_->mapFromImage(points_.front()));
            for (int i = 1; i < points_.size(); ++i)
                path.lineTo(viewer_->mapFromImage(points_[i]));
            QColor c = kind_ == LabelToolKind::Eraser ? QColor(255, 255, 255) : kLabelColour;
            c.setAlpha(110);
            p.setPen(QPen(c, std::max(1.0, brushSize_ * viewer_->zoom()), Qt::SolidLine,
                          Qt::RoundCap, Qt::RoundJoin));
            p.drawPath(path);
        }
        paintFootprint(p, brushSize_);
        break;
    }
    case LabelToolKind::Fill:
        break;
    case LabelToolKind::CrackFree:
        if (stroking_) {
            const QRectF r(viewer_->mapFromImage(dragStart_), viewer_->mapFromImage(hover_));
            p.setPen(QPen(Qt::white, 1, Qt::DashLine));
            p.setBrush(QColor(255, 255, 255, 50));
            p.drawRect(r.normalized());
        }
        break;
    }
    p.restore();
}

} // namespace fisura::ui
