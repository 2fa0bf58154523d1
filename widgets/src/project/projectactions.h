// The project commands of the File menu and the main toolbar: New, Open, Save As, recent
// projects, Close, and "Open demo project", which generates the demo data into a demo project on
// first use. Dialogs and the demo job live here; the main window only places the actions.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

#include "common/statusmeta.h"
#include "fisura/synth.h"

class QAction;
class QMenu;
class QWidget;

namespace fisura::ui
{

class JobRunner;
class ProjectSession;

class ProjectActions : public QObject
{
    Q_OBJECT
public:
    /// `dialogParent` parents the dialogs and message boxes.
    ProjectActions(ProjectSession* session, QWidget* dialogParent);
    ~ProjectActions() override;

    QAction* newAction() const { return new_; }
    QAction* openAction() const { return open_; }
    QAction* saveAsAction() const { return saveAs_; }
    QAction* closeAction() const { return close_; }
    QAction* demoAction() const { return demo_; }
    /// "Recent projects" submenu, kept up to date.
    QMenu* recentMenu() const { return recent_; }

    /// Open (generating it first when missing) the demo project in `dir`; empty = the default
    /// place. Asynchronous: demoProjectReady or failed follow.
    void openDemoProject(const QString& dir = {});
    void openDemoProject(const QString& dir, const synth::DemoDatasetOptions& options);
    bool isGeneratingDemo() const;
    /// Open `dir`, saying why not (a newer schema in plain words) and listing moved paths.
    bool openProject(const QString& dir);
    void cancelDemo();

    /// What "Open demo project" generates on first use (tests make it small).
    void setDemoOptions(const synth::DemoDatasetOptions& options) { demoOptions_ = options; }

    /// Tests replace the folder dialogs: the function returns the chosen folder (empty =
    /// the user cancelled).
    void setFolderChooser(std::function<QString(const QString& title)> chooser);

Q_SIGNALS:
    void demoProjectReady(const QString& dir);
    /// An action failed; the text is translated and names the file.
    void failed(const QString& message);
    /// The project just opened refers to files that are not there (one translated line each).
    void missingPaths(const QStringList& lines);
    /// The demo job ended (ready, failed or cancelled).
    void demoFinished();
    void progress(double fraction, const QString& text);

private:
    void retranslate();
    void chooseNew();
    void chooseOpen();
    void chooseSaveAs();
    void rebuildRecent();
    void report(const Status& s, const QString& what);
    void reportMissing();
    static QString kindText(const QString& kind);
    QString chooseFolder(const QString& title);
    Status finishDemo(const QString& dir);

    ProjectSession* session_;
    QWidget* parent_;
    QAction* new_;
    QAction* open_;
    QAction* saveAs_;
    QAction* close_;
    QAction* demo_;
    QMenu* recent_;
    JobRunner* demoJob_;
    std::function<QString(const QString&)> chooser_;
    synth::DemoDatasetOptions demoOptions_;
    bool eventFilterInstalled_ = false;
    bool eventFilter(QObject* o, QEvent* e) override;
};

} // namespace fisura::ui
