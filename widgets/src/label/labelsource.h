// The label layer as the viewer's editable overlay: level-0 regions and the overview of a
// LabelLayer as Grayscale8 images. While a job (save) owns the layer it answers nothing, and the
// viewer keeps what it has drawn until the job is over.
#pragma once

#include <atomic>

#include "viewer/tiledviewer.h"

namespace fisura
{
class LabelLayer;
}

namespace fisura::ui
{

class LabelOverlaySource : public EditableOverlaySource
{
public:
    explicit LabelOverlaySource(const LabelLayer* layer) : layer_(layer) {}
    void setBlocked(bool blocked) { blocked_ = blocked; }
    bool isBlocked() const { return blocked_; }

    QSize size() const override;
    QImage readRegion(const QRect& region) const override;
    QImage overview(int maxSide) const override;

private:
    const LabelLayer* layer_;
    std::atomic<bool> blocked_{false};
};

} // namespace fisura::ui
