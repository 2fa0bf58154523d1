#include "common/wrappedlabel.h"

#include <QResizeEvent>

#include <algorithm>

namespace fisura::ui
{

WrappedLabel::WrappedLabel(QWidget* parent) : QLabel(parent)
{
    setWordWrap(true);
}

QSize WrappedLabel::minimumSizeHint() const
{
    QSize s = QLabel::minimumSizeHint();
    if (width() > 0 && !text().isEmpty())
        s.setHeight(std::max(s.height(), heightForWidth(width())));
    return s;
}

void WrappedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    // A new width may need another number of lines: the layout asks again.
    if (const int h = heightForWidth(width()); h != linesHeight_) {
        linesHeight_ = h;
        updateGeometry();
    }
}

} // namespace fisura::ui
