// The label tools on the viewer: crack polyline (click along the crack; Backspace removes the
// last point, Enter or a double click finishes, Esc cancels, Shift keeps the segment at 0/45/90°),
// brush and eraser strokes ([ and ] change the size), fill of a closed region and a dragged
// "crack-free" rectangle. The cursor shows the footprint at the current zoom. Every finished
// gesture becomes one undoable edit of the LabelSession.
#pragma once

#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QVector>

#include "viewer/tiledviewer.h"

namespace fisura::ui
{

class LabelSession;

enum class LabelToolKind { Polyline, Brush, Eraser, Fill, CrackFree };

class LabelTool : public QObject, public ViewerTool
{
    Q_OBJECT
public:
    explicit LabelTool(TiledViewer* viewer, QObject* parent = nullptr);

    void setSession(LabelSession* session);
    LabelSession* session() const;
    void setKind(LabelToolKind kind);
    LabelToolKind kind() const { return kind_; }
    /// Width of the crack line, level-0 pixels.
    void setLineWidth(double px);
    double lineWidth() const { return lineWidth_; }
    /// Diameter of the brush and the eraser, level-0 pixels.
    void setBrushSize(double px);
    double brushSize() const { return brushSize_; }

    /// The crack line being traced (level-0 points).
    QVector<QPointF> pendingPoints() const { return points_; }
    /// Applies the traced line as one edit; false when nothing was traced.
    bool finishPolyline();
    void cancelGesture();
    void removeLastPoint();

    /// The point `to` moved so that the segment from `from` is at a multiple of 45°.
    static QPointF constrained(QPointF from, QPointF to);

    bool mousePress(QMouseEvent* e) override;
    bool mouseMove(QMouseEvent* e) override;
    bool mouseRelease(QMouseEvent* e) override;
    bool mouseDoubleClick(QMouseEvent* e) override;
    bool keyPress(QKeyEvent* e) override;
    void leave() override;
    void paint(QPainter& p) override;

Q_SIGNALS:
    void lineWidthChanged(double px);
    void brushSizeChanged(double px);
    /// Points of the line being traced changed (0: none).
    void pendingChanged(int points);

private:
    bool usable() const;
    QPointF imagePoint(const QMouseEvent* e) const;
    void paintPolyline(QPainter& p);
    void paintFootprint(QPainter& p, double diameterPx);
    void refresh();

    QPointer<TiledViewer> viewer_;
    QPointer<LabelSession> session_;
    LabelToolKind kind_ = LabelToolKind::Polyline;
    double lineWidth_ = 3.0;
    double brushSize_ = 12.0;
    QVector<QPointF> points_; ///< polyline points or the brush stroke, level-0
    bool stroking_ = false;   ///< brush / eraser / rectangle drag under way
    QPointF dragStart_;
    QPointF hover_;
    bool hovering_ = false;
    bool shift_ = false;
};

} // namespace fisura::ui
