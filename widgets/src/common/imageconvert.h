#pragma once

#include <QImage>

#include "fisura/image.h"

namespace fisura::ui
{

/// Deep-copies a core image into a QImage (Grayscale8, RGB888 or RGBA8888_Premultiplied).
/// Safe on worker threads (QImage, unlike QPixmap, is not tied to the GUI thread).
QImage toQImage(const Image& image);

/// Paints `mask` (non-zero = crack) over `base` in `color` with `opacity` (0..1).
QImage overlayMask(const QImage& base, const Image& mask, QColor color, double opacity);

} // namespace fisura::ui
