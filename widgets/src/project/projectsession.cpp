#include "project/projectsession.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "common/preference.h"

namespace fisura::ui
{

namespace
{

constexpr int kMaxRecent = 8;

const Preference<QStringList>& recentPreference()
{
    static const Preference<QStringList> p(QStringLiteral("project/recent"), QStringList());
    return p;
}

std::string toStd(const QString& s)
{
    return QDir::cleanPath(s).toStdString();
}

bool holdsProject(const QString& dir)
{
    return QFileInfo::exists(QDir(dir).filePath(QStringLiteral("project.json")));
}

} // namespace

ProjectSession::ProjectSession(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<fisura::Status>();
}

ProjectSession::~ProjectSession() = default;

QString ProjectSession::projectDir() const
{
    return project_ ? QString::fromStdString(project_->dir()) : QString();
}

QString ProjectSession::projectName() const
{
    return project_ ? QString::fromStdString(project_->name()) : QString();
}

Status ProjectSession::newProject(const QString& dir, const QString& name)
{
    auto created = Project::create(toStd(dir), name.toStdString());
    if (!created)
        return created.status();
    project_ = std::move(*created);
    remember(projectDir());
    Q_EMIT projectChanged();
    return Status::ok();
}

Status ProjectSession::openProject(const QString& dirOrFile)
{
    auto opened = Project::open(toStd(dirOrFile));
    if (!opened)
        return opened.status();
    project_ = std::move(*opened);
    remember(projectDir());
    Q_EMIT projectChanged();
    return Status::ok();
}

Status ProjectSession::saveAs(const QString& dir)
{
    if (!project_)
        return Status(ErrorCode::InvalidArgument, "no project is open");
    auto copy = project_->saveAs(toStd(dir));
    if (!copy)
        return copy.status();
    project_ = std::move(*copy);
    remember(projectDir());
    Q_EMIT projectChanged();
    return Status::ok();
}

void ProjectSession::closeProject()
{
    if (!project_)
        return;
    project_.reset();
    Q_EMIT projectChanged();
}

Status ProjectSession::update(const std::function<void(Project&)>& edit)
{
    if (!project_)
        return Status(ErrorCode::InvalidArgument, "no project is open");
    Project before = *project_; // the edit applies to the project only when it reaches the disk
    edit(*project_);
    const Status saved = project_->save();
    if (!saved) {
        project_ = std::move(before);
        Q_EMIT saveFailed(saved);
        return saved;
    }
    Q_EMIT contentChanged();
    return saved;
}

QStringList ProjectSession::recentProjects() const
{
    QStringList out;
    for (const QString& dir : recentPreference().value())
        if (out.size() < kMaxRecent && !out.contains(dir) && holdsProject(dir))
            out.append(dir);
    return out;
}

QString ProjectSession::demoProjectDir()
{
    // Not under ~/.local/share: the analyst is sent to its folders by every file dialog, and a
    // hidden folder is one a newcomer cannot find again.
    if (QStandardPaths::isTestModeEnabled())
        return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
               QStringLiteral("/demo-project");
    QString base = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (base.isEmpty() || !QFileInfo(base).isDir())
        base = QDir::homePath();
    return QDir(base).filePath(QStringLiteral("Fisura/demo-project"));
}

QString ProjectSession::dialogFolder(const ProjectSession* session, const QString& remembered,
                                     const QString& sub)
{
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir())
        return remembered;
    if (session && session->hasProject()) {
        const QDir project(QString::fromStdString(session->project().dir()));
        if (!sub.isEmpty() && QFileInfo(project.filePath(sub)).isDir())
            return project.filePath(sub);
        return project.path();
    }
    return QDir::homePath();
}

QString ProjectSession::demoScanPath(const QString& projectDir)
{
    return QDir(projectDir).filePath(QStringLiteral("data/scan/demo_scan.tif"));
}

void ProjectSession::remember(const QString& dir)
{
    QStringList list = recentPreference().value();
    list.removeAll(dir);
    list.prepend(dir);
    QStringList kept;
    for (const QString& d : list) // drop folders that no longer hold a project
        if (kept.size() < kMaxRecent && holdsProject(d))
            kept.append(d);
    recentPreference().setValue(kept);
}

} // namespace fisura::ui
