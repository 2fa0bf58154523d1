// GeoTIFF / GDAL tags that libtiff does not know: registered once so they can be read and
// written as plain values, and carried opaquely from a source scan to the files Fisura writes.
#pragma once

#include <vector>

#include <tiffio.h>

#include "fisura/tiledimage.h"

namespace fisura::io
{

/// Installs the tag extender (idempotent, thread-safe). TiffHandle::open calls it.
void registerExtraTags();
/// The registered opaque tags present in the current directory.
std::vector<TiffTag> readOpaqueTags(TIFF* tif);
/// Writes tags read by readOpaqueTags into the current directory; unknown tags are skipped.
void writeOpaqueTags(TIFF* tif, const std::vector<TiffTag>& tags);

} // namespace fisura::io
