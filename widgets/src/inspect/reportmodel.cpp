// MeasureReport::modelFor: which model made a map, from the records Fisura keeps beside maps.
#include <QDir>
#include <QFileInfo>

#include "fisura/manifest.h"
#include "fisura/project.h"
#include "inspect/report.h"

namespace fisura::ui
{

namespace
{

QString canonical(const std::string& path)
{
    return QFileInfo(QString::fromStdString(path)).canonicalFilePath();
}

// The project whose maps/ folder (or whose folder) holds the map, and its scan of that map.
QString fromProject(const QString& map)
{
    const QDir mapDir = QFileInfo(map).absoluteDir();
    for (const QString& dir : {mapDir.absolutePath(), QFileInfo(mapDir.absolutePath()).path()}) {
        if (!QFileInfo::exists(QDir(dir).filePath(QStringLiteral("project.json"))))
            continue;
        auto project = Project::open(dir.toStdString());
        if (!project)
            continue;
        for (const ProjectScan& s : project->scans())
            if (!s.modelPath.empty() && canonical(s.mapPath) == map)
                return QFileInfo(QString::fromStdString(s.modelPath)).fileName();
    }
    return {};
}

// The manifests `fisura-cli infer` writes beside its maps.
QString fromManifests(const QString& map)
{
    const QDir dir = QFileInfo(map).absoluteDir();
    const QStringList names =
        dir.entryList({QStringLiteral("fisura-manifest*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : names) {
        auto m = readManifest(dir.filePath(name).toStdString());
        if (!m)
            continue;
        for (const ScanRecord& r : m->scans)
            if (r.state == ScanState::Done && canonical(r.output) == map)
                return QFileInfo(QString::fromStdString(m->model.path)).fileName();
    }
    return {};
}

} // namespace

QString MeasureReport::modelFor(const QString& mapPath)
{
    const QString map = QFileInfo(mapPath).canonicalFilePath();
    if (map.isEmpty())
        return {};
    const QString name = fromProject(map);
    return name.isEmpty() ? fromManifests(map) : name;
}

} // namespace fisura::ui
