// What the viewer's workers make from a TiledImage: one tile as a QImage, and the whole image
// small (the overview drawn while tiles load and in the overview map). Pure functions of the
// file's pixels, safe on any thread.
#pragma once

#include <QImage>

#include <atomic>
#include <functional>

#include "fisura/tiledimage.h"

namespace fisura::ui::viewerdetail
{

constexpr int kOverviewSide = 2048;
constexpr int kSyncOverviewSide = 512;
// More decoded pixels than this for one view and the viewer draws the overview instead: a
// non-pyramidal scan seen whole would otherwise decode gigabytes per frame.
constexpr qint64 kMaxViewPixels = 20ll * 1024 * 1024;

/// One tile of one level as a QImage: RGB32/ARGB32 for the scan, Grayscale8 values for overlays.
QImage decodeTile(const TiledImage& img, int level, int tile, int tx, int ty, bool aligned,
                  bool values);

/// The whole image at most `maxSide` a side (scan: box average; overlays: max).
QImage buildOverview(const TiledImage& img, bool values, int maxSide,
                     const std::atomic<bool>& cancel, const std::function<void(double)>& progress);

} // namespace fisura::ui::viewerdetail
