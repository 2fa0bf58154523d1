// The label layer of a TiledViewer: an overlay that lives in memory and changes while the user
// works on it. Zoomed in, its level-0 tiles are read from the source when first drawn and cached
// as coloured pixmaps; zoomed out, its overview is drawn. An edit drops the tiles it touches and
// patches the overview cells it covers, so a stroke never rereads the whole layer.
#pragma once

#include <QCache>
#include <QImage>
#include <QPixmap>
#include <QRect>
#include <QSize>

#include <memory>

#include "viewer/overlaystyle.h"
#include "viewer/viewtransform.h"

class QPainter;

namespace fisura::ui
{

/// An overlay that lives in memory and changes while the user works on it (a label layer being
/// drawn). The viewer reads level-0 regions of it when zoomed in and a small overview of it when
/// zoomed out, and redraws only the regions it is told have changed.
class EditableOverlaySource
{
public:
    virtual ~EditableOverlaySource() = default;
    virtual QSize size() const = 0;
    /// Grayscale8 values of a level-0 region inside the image; null on failure.
    virtual QImage readRegion(const QRect& region) const = 0;
    /// Grayscale8 values of the whole layer, at most `maxSide` a side (max-pooled); null on
    /// failure.
    virtual QImage overview(int maxSide) const = 0;
};

class EditableLayer
{
public:
    EditableLayer(std::shared_ptr<EditableOverlaySource> source, const OverlayStyle& style);

    const OverlayStyle& style() const { return colours_.style(); }
    void setStyle(const OverlayStyle& style) { colours_.setStyle(style); }
    /// The layer changed inside `region` (level-0 pixels): what was drawn of it there goes.
    void changed(const QRect& region);
    /// Draws the part of the layer in view.
    void paint(QPainter& p, const ViewTransform& view);

private:
    struct Tile {
        QImage values;
        QPixmap pixmap;
        quint64 lutStamp = 0;
    };
    void patchOverview(const QRect& r);
    void paintOverview(QPainter& p, const ViewTransform& view);
    void paintTile(QPainter& p, const ViewTransform& view, int tx, int ty);

    std::shared_ptr<EditableOverlaySource> source_;
    OverlayColours colours_;
    QCache<quint64, Tile> tiles_; ///< key: ty << 32 | tx, level 0
    QImage overview_;             ///< Grayscale8; null until first needed
    QPixmap overviewPixmap_;
    quint64 overviewStamp_ = ~0ull;
    bool overviewFailed_ = false;
};

} // namespace fisura::ui
