// Helpers of the tiled-image tests (tst_tiledimage: reading; tst_tiledwriter: writing and the
// pyramid job; tst_tiledkinds: bad input and every kind of sample): synthetic scenes, crops and
// halvings, a pyramid written in uneven row slices, pyramids compared level by level.
#pragma once

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <utility>

#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"
#include "tiff_fixtures.h"

namespace tiledtest
{
using namespace fisura;

// Largest per-sample difference and the mean absolute difference of two images.
inline std::pair<int, double> diff(const Image& a, const Image& b)
{
    int worst = 0;
    double sum = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        const int d = std::abs(int(a.pixels[i]) - int(b.pixels[i]));
        worst = std::max(worst, d);
        sum += d;
    }
    return {worst, a.pixels.empty() ? 0.0 : sum / double(a.pixels.size())};
}

inline Image crop(const Image& im, int x, int y, int w, int h)
{
    Image out = Image::make(w, h, im.channels);
    for (int r = 0; r < h; ++r)
        std::memcpy(out.row(r), im.row(y + r) + size_t(x) * im.channels, out.stride());
    return out;
}

inline Image halve(const Image& in)
{
    const int w = (in.width + 1) / 2, h = (in.height + 1) / 2, C = in.channels;
    Image out = Image::make(w, h, C);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c) {
                const int x1 = std::min(2 * x + 1, in.width - 1);
                const int y1 = std::min(2 * y + 1, in.height - 1);
                const int s = in.row(2 * y)[2 * x * C + c] + in.row(2 * y)[x1 * C + c] +
                              in.row(y1)[2 * x * C + c] + in.row(y1)[x1 * C + c];
                out.row(y)[x * C + c] = uint8_t((s + 2) >> 2);
            }
    return out;
}

inline Image scene(int w, int h, int C, uint32_t seed)
{
    Image im = Image::make(w, h, C);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < C; ++c)
                im.row(y)[x * C + c] = uint8_t(fixtures::wave(x, y, c) ^ (rng() & 7));
    return im;
}

// Two files with the same levels, pixel for pixel.
inline bool samePyramids(const std::string& a, const std::string& b)
{
    auto ia = TiledImage::open(a), ib = TiledImage::open(b);
    if (!ia || !ib || (*ia)->levelCount() != (*ib)->levelCount())
        return false;
    for (int k = 0; k < (*ia)->levelCount(); ++k) {
        auto la = (*ia)->readLevel(k), lb = (*ib)->readLevel(k);
        if (!la || !lb || la->pixels != lb->pixels)
            return false;
    }
    return true;
}

inline bool writePyramid(const std::string& path, const Image& im, const TiledWriteOptions& o)
{
    auto w = TiledTiffWriter::create(path, im.width, im.height, im.channels, o);
    if (!w)
        return false;
    // Uneven slices: the writer must not care how rows arrive.
    int y = 0, step = 7;
    while (y < im.height) {
        const int n = std::min(step, im.height - y);
        if (!(*w)->appendRows(crop(im, 0, y, im.width, n)))
            return false;
        y += n;
        step = step * 3 % 101 + 1;
    }
    return bool((*w)->finish());
}

// 64-px tiles and overviews down to 64 px: many tiles and levels from a small image.
inline TiledWriteOptions smallTiles(int threads = 0)
{
    TiledWriteOptions o;
    o.tileSize = 64;
    o.maxOverviewSide = 64;
    o.threads = threads;
    return o;
}

inline QString tmpFile(const QTemporaryDir& d, const char* name)
{
    return d.filePath(QString::fromLatin1(name));
}

inline void expectRefusal(const QString& path, ErrorCode code, const char* needle)
{
    auto r = TiledImage::open(path.toStdString());
    QVERIFY2(!r, "a bad file was accepted");
    QCOMPARE(int(r.status().code()), int(code));
    const QString detail = QString::fromStdString(r.status().detail());
    QVERIFY2(detail.contains(QFileInfo(path).fileName()), qPrintable(detail));
    QVERIFY2(detail.contains(QLatin1String(needle), Qt::CaseInsensitive), qPrintable(detail));
}

} // namespace tiledtest
