#include "common/screenfit.h"

#include <QToolButton>

#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>

#include <algorithm>

namespace fisura::ui
{

QRect initialWindowGeometry(QSize preferred, const QRect& available)
{
    const QSize size = preferred.boundedTo(available.size());
    QRect r(QPoint(0, 0), size);
    r.moveCenter(available.center());
    // Integer centring can leave the rectangle one pixel outside; pull it back in.
    r.moveLeft(std::max(r.left(), available.left()));
    r.moveTop(std::max(r.top(), available.top()));
    return r;
}

void saveSplitters(QSettings& s, const QWidget* root, const QString& group)
{
    for (const QSplitter* sp : root->findChildren<QSplitter*>())
        if (!sp->objectName().isEmpty())
            s.setValue(group + QLatin1Char('/') + sp->objectName(), sp->saveState());
}

void restoreSplitters(QSettings& s, QWidget* root, const QString& group)
{
    for (QSplitter* sp : root->findChildren<QSplitter*>())
        if (!sp->objectName().isEmpty())
            sp->restoreState(s.value(group + QLatin1Char('/') + sp->objectName()).toByteArray());
}

void showWholeTabs(QTabWidget* tabs)
{
    tabs->setUsesScrollButtons(false);
    tabs->setElideMode(Qt::ElideNone);
}

namespace
{
/// Asks for the panel's minimum width (plus the scroll bar) and only a little height: texts that
/// grow (a language switch) widen it, while the height is left to scrolling.
class SidePanelScroll : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;

    QSize minimumSizeHint() const override
    {
        const QWidget* w = widget();
        if (!w)
            return QScrollArea::minimumSizeHint();
        const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
        return {w->minimumSizeHint().width() + bar + 2 * frameWidth() + 2, 120};
    }
    QSize sizeHint() const override
    {
        const QWidget* w = widget();
        if (!w)
            return QScrollArea::sizeHint();
        return {minimumSizeHint().width(), w->sizeHint().height()};
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override
    {
        // The panel's layout changed (texts, shown sections): the width it needs may have too.
        if (o == widget() && e->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::eventFilter(o, e);
    }
};
} // namespace

QScrollArea* scrollingPanel(QWidget* panel, QWidget* parent)
{
    auto* scroll = new SidePanelScroll(parent);
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    panel->installEventFilter(scroll);
    return scroll;
}

QToolButton* narrowTextButton(QAction* action, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setDefaultAction(action);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    return b;
}

} // namespace fisura::ui
