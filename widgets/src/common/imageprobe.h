// The size of an image file as the GUI checks it before work starts (a ground-truth mask, a scan
// in the Analyze queue), decided like every reader in Fisura by the file's bytes
// (fisura/raster.h), not its name.
#pragma once

#include <QString>

#include "fisura/status.h"
#include "fisura/tiledimage.h"

namespace fisura::ui
{

/// Width, height, channels and pixel size of `path`. A TIFF (by its bytes) is opened by core's
/// tiled reader; another format only has its header read (QImageReader, by content), and what
/// that cannot read goes to probeRaster(), so the errors are core's: NotFound, Corrupt for a
/// file that is no image Fisura reads.
Result<TiledImageInfo> probeImageFile(const QString& path);

} // namespace fisura::ui
