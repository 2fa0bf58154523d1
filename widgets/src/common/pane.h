// A pane is one workspace of the main window (Data, Train, Analyze, Inspect, System). It owns
// its widgets, actions and saved state; MainWindow only composes panes.
#pragma once

#include <QIcon>
#include <QSettings>
#include <QWidget>

namespace fisura::ui
{

class Pane : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    /// Stable id for settings and tests ("data", "train", ...).
    virtual QString paneId() const = 0;
    /// Translated title for navigation.
    virtual QString title() const = 0;
    virtual QIcon icon() const { return {}; }
    virtual void saveState(QSettings&) const {}
    virtual void restoreState(QSettings&) {}

    /// Work that must not be cut off (a training run, a scan queue): one translated line that
    /// says what runs, empty when the pane is idle. The main window asks before closing.
    virtual QString runningWork() const { return {}; }
    /// Ask running work to stop cleanly (cancel); busyChanged(false) follows once it has.
    virtual void stopWork() {}
    /// Unsaved work (labels being drawn): asks the user to save, discard or cancel before the
    /// window closes. False keeps the window open (cancelled, or saving first and closing after).
    virtual bool confirmClose() { return true; }

Q_SIGNALS:
    /// The title changed (language switch); navigation relabels.
    void titleChanged();
    /// A short message for the main window's status bar.
    void statusMessage(const QString& text, int timeoutMs = 0);
    /// runningWork() became non-empty (true) or empty (false).
    void busyChanged(bool busy);

protected:
    /// Re-set every visible string; called on language change.
    virtual void retranslateUi() = 0;
    void changeEvent(QEvent* e) override;
};

} // namespace fisura::ui
