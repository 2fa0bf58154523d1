// A ruler on a TiledViewer: while active, click and drag to measure a distance; the line stays
// (following pan and zoom) until the next drag, with its length in mm (or px when the pixel
// size is unknown). The viewer paints it as one of its decorations; an event filter on the viewer
// takes the mouse while the ruler is active, so the view does not pan under it.
#pragma once

#include <QPointF>
#include <QPointer>

#include "viewer/viewertool.h"

namespace fisura::ui
{

class TiledViewer;

class ViewerRuler : public ViewerDecoration
{
    Q_OBJECT
public:
    explicit ViewerRuler(TiledViewer* viewer);

    void setActive(bool on);
    bool isActive() const { return active_; }
    bool hasLine() const { return hasLine_; }
    /// Ends of the line in level-0 image coordinates.
    QPointF start() const { return a_; }
    QPointF end() const { return b_; }
    double lengthPx() const;
    /// -1 when the viewer's pixel size is unknown.
    double lengthMm() const;
    /// "12.3 mm" or "45 px" in the language in force; empty without a line.
    QString text() const;
    void clear();
    void paint(QPainter& p) override;

Q_SIGNALS:
    void measured(double lengthPx, double lengthMm);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void update();

    QPointer<TiledViewer> viewer_;
    bool active_ = false;
    bool dragging_ = false;
    bool hasLine_ = false;
    QPointF a_, b_;
};

} // namespace fisura::ui
