// The whole image small, with the viewport rectangle of a TiledViewer; click or drag to move the
// view.
#pragma once

#include <QPointer>
#include <QWidget>

namespace fisura::ui
{

class TiledViewer;

class OverviewMap : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewMap(TiledViewer* viewer, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {220, 180}; }
    /// Where the image is drawn inside this widget.
    QRectF imageArea() const;

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void jumpTo(QPointF widgetPoint);
    QPointer<TiledViewer> viewer_;
};

} // namespace fisura::ui
