// The project the window works in, shared by every pane. It owns the fisura::Project, applies
// edits on the GUI thread and saves project.json (atomically) after every change, so nothing is
// lost when the application or the machine stops. Panes read it and listen to its signals.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

#include "common/statusmeta.h"
#include "fisura/project.h"

namespace fisura::ui
{

class ProjectSession : public QObject
{
    Q_OBJECT
public:
    explicit ProjectSession(QObject* parent = nullptr);
    ~ProjectSession() override;

    bool hasProject() const { return project_.has_value(); }
    /// The open project; call only when hasProject().
    const Project& project() const { return *project_; }
    QString projectDir() const;
    QString projectName() const;

    Status newProject(const QString& dir, const QString& name);
    Status openProject(const QString& dirOrFile);
    /// Copy the project to `dir` and continue working there.
    Status saveAs(const QString& dir);
    void closeProject();

    /// Apply `edit` and save. When the save fails the edit is undone, saveFailed() is emitted
    /// and the error returned: what is on disk and what is shown stay the same.
    Status update(const std::function<void(Project&)>& edit);

    /// Newest first, at most 8, only folders that still hold a project.json.
    QStringList recentProjects() const;
    /// Where "Open demo project" keeps its project: a visible folder the analyst finds again in
    /// a file manager and in file dialogs (Documents/Fisura/demo-project, or the home folder's
    /// Fisura/demo-project without a Documents folder). In QStandardPaths' test mode it stays in
    /// the test sandbox (AppLocalDataLocation/demo-project).
    static QString demoProjectDir();
    /// The folder a file dialog opens at: `remembered` when it is still a folder, else the open
    /// project's `sub` folder (or the project's folder), else the home folder — never the
    /// process's working directory. `session` may be null.
    static QString dialogFolder(const ProjectSession* session, const QString& remembered,
                                const QString& sub = {});
    /// The demo project's scan (with its ground-truth mask beside it).
    static QString demoScanPath(const QString& projectDir);

Q_SIGNALS:
    /// A project was opened, created or closed.
    void projectChanged();
    /// Datasets, runs or scans of the open project changed.
    void contentChanged();
    void saveFailed(const fisura::Status& status);

private:
    void remember(const QString& dir);

    std::optional<Project> project_;
};

} // namespace fisura::ui
