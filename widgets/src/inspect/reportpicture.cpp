// MeasureReport::overviewPicture: a small picture of a scan of any size with its cracks.
#include <QFile>
#include <QFileInfo>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "common/imageconvert.h"
#include "fisura/image.h"
#include "fisura/threshold.h"
#include "fisura/tiledimage.h"
#include "inspect/measuretext.h"
#include "inspect/report.h"

namespace fisura::ui
{

namespace
{

// Level `level` of `img` reduced by `factor` (>= 1) in bands of rows: nearest pixel for the
// scan, the maximum over each cell for a map (so one-pixel cracks survive).
Result<QImage> readSmall(const TiledImage& img, int level, double factor, bool maxPool,
                         const CancelToken& cancel)
{
    const TiledLevel& lv = img.info().levels[size_t(level)];
    const int ow = std::max(1, int(std::ceil(lv.width / factor)));
    const int oh = std::max(1, int(std::ceil(lv.height / factor)));
    const int ch = img.info().channels;
    QImage out(ow, oh, maxPool ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
    for (int oy = 0; oy < oh; ++oy) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "report picture cancelled");
        const int y0 = std::min(lv.height - 1, int(oy * factor));
        const int y1 = maxPool ? std::clamp(int((oy + 1) * factor), y0 + 1, lv.height) : y0 + 1;
        auto band = img.readRegion(level, 0, y0, lv.width, y1 - y0);
        if (!band)
            return band.status();
        const Image& b = *band;
        uchar* dst = out.scanLine(oy);
        for (int ox = 0; ox < ow; ++ox) {
            const int x0 = std::min(lv.width - 1, int(ox * factor));
            if (!maxPool) {
                const uint8_t* p = b.row(0) + size_t(x0) * ch;
                reinterpret_cast<QRgb*>(dst)[ox] =
                    ch >= 3 ? qRgb(p[0], p[1], p[2]) : qRgb(p[0], p[0], p[0]);
                continue;
            }
            const int x1 = std::clamp(int((ox + 1) * factor), x0 + 1, lv.width);
            uint8_t v = 0;
            for (int y = 0; y < b.height; ++y)
                for (int x = x0; x < x1; ++x)
                    for (int c = 0; c < std::min(ch, 3); ++c)
                        v = std::max(v, b.row(y)[size_t(x) * ch + c]);
            dst[ox] = v;
        }
    }
    return out;
}

bool isTiffFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return true; // let the TIFF reader say what is wrong
    const QByteArray head = f.read(4);
    return head.startsWith("II") || head.startsWith("MM");
}

// Any other image measureCracks accepts (PNG, JPEG, BMP): read whole, as measuring it did.
Result<QImage> readFlatPicture(const QString& path, int maxSide, bool maxPool)
{
    auto im = readImage(path.toStdString());
    if (!im)
        return im.status();
    const Image& m = *im;
    const double factor = std::max(1.0, double(std::max(m.width, m.height)) / maxSide);
    const int ow = std::max(1, int(std::ceil(m.width / factor)));
    const int oh = std::max(1, int(std::ceil(m.height / factor)));
    if (!maxPool)
        return toQImage(m)
            .convertToFormat(QImage::Format_RGB32)
            .scaled(ow, oh, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    QImage out(ow, oh, QImage::Format_Grayscale8);
    out.fill(0);
    for (int y = 0; y < m.height; ++y) {
        uchar* dst = out.scanLine(std::min(oh - 1, int(y / factor)));
        const uint8_t* src = m.row(y);
        for (int x = 0; x < m.width; ++x) {
            uchar& d = dst[std::min(ow - 1, int(x / factor))];
            for (int c = 0; c < std::min(m.channels, 3); ++c)
                d = std::max(d, src[size_t(x) * size_t(m.channels) + size_t(c)]);
        }
    }
    return out;
}

Result<QImage> readPicture(const QString& path, int maxSide, bool maxPool,
                           const CancelToken& cancel)
{
    if (!isTiffFile(path))
        return readFlatPicture(path, maxSide, maxPool);
    auto img = TiledImage::open(path.toStdString());
    if (!img)
        return img.status();
    const auto& info = (*img)->info();
    const double ds = std::max(1.0, double(std::max(info.width, info.height)) / maxSide);
    // Maps are max-pooled from full resolution (pyramid levels of a map are averages).
    const int level = maxPool ? 0 : (*img)->bestLevelForDownsample(ds);
    const TiledLevel& lv = info.levels[size_t(level)];
    const double factor = std::max(1.0, double(std::max(lv.width, lv.height)) / maxSide);
    return readSmall(**img, level, factor, maxPool, cancel);
}

} // namespace

Result<QImage> MeasureReport::scanPicture(const QString& scanPath, int maxSide,
                                          const CancelToken& cancel)
{
    return readPicture(scanPath, maxSide, false, cancel);
}

Result<QImage> MeasureReport::overviewPicture(const QString& scanPath, const MeasureResult& r,
                                              int maxSide, const CancelToken& cancel)
{
    const QString mapPath = QString::fromStdString(r.mapPath);
    auto map = readPicture(mapPath, maxSide, true, cancel);
    if (!map)
        return map.status();
    QImage base;
    if (!scanPath.isEmpty()) {
        auto scan = readPicture(scanPath, maxSide, false, cancel);
        if (!scan)
            return scan.status();
        base = scan->scaled(map->size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    } else {
        base = QImage(map->size(), QImage::Format_RGB32);
        base.fill(QColor(250, 250, 250));
    }
    base = base.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    const int t = mapByteThreshold(r.options.threshold);
    const QRgb red = qPremultiply(qRgba(230, 20, 20, 220));
    for (int y = 0; y < map->height(); ++y) {
        const uchar* m = map->constScanLine(y);
        auto* d = reinterpret_cast<QRgb*>(base.scanLine(y));
        for (int x = 0; x < map->width(); ++x)
            if (m[x] >= t)
                d[x] = red;
    }
    // Boxes in the class colours, numbered while they stay legible.
    QPainter p(&base);
    p.setRenderHint(QPainter::Antialiasing);
    const double s = double(map->width()) / std::max(1, r.width);
    QFont f = p.font();
    f.setPixelSize(std::max(10, map->width() / 70));
    f.setBold(true);
    p.setFont(f);
    const bool numbers = r.cracks.size() <= 80;
    for (const Crack& c : r.cracks) {
        const QRectF box(c.box.x * s - 2, c.box.y * s - 2, c.box.width * s + 4,
                         c.box.height * s + 4);
        p.setPen(QPen(MeasureText::classColour(r.options.classes, c.widthClass),
                      std::max(1.5, map->width() / 600.0)));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        if (!numbers)
            continue;
        const QString label = QString::number(c.id);
        const QRectF tag(box.topLeft() - QPointF(0, f.pixelSize() + 4),
                         QSizeF(QFontMetricsF(f).horizontalAdvance(label) + 6, f.pixelSize() + 4));
        p.fillRect(tag, QColor(255, 255, 255, 210));
        p.setPen(Qt::black);
        p.drawText(tag, Qt::AlignCenter, label);
    }
    p.end();
    return base;
}

} // namespace fisura::ui
