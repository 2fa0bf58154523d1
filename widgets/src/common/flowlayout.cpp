#include "common/flowlayout.h"

#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace fisura::ui
{

namespace
{
/// The width an item asks for on a line `avail` wide: its hint, never below its minimum.
int itemWidth(const QLayoutItem* item, int avail)
{
    const int min = item->minimumSize().width();
    return std::max(min, std::min(item->sizeHint().width(), avail));
}
} // namespace

FlowLayout::FlowLayout(QWidget* parent) : QLayout(parent) {}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addStretch()
{
    stretchAt_ = int(items_.size());
}

void FlowLayout::addItem(QLayoutItem* item)
{
    items_.append(item);
    invalidate();
}

int FlowLayout::count() const
{
    return int(items_.size());
}

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return items_.value(index);
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= items_.size())
        return nullptr;
    if (stretchAt_ > index)
        --stretchAt_;
    QLayoutItem* item = items_.takeAt(index);
    invalidate();
    return item;
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    Qt::Orientations o;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty())
            o |= item->expandingDirections();
    return o;
}

int FlowLayout::gap(Qt::Orientation o) const
{
    if (spacing() >= 0)
        return spacing();
    // As a box layout in the same place would space its items.
    const QObject* p = parent();
    int g = -1;
    if (p && p->isWidgetType()) {
        const auto* w = static_cast<const QWidget*>(p);
        g = w->style()->pixelMetric(o == Qt::Horizontal ? QStyle::PM_LayoutHorizontalSpacing
                                                        : QStyle::PM_LayoutVerticalSpacing,
                                    nullptr, w);
    } else if (p) {
        g = static_cast<const QLayout*>(p)->spacing();
    }
    return g >= 0 ? g : 6;
}

QList<FlowLayout::Line> FlowLayout::lines(int width) const
{
    QList<Line> out;
    int x = 0;
    const int space = gap(Qt::Horizontal);
    for (QLayoutItem* item : items_) {
        if (item->isEmpty())
            continue;
        const int w = itemWidth(item, width);
        if (out.isEmpty() || (!out.last().items.isEmpty() && x + space + w > width)) {
            out.append(Line{});
            x = -space;
        }
        out.last().items.append(item);
        out.last().height = std::max(out.last().height, item->sizeHint().height());
        x += space + w;
    }
    return out;
}

int FlowLayout::heightForWidth(int width) const
{
    const QMargins m = contentsMargins();
    const QList<Line> ls = lines(width - m.left() - m.right());
    int h = m.top() + m.bottom();
    for (const Line& l : ls)
        h += l.height;
    return h + std::max<int>(0, int(ls.size()) - 1) * gap(Qt::Vertical);
}

QSize FlowLayout::minimumSize() const
{
    // As narrow as the widest item: everything else goes onto more lines.
    QSize s;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty())
            s = s.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return s + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // One line, as a QHBoxLayout would be.
    int w = 0;
    int h = 0;
    int n = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty())
            continue;
        const QSize s = item->sizeHint().expandedTo(item->minimumSize());
        w += s.width();
        h = std::max(h, s.height());
        ++n;
    }
    const QMargins m = contentsMargins();
    return {w + std::max(0, n - 1) * gap(Qt::Horizontal) + m.left() + m.right(),
            h + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    const QRect r = rect.marginsRemoved(contentsMargins());
    const QList<Line> ls = lines(r.width());
    if (ls.isEmpty())
        return;
    // Height to spare goes to the lines whose items grow vertically (panels, not buttons).
    int used = int(ls.size() - 1) * gap(Qt::Vertical);
    int growing = 0;
    for (const Line& l : ls) {
        used += l.height;
        growing += std::any_of(l.items.begin(), l.items.end(), [](const QLayoutItem* i) {
            return i->expandingDirections() & Qt::Vertical;
        });
    }
    const int extra = std::max(0, r.height() - used);
    int y = r.top();
    for (const Line& l : ls) {
        const bool grows = std::any_of(l.items.begin(), l.items.end(), [](const QLayoutItem* i) {
            return i->expandingDirections() & Qt::Vertical;
        });
        const int h = l.height + (grows && growing > 0 ? extra / growing : 0);
        placeLine(l, r, y, h, ls.size() == 1);
        y += h + gap(Qt::Vertical);
    }
}

/// Lays one line out: items that grow sideways share the free width; otherwise, on a single
/// line, the items after the stretch move to the right end.
void FlowLayout::placeLine(const Line& line, const QRect& r, int y, int height, bool oneLine) const
{
    const int space = gap(Qt::Horizontal);
    QList<int> widths;
    int free = r.width() - int(line.items.size() - 1) * space;
    int growing = 0;
    for (const QLayoutItem* item : line.items) {
        widths.append(itemWidth(item, r.width()));
        free -= widths.last();
        growing += bool(item->expandingDirections() & Qt::Horizontal);
    }
    free = std::max(0, free);
    int x = r.left();
    int shared = 0;
    for (int i = 0; i < line.items.size(); ++i) {
        QLayoutItem* item = line.items[i];
        int w = widths[i];
        if (growing > 0 && (item->expandingDirections() & Qt::Horizontal)) {
            ++shared;
            w += shared == growing ? free - (growing - 1) * (free / growing) : free / growing;
        } else if (growing == 0 && oneLine && stretchAt_ >= 0 &&
                   items_.indexOf(item) >= stretchAt_ &&
                   (i == 0 || items_.indexOf(line.items[i - 1]) < stretchAt_)) {
            x += free; // the first item after the stretch
        }
        w = std::min(w, item->maximumSize().width());
        const int h = (item->expandingDirections() & Qt::Vertical)
                          ? std::min(height, item->maximumSize().height())
                          : std::min(height, item->sizeHint().height());
        item->setGeometry(QRect(x, y + (height - h) / 2, w, h));
        x += w + space;
    }
}

} // namespace fisura::ui
