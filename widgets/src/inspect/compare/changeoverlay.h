// The change layer on the viewer: every change drawn along its cracks' centre lines in its kind's
// colour (changeKindColour, colour-blind safe): new and grown solid, the part a crack grew bolder,
// unchanged thinner, gone dashed where the earlier date had it; the selected change bold, and a
// legend of the kinds with their counts. Line widths are screen pixels, readable at any zoom.
// zoomTo() brings a change into view. The viewer paints it as a decoration.
#pragma once

#include <QPointer>
#include <QPolygonF>
#include <QRectF>

#include <memory>

#include "fisura/change.h"
#include "viewer/viewertool.h"

namespace fisura::ui
{

class TiledViewer;

class ChangeOverlay : public ViewerDecoration
{
    Q_OBJECT
public:
    explicit ChangeOverlay(TiledViewer* viewer);

    void setResult(std::shared_ptr<const ChangeResult> result);
    bool hasResult() const { return bool(result_); }
    void setShown(bool on);
    bool isShown() const { return shown_; }
    /// Outlines this change bold (index into ChangeResult::changes; -1: none).
    void setSelected(int index);
    int selected() const { return selected_; }
    /// Centres the change and zooms so that its box (with a margin) fills the view.
    void zoomTo(int index);
    void paint(QPainter& p) override;

private:
    QRectF screenBox(const PixelBox& b) const;
    QPolygonF screenLine(const std::vector<CentrePoint>& line) const;
    void paintChange(QPainter& p, const CrackChange& c, bool selected);
    void paintLegend(QPainter& p);
    void update();

    QPointer<TiledViewer> viewer_;
    std::shared_ptr<const ChangeResult> result_;
    int selected_ = -1;
    bool shown_ = true;
};

} // namespace fisura::ui
