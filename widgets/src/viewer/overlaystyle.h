// How an overlay layer is coloured: a style (colour map, opacity, threshold, outline) turned into
// a 256-entry lookup table, so threshold, colour and opacity changes need no recomputation of
// the values, only a new table.
#pragma once

#include <QColor>
#include <QImage>
#include <QVector>

namespace fisura::ui
{

/// Custom draws every shown value in OverlayStyle::color (comparison layers, user colours).
/// WidthClasses colours width classes in OverlayStyle::classColours (without them 0..3 green,
/// yellow, orange and red), coded either 1..n or as classMapCode (class maps,
/// fisura/measuremap.h: (k + 1) x 255 / n).
/// Grey: the value as a grey level (a scan shown as a layer, e.g. a later date aligned).
enum class ColorMap { Red, Green, Blue, Yellow, Magenta, Heat, Custom, WidthClasses, Grey };

struct OverlayStyle {
    ColorMap colorMap = ColorMap::Red;
    QColor color = QColor(255, 32, 32); ///< used by ColorMap::Custom
    /// Used by ColorMap::WidthClasses: the colour of class k (empty: the default four classes).
    QVector<QRgb> classColours;
    double opacity = 0.6; ///< 0..1
    int threshold = 128;  ///< values at or above are shown; 256 shows nothing
    bool outline = false; ///< draw only the boundary of the shown region
    bool visible = true;
};

/// value -> premultiplied ARGB: transparent below the threshold.
QVector<QRgb> overlayLut(const OverlayStyle& style);

/// A layer's style with its lookup table. Every new table gets a new stamp, so a pixmap coloured
/// with an older one is known to be stale and recoloured from its values when next drawn.
class OverlayColours
{
public:
    explicit OverlayColours(const OverlayStyle& style = {});

    const OverlayStyle& style() const { return style_; }
    void setStyle(const OverlayStyle& style);
    quint64 stamp() const { return stamp_; }
    /// Grayscale8 values -> premultiplied ARGB through the table; with an outline only the shown
    /// pixels that have a hidden neighbour stay.
    QImage colour(const QImage& values) const;

private:
    OverlayStyle style_;
    QVector<QRgb> lut_;
    quint64 stamp_ = 0;
};

} // namespace fisura::ui
