#include "common/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QPointer>
#include <QScrollBar>
#include <QWheelEvent>

namespace fisura::ui
{

namespace
{
QPointer<WheelGuard> g_guard;
} // namespace

void WheelGuard::install()
{
    if (g_guard || !qApp)
        return;
    g_guard = new WheelGuard(qApp);
    qApp->installEventFilter(g_guard);
}

bool WheelGuard::isInstalled()
{
    return !g_guard.isNull();
}

bool WheelGuard::guards(const QWidget* w)
{
    if (!w)
        return false;
    if (qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w))
        return true;
    return qobject_cast<const QAbstractSlider*>(w) && !qobject_cast<const QScrollBar*>(w);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::Wheel && type != QEvent::Polish)
        return false;
    auto* w = qobject_cast<QWidget*>(watched);
    if (!guards(w))
        return false;
    if (type == QEvent::Polish) {
        // Spin boxes and sliders default to WheelFocus: the wheel would focus them first.
        if (w->focusPolicy() == Qt::WheelFocus)
            w->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (w->hasFocus())
        return false;
    // The scroll area around the field scrolls instead. Handed over directly: QApplication passes
    // an ignored wheel event on to the parents only when it came from the window system.
    auto* wheel = static_cast<QWheelEvent*>(event);
    for (QWidget* v = w; v && !v->isWindow(); v = v->parentWidget()) {
        auto* area = qobject_cast<QAbstractScrollArea*>(v->parentWidget());
        if (!area || area->viewport() != v)
            continue;
        QWheelEvent scroll(v->mapFromGlobal(wheel->globalPosition()), wheel->globalPosition(),
                           wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(),
                           wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
        QCoreApplication::sendEvent(v, &scroll);
        event->setAccepted(true);
        return true;
    }
    event->ignore(); // no scroll area: the parents may take it, the field does not
    return true;
}

} // namespace fisura::ui
