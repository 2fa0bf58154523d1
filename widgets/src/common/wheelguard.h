// Nothing changes by accident: a spin box, combo box or slider takes the mouse wheel only once it
// has the focus (a click or Tab gave it). Over an unfocused one the wheel goes on to its parent,
// so a scrolling panel keeps scrolling while a field passes under the pointer instead of the
// field's value changing silently (Inspect's "Pixel size" did).
//
// One application-wide event filter does it for every window, pane and dialog; MainWindow installs
// it once. It also gives these widgets Qt::StrongFocus instead of Qt::WheelFocus, so that the
// wheel itself does not focus them (Qt Creator's attachWheelBlocker does the same per widget).
#pragma once

#include <QObject>

class QWidget;

namespace fisura::ui
{

class WheelGuard : public QObject
{
    Q_OBJECT
public:
    /// Installs the guard on the application (once; later calls do nothing).
    static void install();
    static bool isInstalled();
    /// Whether `w` is a value control the guard protects (spin boxes, combo boxes, sliders; not
    /// scroll bars, which exist to take the wheel).
    static bool guards(const QWidget* w);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace fisura::ui
