#include "viewer/overlaystack.h"

#include <algorithm>
#include <cmath>

#include "viewer/editablelayer.h"

namespace fisura::ui
{

void ViewSource::cancelBackgroundWork()
{
    if (cancelOverview)
        cancelOverview->store(true);
}

OverlayStack::OverlayStack() = default;
OverlayStack::~OverlayStack() = default;

void OverlayStack::append(std::unique_ptr<ViewSource> layer)
{
    layers_.push_back(std::move(layer));
}

std::unique_ptr<ViewSource> OverlayStack::take(int i)
{
    if (!isIndex(i))
        return nullptr;
    auto s = std::move(layers_[size_t(i)]);
    layers_.erase(layers_.begin() + i);
    return s;
}

bool OverlayStack::move(int from, int to)
{
    if (!isIndex(from) || !isIndex(to) || from == to)
        return false;
    auto s = take(from);
    layers_.insert(layers_.begin() + to, std::move(s));
    return true;
}

void OverlayStack::clear()
{
    layers_.clear();
    editable_.reset();
}

OverlayStyle OverlayStack::style(int i) const
{
    return isIndex(i) ? at(i).colours.style() : OverlayStyle();
}

bool OverlayStack::setStyle(int i, const OverlayStyle& style)
{
    if (!isIndex(i))
        return false;
    ViewSource& s = at(i);
    const bool wasVisible = s.colours.style().visible;
    // Only the table changes: tiles are recoloured from their cached values when drawn.
    s.colours.setStyle(style);
    return wasVisible != style.visible;
}

bool OverlayStack::isShown(int i) const
{
    if (!isIndex(i) || !at(i).colours.style().visible)
        return false;
    return solo_ < 0 || solo_ == i;
}

void OverlayStack::setSwipe(bool on, int left, int right)
{
    swipe_ = on;
    swipeLeft_ = left;
    swipeRight_ = right;
}

void OverlayStack::setSwipePosition(double fraction)
{
    swipePos_ = std::clamp(fraction, 0.0, 1.0);
}

int OverlayStack::dividerX(int width) const
{
    return int(std::lround(swipePos_ * width));
}

std::vector<OverlayStack::Draw> OverlayStack::drawOrder(const QRect& view) const
{
    std::vector<Draw> out;
    const int divider = view.left() + dividerX(view.width());
    for (int i = 0; i < count(); ++i) {
        if (!isShown(i))
            continue;
        QRect clip = view;
        if (swipe_ && i == swipeLeft_)
            clip.setRight(divider - 1);
        else if (swipe_ && i == swipeRight_)
            clip.setLeft(divider);
        out.push_back({i, clip});
    }
    return out;
}

void OverlayStack::setEditable(std::unique_ptr<EditableLayer> layer)
{
    editable_ = std::move(layer);
}

void OverlayStack::addDecoration(ViewerDecoration* d)
{
    decorations_.erase(std::remove(decorations_.begin(), decorations_.end(), nullptr),
                       decorations_.end());
    decorations_.emplace_back(d);
}

std::vector<ViewerDecoration*> OverlayStack::decorations() const
{
    std::vector<ViewerDecoration*> out;
    for (const QPointer<ViewerDecoration>& d : decorations_)
        if (d)
            out.push_back(d.data());
    return out;
}

} // namespace fisura::ui
