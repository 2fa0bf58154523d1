// The width classes of measured cracks as an image: every pixel of a kept crack (the cleaned
// mask that measureCracks measured) carries the code of its crack's class, so a viewer can
// colour whole cracks by class through a lookup table.
#pragma once

#include <string>

#include "fisura/job.h"
#include "fisura/measure.h"
#include "fisura/status.h"

namespace fisura
{

/// Code of width class k of n classes in a class map: (k + 1) x 255 / n, rounded down
/// (63, 127, 191, 255 for the four default classes); 0 is background.
inline int classMapCode(int k, int classes)
{
    return classes > 0 ? (k + 1) * 255 / classes : 0;
}

/// Writes an 8-bit tiled pyramidal TIFF of the map's size (pixel size tags included) with
/// classMapCode(crack.widthClass) on the pixels of every crack in `result`, re-reading the map
/// tile by tile with result.options (threshold and closing; same tiles and margins), so memory
/// stays bounded by a band of tiles. Cracks dropped as noise stay 0. Needs a pixel size
/// (InvalidArgument without classes). Written atomically; Cancelled between tile rows.
Status writeClassMap(const MeasureResult& result, const std::string& path,
                     const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

} // namespace fisura
