#include "common/imageprobe.h"

#include <QImageReader>

#include "fisura/raster.h"

namespace fisura::ui
{

Result<TiledImageInfo> probeImageFile(const QString& path)
{
    const std::string p = path.toStdString();
    if (rasterFormatOf(p) != RasterFormat::Tiff) {
        // PNG, JPEG, BMP: the header says the size without decoding the pixels.
        QImageReader reader(path);
        reader.setDecideFormatFromContent(true);
        const QSize size = reader.size();
        if (size.isValid()) {
            TiledImageInfo info;
            info.path = p;
            info.width = size.width();
            info.height = size.height();
            return info;
        }
    }
    return probeRaster(p);
}

} // namespace fisura::ui
