#include "viewer/tiledecode.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/imageconvert.h"

namespace fisura::ui::viewerdetail
{

// One tile of one level as a QImage: RGB32/ARGB32 for the scan (cheap to turn into a pixmap),
// Grayscale8 values (max over channels) for overlays.
QImage decodeTile(const TiledImage& img, int level, int tile, int tx, int ty, bool aligned,
                  bool values)
{
    Image im;
    std::shared_ptr<const Image> blk;
    const Image* src = nullptr;
    if (aligned) {
        auto r = img.readBlock(level, tx, ty);
        if (!r)
            return {};
        blk = *r;
        src = blk.get();
    } else {
        const TiledLevel& L = img.info().levels[level];
        const int x = tx * tile, y = ty * tile;
        const int w = std::min(tile, L.width - x), h = std::min(tile, L.height - y);
        if (w <= 0 || h <= 0)
            return {};
        auto r = img.readRegion(level, x, y, w, h);
        if (!r)
            return {};
        im = std::move(*r);
        src = &im;
    }
    if (src->empty())
        return {};
    if (values) {
        QImage out(src->width, src->height, QImage::Format_Grayscale8);
        const int C = src->channels;
        for (int y = 0; y < src->height; ++y) {
            const uint8_t* s = src->row(y);
            uchar* d = out.scanLine(y);
            if (C == 1) {
                std::memcpy(d, s, size_t(src->width));
                continue;
            }
            const int cc = std::min(C, 3);
            for (int x = 0; x < src->width; ++x) {
                uint8_t m = 0;
                for (int c = 0; c < cc; ++c)
                    m = std::max(m, s[x * C + c]);
                d[x] = m;
            }
        }
        return out;
    }
    QImage q = toQImage(*src);
    return q.convertToFormat(src->channels == 4 ? QImage::Format_ARGB32_Premultiplied
                                                : QImage::Format_RGB32);
}

// The whole image at most kOverviewSide a side, from the smallest level that is still large
// enough, block by block (bounded memory). Scan: box average; overlays: max, so thin cracks
// stay visible when shrunk.
QImage buildOverview(const TiledImage& img, bool values, int maxSide,
                     const std::atomic<bool>& cancel, const std::function<void(double)>& progress)
{
    const TiledImageInfo& info = img.info();
    const double s = std::min(1.0, double(maxSide) / std::max(info.width, info.height));
    const int ow = std::max(1, int(std::ceil(info.width * s)));
    const int oh = std::max(1, int(std::ceil(info.height * s)));
    int best = 0;
    for (int i = 0; i < int(info.levels.size()); ++i)
        if (info.levels[i].width >= ow && info.levels[i].height >= oh)
            best = i;
    const TiledLevel& L = info.levels[best];
    std::vector<int> colMap(size_t(L.width)), rowMap(size_t(L.height));
    for (int x = 0; x < L.width; ++x)
        colMap[size_t(x)] = int(qint64(x) * ow / L.width);
    for (int y = 0; y < L.height; ++y)
        rowMap[size_t(y)] = int(qint64(y) * oh / L.height);
    const int C = info.channels;
    const int acc = values ? 1 : 3;
    std::vector<quint32> sum(size_t(ow) * oh * acc, 0), count(values ? 0 : size_t(ow) * oh, 0);
    for (int by = 0; by < L.blocksDown; ++by) {
        for (int bx = 0; bx < L.blocksAcross; ++bx) {
            if (cancel.load())
                return {};
            auto r = img.readBlock(best, bx, by);
            if (!r)
                return {};
            const Image& b = **r;
            const int x0 = bx * L.blockWidth, y0 = by * L.blockHeight;
            for (int y = 0; y < b.height; ++y) {
                const uint8_t* p = b.row(y);
                const size_t orow = size_t(rowMap[size_t(y0 + y)]) * ow;
                for (int x = 0; x < b.width; ++x) {
                    const size_t o = orow + size_t(colMap[size_t(x0 + x)]);
                    const uint8_t* px = p + size_t(x) * C;
                    if (values) {
                        uint8_t m = px[0];
                        for (int c = 1; c < std::min(C, 3); ++c)
                            m = std::max(m, px[c]);
                        sum[o] = std::max<quint32>(sum[o], m);
                    } else {
                        quint32* a = &sum[o * 3];
                        if (C >= 3) {
                            a[0] += px[0];
                            a[1] += px[1];
                            a[2] += px[2];
                        } else {
                            a[0] += px[0];
                            a[1] += px[0];
                            a[2] += px[0];
                        }
                        ++count[o];
                    }
                }
            }
        }
        if (progress)
            progress(double(by + 1) / L.blocksDown);
    }
    QImage out(ow, oh, values ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
    for (int y = 0; y < oh; ++y) {
        if (values) {
            uchar* d = out.scanLine(y);
            for (int x = 0; x < ow; ++x)
                d[x] = uchar(sum[size_t(y) * ow + x]);
        } else {
            auto* d = reinterpret_cast<QRgb*>(out.scanLine(y));
            for (int x = 0; x < ow; ++x) {
                const size_t o = size_t(y) * ow + x;
                const quint32 n = std::max<quint32>(1, count[o]);
                d[x] = qRgb(int(sum[o * 3] / n), int(sum[o * 3 + 1] / n), int(sum[o * 3 + 2] / n));
            }
        }
    }
    return out;
}

} // namespace fisura::ui::viewerdetail
