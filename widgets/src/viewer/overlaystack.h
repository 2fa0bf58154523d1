// The layers of a TiledViewer above the scan, bottom to top: the map overlays (probability maps,
// masks, ground truth, comparison layers) in the user's order, then the editable label layer,
// then the decorations (crack outlines, the ruler). The stack decides what is drawn and where -
// visibility, a solo layer for the side-by-side view, the two sides of a swipe divider - and
// holds no pixels of its own beyond each layer's overview.
#pragma once

#include <QImage>
#include <QPixmap>
#include <QPointer>
#include <QRect>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

#include "fisura/tiledimage.h"
#include "viewer/overlaystyle.h"
#include "viewer/viewertool.h"

namespace fisura::ui
{

class EditableLayer;

/// One file-backed layer of the view: the scan, or an overlay of the scan's size.
struct ViewSource {
    std::shared_ptr<TiledImage> img;
    QString path;
    QString name;
    bool overlay = false;
    OverlayColours colours; ///< overlays only
    QImage overview;        ///< scan: RGB32; overlay: Grayscale8 (max-pooled)
    QPixmap overviewPixmap; ///< overlay: coloured at overviewStamp
    quint64 overviewStamp = ~0ull;
    std::shared_ptr<std::atomic<bool>> cancelOverview;

    /// Stops the overview being built for it in the background, if one is.
    void cancelBackgroundWork();
};

class OverlayStack
{
public:
    OverlayStack();
    ~OverlayStack();

    int count() const { return int(layers_.size()); }
    bool isIndex(int i) const { return i >= 0 && i < count(); }
    ViewSource& at(int i) { return *layers_[size_t(i)]; }
    const ViewSource& at(int i) const { return *layers_[size_t(i)]; }
    /// Puts a layer on top of the others.
    void append(std::unique_ptr<ViewSource> layer);
    /// Takes layer `i` out (null for a bad index); the layers above move down.
    std::unique_ptr<ViewSource> take(int i);
    /// Moves layer `from` to position `to`; false (nothing moved) for bad or equal indexes.
    bool move(int from, int to);
    /// Takes every map layer out and the label layer off; the decorations stay.
    void clear();

    OverlayStyle style(int i) const;
    /// True when the change shows or hides the layer (the tiles the view wants change).
    bool setStyle(int i, const OverlayStyle& style);
    /// Draw only layer `i` (side-by-side comparison); -1 draws every visible layer.
    void setSolo(int i) { solo_ = i; }
    int solo() const { return solo_; }
    /// Drawn now: visible, and the solo layer when there is one.
    bool isShown(int i) const;

    /// Swipe comparison: layer `left` only left of the divider, layer `right` only right of it.
    void setSwipe(bool on, int left, int right);
    bool swipe() const { return swipe_; }
    int swipeLeft() const { return swipeLeft_; }
    int swipeRight() const { return swipeRight_; }
    /// Divider position as a fraction of the width, 0..1.
    void setSwipePosition(double fraction);
    double swipePosition() const { return swipePos_; }
    /// The divider's x in a view `width` pixels wide.
    int dividerX(int width) const;

    struct Draw {
        int layer = 0;
        QRect clip; ///< the part of the view it is drawn in
    };
    /// The map layers to draw now, bottom to top, in a view of rectangle `view`.
    std::vector<Draw> drawOrder(const QRect& view) const;

    /// The label layer, drawn above every map layer (null removes it).
    void setEditable(std::unique_ptr<EditableLayer> layer);
    EditableLayer* editable() const { return editable_.get(); }

    /// Decorations, drawn above everything in the order they were added; deleted ones drop out.
    void addDecoration(ViewerDecoration* d);
    std::vector<ViewerDecoration*> decorations() const;

private:
    std::vector<std::unique_ptr<ViewSource>> layers_;
    std::unique_ptr<EditableLayer> editable_;
    std::vector<QPointer<ViewerDecoration>> decorations_;
    int solo_ = -1;
    bool swipe_ = false;
    int swipeLeft_ = 0;
    int swipeRight_ = 1;
    double swipePos_ = 0.5;
};

} // namespace fisura::ui
