#include "project/projectactions.h"

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStyle>
#include <QWidget>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "project/projectsession.h"

namespace fisura::ui
{

ProjectActions::ProjectActions(ProjectSession* session, QWidget* dialogParent)
    : QObject(dialogParent), session_(session), parent_(dialogParent), new_(new QAction(this)),
      open_(new QAction(this)), saveAs_(new QAction(this)), close_(new QAction(this)),
      demo_(new QAction(this)), recent_(new QMenu(dialogParent)), demoJob_(new JobRunner(this))
{
    QStyle* st = dialogParent->style();
    new_->setObjectName(QStringLiteral("newProjectAction"));
    new_->setIcon(st->standardIcon(QStyle::SP_FileDialogNewFolder));
    new_->setShortcut(QKeySequence::New);
    open_->setObjectName(QStringLiteral("openProjectAction"));
    open_->setIcon(st->standardIcon(QStyle::SP_DialogOpenButton));
    open_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    saveAs_->setObjectName(QStringLiteral("saveProjectAsAction"));
    saveAs_->setIcon(st->standardIcon(QStyle::SP_DialogSaveButton));
    saveAs_->setShortcut(QKeySequence::SaveAs);
    close_->setObjectName(QStringLiteral("closeProjectAction"));
    demo_->setObjectName(QStringLiteral("demoProjectAction"));
    demo_->setIcon(st->standardIcon(QStyle::SP_DirHomeIcon));
    recent_->setObjectName(QStringLiteral("recentProjectsMenu"));

    connect(new_, &QAction::triggered, this, &ProjectActions::chooseNew);
    connect(open_, &QAction::triggered, this, &ProjectActions::chooseOpen);
    connect(saveAs_, &QAction::triggered, this, &ProjectActions::chooseSaveAs);
    connect(close_, &QAction::triggered, session_, &ProjectSession::closeProject);
    connect(demo_, &QAction::triggered, this, [this] { openDemoProject(); });
    connect(recent_, &QMenu::aboutToShow, this, &ProjectActions::rebuildRecent);
    connect(session_, &ProjectSession::projectChanged, this, [this] {
        saveAs_->setEnabled(session_->hasProject());
        close_->setEnabled(session_->hasProject());
    });
    connect(demoJob_, &JobRunner::progress, this, [this](double f, const QString&, double eta) {
        QString text = tr("Generating the demo project…");
        if (const QString e = formatEta(eta); !e.isEmpty())
            text += QStringLiteral(" ") + e;
        Q_EMIT progress(f, text);
    });
    saveAs_->setEnabled(false);
    close_->setEnabled(false);
    parent_->installEventFilter(this);
    retranslate();
    rebuildRecent();
}

ProjectActions::~ProjectActions()
{
    demoJob_->cancel();
    demoJob_->wait();
}

bool ProjectActions::eventFilter(QObject* o, QEvent* e)
{
    if (o == parent_ && e->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(o, e);
}

void ProjectActions::retranslate()
{
    new_->setText(tr("&New project…"));
    new_->setToolTip(tr("Create a project folder that keeps datasets, runs, models and maps"));
    open_->setText(tr("&Open project…"));
    open_->setToolTip(tr("Open a project folder"));
    saveAs_->setText(tr("Save project &as…"));
    saveAs_->setToolTip(tr("Copy the project to another folder and continue there"));
    close_->setText(tr("&Close project"));
    demo_->setText(tr("Open &demo project"));
    demo_->setToolTip(tr("A ready-made project with generated crack images, to try Fisura"));
    recent_->setTitle(tr("&Recent projects"));
}

void ProjectActions::setFolderChooser(std::function<QString(const QString&)> chooser)
{
    chooser_ = std::move(chooser);
}

QString ProjectActions::chooseFolder(const QString& title)
{
    if (chooser_)
        return chooser_(title);
    // Beside the open project (new projects are usually its siblings), else the home folder.
    QString start;
    if (session_->hasProject())
        start = QFileInfo(QString::fromStdString(session_->project().dir())).absolutePath();
    return QFileDialog::getExistingDirectory(parent_, title,
                                             ProjectSession::dialogFolder(nullptr, start));
}

void ProjectActions::report(const Status& s, const QString& what)
{
    const QString text = what + QStringLiteral("\n") + errorMessage(s);
    Q_EMIT failed(text);
    if (!chooser_) // interactive use: tests read failed()
        QMessageBox::warning(parent_, tr("Project"), text);
}

void ProjectActions::chooseNew()
{
    const QString dir = chooseFolder(tr("New project: choose an empty folder"));
    if (dir.isEmpty())
        return;
    if (const Status s = session_->newProject(dir, QFileInfo(dir).fileName()); !s)
        report(s, tr("Could not create a project in %1.").arg(QDir::toNativeSeparators(dir)));
}

void ProjectActions::chooseOpen()
{
    const QString dir = chooseFolder(tr("Open project"));
    if (!dir.isEmpty())
        openProject(dir);
}

bool ProjectActions::openProject(const QString& dir)
{
    const Status s = session_->openProject(dir);
    if (!s) {
        QString what = tr("Could not open the project in %1.").arg(QDir::toNativeSeparators(dir));
        // A project saved by a newer Fisura: say so plainly, with both schema versions.
        static const QRegularExpression schemas(QStringLiteral("schema (\\d+).*schema (\\d+)"));
        if (const auto m = schemas.match(QString::fromStdString(s.detail()));
            s.code() == ErrorCode::Unsupported && m.hasMatch()) {
            what += QStringLiteral("\n") +
                    tr("It was saved by a newer version of Fisura (project schema %1; this "
                       "version reads schema %2). Update Fisura to open it; the project is "
                       "left as it is.")
                        .arg(m.captured(1), m.captured(2));
        }
        report(s, what);
        return false;
    }
    reportMissing();
    return true;
}

void ProjectActions::reportMissing()
{
    // Paths that moved are listed, never fatal: the rest of the project works.
    QStringList lines;
    for (const MissingPath& m : session_->project().missingPaths())
        lines << QStringLiteral("%1 (%2): %3")
                     .arg(kindText(QString::fromStdString(m.kind)),
                          QString::fromStdString(m.ownerId),
                          QDir::toNativeSeparators(QString::fromStdString(m.path)));
    if (lines.isEmpty())
        return;
    const QString text =
        tr("Some files of this project are not where the project expects them (moved or "
           "deleted). Everything else works; put them back or remove what refers to them:") +
        QStringLiteral("\n\n") + lines.join(QLatin1Char('\n'));
    Q_EMIT missingPaths(lines);
    if (!chooser_) { // interactive use: tests read missingPaths()
        auto* box = new QMessageBox(QMessageBox::Information, tr("Project"), text, QMessageBox::Ok,
                                    parent_);
        box->setObjectName(QStringLiteral("missingPathsBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
}

QString ProjectActions::kindText(const QString& kind)
{
    if (kind == QStringLiteral("dataset"))
        return tr("dataset");
    if (kind == QStringLiteral("split"))
        return tr("split");
    if (kind == QStringLiteral("model"))
        return tr("model");
    if (kind == QStringLiteral("checkpoint"))
        return tr("checkpoint");
    if (kind == QStringLiteral("scan"))
        return tr("scan");
    if (kind == QStringLiteral("map"))
        return tr("map");
    if (kind == QStringLiteral("truth"))
        return tr("ground truth");
    return kind;
}

void ProjectActions::chooseSaveAs()
{
    if (!session_->hasProject())
        return;
    const QString dir = chooseFolder(tr("Save project as: choose an empty folder"));
    if (dir.isEmpty())
        return;
    if (const Status s = session_->saveAs(dir); !s)
        report(s, tr("Could not save the project to %1.").arg(QDir::toNativeSeparators(dir)));
}

void ProjectActions::rebuildRecent()
{
    recent_->clear();
    const QStringList dirs = session_->recentProjects();
    for (const QString& dir : dirs) {
        QAction* a = recent_->addAction(QDir::toNativeSeparators(dir));
        connect(a, &QAction::triggered, this, [this, dir] { openProject(dir); });
    }
    recent_->setEnabled(!dirs.isEmpty());
}

bool ProjectActions::isGeneratingDemo() const
{
    return demoJob_->isRunning();
}

void ProjectActions::cancelDemo()
{
    demoJob_->cancel();
}

void ProjectActions::openDemoProject(const QString& dir)
{
    openDemoProject(dir, demoOptions_);
}

void ProjectActions::openDemoProject(const QString& dirIn, const synth::DemoDatasetOptions& options)
{
    const QString dir = dirIn.isEmpty() ? ProjectSession::demoProjectDir() : dirIn;
    if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("project.json")))) {
        if (openProject(dir))
            Q_EMIT demoProjectReady(dir);
        return;
    }
    // First use: generate the data into <dir>/data, then make the project around it.
    const std::string data = QDir(dir).filePath(QStringLiteral("data")).toStdString();
    const bool started = demoJob_->start([data, options](const CancelToken& c, ProgressSink* p) {
        return synth::writeDemoDataset(data, options, c, p).status();
    });
    if (!started)
        return;
    demo_->setEnabled(false);
    connect(
        demoJob_, &JobRunner::finished, this,
        [this, dir](const Status& s) {
            demo_->setEnabled(true);
            const Status done = s ? finishDemo(dir) : s;
            Q_EMIT demoFinished();
            if (!done) {
                if (done.code() != ErrorCode::Cancelled)
                    report(done, tr("Could not create the demo project."));
                return;
            }
            Q_EMIT demoProjectReady(dir);
        },
        Qt::SingleShotConnection);
}

Status ProjectActions::finishDemo(const QString& dir)
{
    auto created = Project::create(dir.toStdString(), "Demo");
    if (!created)
        return created.status();
    Project p = std::move(created.value());
    const QDir data(QDir(dir).filePath(QStringLiteral("data")));
    // The newest dataset is the one the Train pane preselects: segmentation, added last.
    p.addDataset(data.filePath(QStringLiteral("classification")).toStdString(), TaskKind::Classify,
                 "classification");
    p.addDataset(data.filePath(QStringLiteral("segmentation")).toStdString(), TaskKind::Segment,
                 "segmentation");
    if (const Status s = p.save(); !s)
        return s;
    return session_->openProject(dir);
}

} // namespace fisura::ui
