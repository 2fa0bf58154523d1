// How fast a scan decodes, measured on a sample of its blocks before a run (plain C++, no torch):
// the decoding half of a PaceForecast (fisura/infer.h).
#pragma once

#include <string>

#include "fisura/tiledimage.h"

namespace fisura::detail
{

struct DecodeSample {
    int blocks = 0;          ///< blocks decoded and timed
    double megapixels = 0.0; ///< their pixels
    double seconds = 0.0;    ///< on this thread
    double megapixelsPerSecond() const { return seconds > 0 ? megapixels / seconds : 0.0; }
};

/// Decodes blocks of level 0 spread evenly over the scan (raster order, every n-th of up to
/// `maxBlocks`), on this thread, after one untimed block (the first read opens a file handle):
/// at least `minBlocks` and `minSeconds` (small blocks decode in microseconds, and a few of them
/// time poorly), at most `maxSeconds`. Blocks that fail to decode are skipped (the run reports
/// them); no sample when none decodes.
DecodeSample sampleDecoding(const TiledImage& image, int maxBlocks = 64, int minBlocks = 12,
                            double minSeconds = 0.03, double maxSeconds = 0.25);

} // namespace fisura::detail
