#include "label/labelsource.h"

#include "common/imageconvert.h"
#include "fisura/labels.h"

namespace fisura::ui
{

QSize LabelOverlaySource::size() const
{
    return QSize(layer_->width(), layer_->height());
}

QImage LabelOverlaySource::readRegion(const QRect& r) const
{
    if (blocked_ || r.isEmpty())
        return {};
    auto im = layer_->readRegion(LabelRect{r.x(), r.y(), r.width(), r.height()});
    return im ? toQImage(*im) : QImage();
}

QImage LabelOverlaySource::overview(int maxSide) const
{
    if (blocked_)
        return {};
    auto im = layer_->overview(maxSide);
    return im ? toQImage(*im) : QImage();
}

} // namespace fisura::ui
