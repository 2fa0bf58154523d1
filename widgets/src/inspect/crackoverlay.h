// Measured cracks on the viewer: the selected crack outlined (its box and the boxes of its
// branches), the crack under the mouse reported (crackHovered) and outlined lightly, and
// zoomTo() to bring a crack into view. The viewer paints it as one of its decorations; an event
// filter follows the mouse without taking any event.
#pragma once

#include <QPointer>
#include <QRectF>

#include <memory>

#include "fisura/measure.h"
#include "viewer/viewertool.h"

namespace fisura::ui
{

class TiledViewer;

class CrackOverlay : public ViewerDecoration
{
    Q_OBJECT
public:
    explicit CrackOverlay(TiledViewer* viewer);

    void setResult(std::shared_ptr<const MeasureResult> result);
    /// Outlines this crack (-1: none).
    void setSelected(int crackId);
    int selected() const { return selected_; }
    int hovered() const { return hovered_; }
    /// The crack under a level-0 image point: the smallest box that contains it (with a few
    /// screen pixels of slack), or -1.
    int crackAt(QPointF imagePoint) const;
    /// Centres the crack and zooms so that its box (with a margin) fills the view.
    void zoomTo(int crackId);
    void paint(QPainter& p) override;

Q_SIGNALS:
    void crackHovered(int crackId);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    const Crack* crack(int id) const;
    void setHovered(int id);
    QRectF screenBox(const PixelBox& b) const;
    void update();

    QPointer<TiledViewer> viewer_;
    std::shared_ptr<const MeasureResult> result_;
    int selected_ = -1;
    int hovered_ = -1;
};

} // namespace fisura::ui
