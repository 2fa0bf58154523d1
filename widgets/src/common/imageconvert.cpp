#include "common/imageconvert.h"

#include <QPainter>

#include <cstring>

namespace fisura::ui
{

QImage toQImage(const Image& im)
{
    if (im.empty())
        return {};
    QImage::Format fmt = QImage::Format_Grayscale8;
    if (im.channels == 3)
        fmt = QImage::Format_RGB888;
    else if (im.channels == 4)
        fmt = QImage::Format_RGBA8888_Premultiplied;
    QImage out(im.width, im.height, fmt);
    const size_t stride = im.stride();
    for (int y = 0; y < im.height; ++y)
        std::memcpy(out.scanLine(y), im.row(y), stride);
    return out;
}

QImage overlayMask(const QImage& base, const Image& mask, QColor color, double opacity)
{
    if (mask.empty() || mask.width != base.width() || mask.height != base.height())
        return base;
    QImage layer(mask.width, mask.height, QImage::Format_ARGB32_Premultiplied);
    layer.fill(Qt::transparent);
    const QRgb c = qPremultiply(qRgba(color.red(), color.green(), color.blue(), 255));
    for (int y = 0; y < mask.height; ++y) {
        const uint8_t* m = mask.row(y);
        auto* dst = reinterpret_cast<QRgb*>(layer.scanLine(y));
        for (int x = 0; x < mask.width; ++x)
            if (m[x * mask.channels])
                dst[x] = c;
    }
    QImage out = base.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QPainter p(&out);
    p.setOpacity(opacity);
    p.drawImage(0, 0, layer);
    return out;
}

} // namespace fisura::ui
