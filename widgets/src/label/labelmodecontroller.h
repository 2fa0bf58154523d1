// Label mode of the Inspect pane: the Label action, the Label section (LabelPanel), starting to
// label an image (with a queue to step through), and the questions about unsaved labels before
// another image opens or the window closes. The pane owns one and delegates to it; the pane is
// about viewing, this is about labelling.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

#include "fisura/status.h"

class QAction;
class QWidget;

namespace fisura::ui
{

class LabelPanel;
class ProjectSession;
class TiledViewer;

class LabelModeController : public QObject
{
    Q_OBJECT
public:
    /// Opens an image in the viewer (the pane's own way, with its ground truth and title).
    using OpenImage = std::function<Status(const QString& path)>;

    /// `host` is the pane: it shows the Label section and takes the label shortcuts.
    LabelModeController(TiledViewer* viewer, QWidget* host, OpenImage openImage);

    LabelPanel* panel() const { return panel_; }
    /// Checkable "Label" action (Ctrl+L), enabled while an image is open.
    QAction* action() const { return action_; }

    /// Opens `imagePath` (asking first about unsaved labels of the image open now) with its label
    /// layer on and the label tools shown; `queue` adds Next / Previous through those images.
    void startLabelling(const QString& imagePath, const QStringList& queue = {});
    /// Before another image opens: asks about unsaved labels (false: the user stays) and stops
    /// labelling the image open now.
    bool leaveImage();
    /// Models for "Propose labels" come from this project's runs (and model files).
    void setProjectSession(ProjectSession* session);
    /// Label work that must not be cut off (a save or a proposal), as for Pane::runningWork().
    QString runningWork() const;
    /// Unsaved labels: save, discard or cancel (false keeps the window open).
    bool confirmClose();
    void retranslateUi();

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);
    void busyChanged(bool busy);

private:
    void toggle(bool on);
    void showFailure(const QString& message);

    TiledViewer* viewer_;
    QWidget* host_;
    OpenImage openImage_;
    LabelPanel* panel_;
    QAction* action_;
};

} // namespace fisura::ui
