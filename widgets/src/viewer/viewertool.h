// What other parts of Fisura put on a TiledViewer: a tool that takes input first (drawing
// labels) and decorations drawn over every layer (a measured line, crack outlines).
#pragma once

#include <QObject>

class QKeyEvent;
class QMouseEvent;
class QPainter;

namespace fisura::ui
{

class TiledViewer;

/// Input and drawing of an interactive tool on the view (drawing labels, for instance). While a
/// tool is set the viewer offers it every mouse and key event first; what it does not take pans
/// and zooms as usual. paint() draws over the layers, in widget coordinates.
class ViewerTool
{
public:
    virtual ~ViewerTool() = default;
    virtual bool mousePress(QMouseEvent*) { return false; }
    virtual bool mouseMove(QMouseEvent*) { return false; }
    virtual bool mouseRelease(QMouseEvent*) { return false; }
    virtual bool mouseDoubleClick(QMouseEvent*) { return false; }
    virtual bool keyPress(QKeyEvent*) { return false; }
    /// The pointer left the view.
    virtual void leave() {}
    virtual void paint(QPainter&) {}
};

/// Drawn by the viewer over every layer and the tool, in widget coordinates, in the order the
/// decorations were made. A decoration is a child of its viewer and lives as long as it at most;
/// deleting one takes it off the viewer. It takes no input through the viewer (an event filter
/// on it can).
class ViewerDecoration : public QObject
{
    Q_OBJECT
public:
    /// Adds itself on top of `viewer`'s decorations.
    explicit ViewerDecoration(TiledViewer* viewer);
    virtual void paint(QPainter& p) = 0;
};

} // namespace fisura::ui
