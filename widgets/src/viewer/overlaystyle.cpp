#include "viewer/overlaystyle.h"

#include <algorithm>
#include <atomic>

namespace fisura::ui
{

namespace
{
std::atomic<quint64> lutStampCounter{1};

QRgb heat(int v)
{
    // Black-red-yellow-white ramp: monotonic in brightness, readable over grey concrete.
    const double t = v / 255.0;
    const int r = int(std::clamp(t * 3.0, 0.0, 1.0) * 255);
    const int g = int(std::clamp(t * 3.0 - 1.0, 0.0, 1.0) * 255);
    const int b = int(std::clamp(t * 3.0 - 2.0, 0.0, 1.0) * 255);
    return qRgb(r, g, b);
}

// Class k of n coded 1..n, or as (k + 1) x 255 / n: the first class whose code reaches v.
QRgb classColour(const QVector<QRgb>& colours, int v)
{
    const int n = int(colours.size());
    if (v <= n)
        return colours[std::max(0, v - 1)];
    for (int k = 0; k < n; ++k)
        if ((k + 1) * 255 / n >= v)
            return colours[k];
    return colours[n - 1];
}

QRgb baseColour(ColorMap m, int v)
{
    switch (m) {
    case ColorMap::Red:
        return qRgb(255, 32, 32);
    case ColorMap::Green:
        return qRgb(32, 230, 64);
    case ColorMap::Blue:
        return qRgb(40, 120, 255);
    case ColorMap::Yellow:
        return qRgb(255, 230, 0);
    case ColorMap::Magenta:
        return qRgb(255, 0, 220);
    case ColorMap::Heat:
        return heat(v);
    case ColorMap::WidthClasses: { // class codes 1..4, or scaled to 63, 127, 191, 255
        static const QRgb classes[4] = {qRgb(46, 160, 67), qRgb(230, 190, 0), qRgb(245, 120, 20),
                                        qRgb(215, 30, 40)};
        return classes[std::clamp(v <= 4 ? v - 1 : v / 64, 0, 3)];
    }
    case ColorMap::Grey:
        return qRgb(v, v, v);
    case ColorMap::Custom:
        break;
    }
    return qRgb(255, 0, 0);
}
} // namespace

QVector<QRgb> overlayLut(const OverlayStyle& style)
{
    QVector<QRgb> lut(256, 0);
    const int a = int(std::clamp(style.opacity, 0.0, 1.0) * 255 + 0.5);
    const QRgb custom = style.color.isValid() ? style.color.rgb() : qRgb(255, 32, 32);
    for (int v = std::clamp(style.threshold, 0, 256); v < 256; ++v) {
        const QRgb c = style.colorMap == ColorMap::Custom ? custom
                       : style.colorMap == ColorMap::WidthClasses && !style.classColours.isEmpty()
                           ? classColour(style.classColours, v)
                           : baseColour(style.colorMap, v);
        lut[v] = qPremultiply(qRgba(qRed(c), qGreen(c), qBlue(c), a));
    }
    return lut;
}

OverlayColours::OverlayColours(const OverlayStyle& style)
{
    setStyle(style);
}

void OverlayColours::setStyle(const OverlayStyle& style)
{
    style_ = style;
    lut_ = overlayLut(style);
    stamp_ = lutStampCounter++;
}

QImage OverlayColours::colour(const QImage& values) const
{
    const int w = values.width(), h = values.height();
    const int threshold = style_.threshold;
    QImage out(w, h, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < h; ++y) {
        const uchar* v = values.constScanLine(y);
        const uchar* up = values.constScanLine(std::max(0, y - 1));
        const uchar* dn = values.constScanLine(std::min(h - 1, y + 1));
        auto* d = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w; ++x) {
            QRgb c = lut_[v[x]];
            if (style_.outline && c) {
                const bool interior = up[x] >= threshold && dn[x] >= threshold &&
                                      v[std::max(0, x - 1)] >= threshold &&
                                      v[std::min(w - 1, x + 1)] >= threshold;
                if (interior)
                    c = 0;
            }
            d[x] = c;
        }
    }
    return out;
}

} // namespace fisura::ui
