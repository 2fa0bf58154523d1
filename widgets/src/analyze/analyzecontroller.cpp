#include "analyze/analyzecontroller.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

#include "analyze/analyzerunner.h"
#include "analyze/modelfacts.h"
#include "common/errortext.h"
#include "fisura/image.h"
#include "fisura/project.h"
#include "fisura/threshold.h"
#include "project/projectsession.h"

namespace fisura::ui
{

namespace
{

const QString kQueueFileName = QStringLiteral("analyze-queue.json");

/// Image files of a folder (not its subfolders), sorted by name.
QStringList imagesIn(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Readable);
    while (it.hasNext()) {
        const QString f = it.next();
        if (hasImageExtension(f.toStdString()))
            out << f;
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

AnalyzeController::AnalyzeController(AnalyzeQueueModel* queue, QObject* parent)
    : QObject(parent), queue_(queue), runner_(new AnalyzeRunner(this))
{
    connect(runner_, &AnalyzeRunner::preparing, this, &AnalyzeController::onPreparing);
    connect(runner_, &AnalyzeRunner::progress, this, &AnalyzeController::onProgress);
    connect(runner_, &AnalyzeRunner::prepared, this,
            [this](const QString&, const ExecutionPolicy& p) { Q_EMIT modelPrepared(p); });
    connect(runner_, &AnalyzeRunner::paced, this,
            [this](const QString& rowId, const PaceForecast& f) {
                queue_->update(rowId, [&](ScanRow& r) {
                    r.pace = f;
                    r.hasPace = true;
                });
                Q_EMIT scanPaced(f);
            });
    connect(runner_, &AnalyzeRunner::finished, this, &AnalyzeController::onFinished);
}

AnalyzeController::~AnalyzeController()
{
    runner_->cancel();
    runner_->wait();
}

void AnalyzeController::setProjectSession(ProjectSession* session)
{
    if (session_ == session)
        return;
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    if (session_)
        connect(session_, &ProjectSession::projectChanged, this, &AnalyzeController::reloadQueue);
    reloadQueue();
}

ProjectSession* AnalyzeController::projectSession() const
{
    return session_.data();
}

void AnalyzeController::reloadQueue()
{
    // The queue belongs to its place (project or none). A running queue stops; its scans stay
    // waiting in their own queue file, to be resumed there.
    if (running_) {
        const QString id = runner_->currentRow();
        runner_->abandon();
        queue_->update(id, [](ScanRow& r) {
            r.state = QueueRowState::Waiting;
            r.preparing = false;
            r.fraction = 0;
        });
        saveQueue();
        stopping_ = false;
        setRunning(false);
    }
    queuePath_ = queueFile();
    queue_->clear();
    const int waiting = restoreQueue();
    refreshPlannedOutputs();
    Q_EMIT queueRestored(waiting);
}

void AnalyzeController::setModel(const AnalyzeModelChoice& model)
{
    if (model.path != model_.path && !running_)
        runner_->releaseModel(); // frees the device memory the previous one held
    model_ = model;
    refreshPlannedOutputs();
}

QString AnalyzeController::outputFor(const QString& input) const
{
    const QFileInfo in(input);
    const MapKind kind = mapKindFor(model_.ok ? model_.info.config.type : ModelType::UNet);
    if (session_ && session_->hasProject()) {
        // The project's maps/ holds the maps of several models: the run (or model) is named.
        const QString tag =
            !model_.runId.isEmpty() ? model_.runId : QFileInfo(model_.path).completeBaseName();
        const QString maps = QString::fromStdString(session_->project().mapsDir());
        return QDir(maps).filePath(
            QString::fromStdString(mapFileName(input.toStdString(), kind, tag.toStdString())));
    }
    return in.dir().filePath(QString::fromStdString(mapFileName(input.toStdString(), kind)));
}

QString AnalyzeController::uniqueOutput(const QString& rowId, const QString& input) const
{
    // Two scans with one name (a.tif and a.png, or a.tif from two folders into the project's
    // maps/) must not write the same map: the later one gets a number.
    const QString first = outputFor(input);
    QString out = first;
    for (int n = 2;; ++n) {
        const bool taken =
            std::any_of(queue_->rows().begin(), queue_->rows().end(), [&](const ScanRow& r) {
                return r.id != rowId && r.input != input && r.output == out;
            });
        if (!taken)
            return out;
        out = first.left(first.size() - 4) + QStringLiteral("-%1.tif").arg(n);
    }
}

void AnalyzeController::refreshPlannedOutputs()
{
    for (const ScanRow& r : queue_->rows())
        if (r.state == QueueRowState::Waiting)
            queue_->update(r.id, [this](ScanRow& w) { w.output = uniqueOutput(w.id, w.input); });
}

QStringList AnalyzeController::addScans(const QStringList& paths)
{
    QStringList files;
    for (const QString& p : paths) {
        const QFileInfo fi(p);
        if (fi.isDir())
            files << imagesIn(fi.absoluteFilePath());
        else if (fi.isFile() && hasImageExtension(p.toStdString()))
            files << fi.absoluteFilePath();
    }
    QStringList ids;
    for (const QString& f : files) {
        ScanRow r;
        r.input = f;
        probeScan(f, r.width, r.height, r.pixelSizeMm); // unreadable: listed, fails when run
        r.output = uniqueOutput(QString(), f);
        ids << queue_->append(r);
    }
    if (!ids.isEmpty())
        saveQueue();
    return ids;
}

void AnalyzeController::removeScans(const QStringList& ids)
{
    queue_->remove(ids);
    saveQueue();
}

bool AnalyzeController::start()
{
    if (running_)
        return true; // rows added meanwhile are picked up in turn
    if (!model_.ok || queue_->firstWaiting() < 0)
        return false;
    stopping_ = false;
    setRunning(true);
    runNext();
    return true;
}

void AnalyzeController::runNext()
{
    const int i = stopping_ ? -1 : queue_->firstWaiting();
    if (i < 0) {
        setRunning(false);
        saveQueue();
        Q_EMIT queueFinished();
        return;
    }
    const QString id = queue_->at(i).id;
    const QString output = uniqueOutput(id, queue_->at(i).input);
    queue_->update(id, [&](ScanRow& r) {
        r.state = QueueRowState::Running;
        r.hasPace = false; // said again for this run, before its first tile
        r.preparing = false;
        r.fraction = 0;
        r.megapixelsPerSecond = 0;
        r.etaSeconds = -1;
        r.error.clear();
        r.failure = Status::ok();
        r.output = output;
        r.modelPath = model_.path;
        r.runId = model_.runId;
        r.threshold = modelMapByteThreshold(mapKindFor(model_.info.config.type),
                                            model_.info.threshold, model_.threshold);
    });
    saveQueue();
    QDir().mkpath(QFileInfo(output).absolutePath());
    AnalyzeTask task;
    task.rowId = id;
    task.modelPath = model_.path;
    task.options = options_;
    task.input = queue_->at(i).input;
    task.output = output;
    runner_->start(task);
}

void AnalyzeController::onPreparing(const QString& rowId)
{
    queue_->update(rowId, [](ScanRow& r) { r.preparing = true; });
}

void AnalyzeController::onProgress(const QString& rowId, double fraction, double eta,
                                   double elapsed)
{
    queue_->update(rowId, [&](ScanRow& r) {
        r.preparing = false;
        r.fraction = std::clamp(fraction, 0.0, 1.0);
        r.etaSeconds = eta;
        const double megapixels = double(r.width) * double(r.height) / 1e6;
        r.megapixelsPerSecond = elapsed > 0 ? r.fraction * megapixels / elapsed : 0.0;
    });
}

void AnalyzeController::onFinished(const QString& rowId, const Status& status,
                                   const InferStats& stats)
{
    const ScanRow* before = queue_->find(rowId);
    const bool prepareFailed =
        before && before->preparing && !status.isOk() && status.code() != ErrorCode::Cancelled;
    queue_->update(rowId, [&](ScanRow& r) {
        r.preparing = false;
        r.etaSeconds = -1;
        if (status.isOk()) {
            r.state = QueueRowState::Done;
            r.fraction = 1.0;
            r.width = stats.width;
            r.height = stats.height;
            r.seconds = stats.seconds;
            r.megapixelsPerSecond = stats.megapixelsPerSecond;
            r.output = QString::fromStdString(stats.output);
            r.statsJson = QString::fromStdString(toJson(stats));
        } else if (status.code() == ErrorCode::Cancelled) {
            r.state = QueueRowState::Cancelled;
        } else {
            r.state = QueueRowState::Failed;
            r.failure = status;
            r.error = errorMessage(status);
        }
    });
    if (status.isOk())
        if (const ScanRow* r = queue_->find(rowId))
            recordInProject(*r, stats);
    saveQueue();
    Q_EMIT scanFinished(rowId);
    if (prepareFailed) {
        // Every other scan would fail the same way: stop, the rest keeps waiting.
        stopping_ = true;
        Q_EMIT modelFailed(status);
    }
    runNext();
}

void AnalyzeController::recordInProject(const ScanRow& row, const InferStats& stats)
{
    if (!session_ || !session_->hasProject())
        return;
    ProjectScan scan;
    scan.input = row.input.toStdString();
    scan.modelPath = row.modelPath.toStdString();
    scan.runId = row.runId.toStdString();
    scan.mapPath = row.output.toStdString();
    scan.width = stats.width;
    scan.height = stats.height;
    scan.statsJson = toJson(stats);
    scan.analysedAt = utcNowIso();
    const Status s = session_->update([&scan](Project& p) { p.recordScan(scan); });
    if (!s)
        Q_EMIT saveFailed(errorMessage(s));
}

void AnalyzeController::cancel(const QString& rowId)
{
    const ScanRow* r = queue_->find(rowId);
    if (!r)
        return;
    if (r->state == QueueRowState::Running) {
        runner_->cancel(); // onFinished marks it and goes on with the next
    } else if (r->state == QueueRowState::Waiting) {
        queue_->update(rowId, [](ScanRow& w) { w.state = QueueRowState::Cancelled; });
        saveQueue();
    }
}

void AnalyzeController::cancelAll()
{
    for (const ScanRow& r : queue_->rows())
        if (r.state == QueueRowState::Waiting)
            queue_->update(r.id, [](ScanRow& w) { w.state = QueueRowState::Cancelled; });
    if (running_) {
        stopping_ = true;
        runner_->cancel();
    }
    saveQueue();
}

void AnalyzeController::waitForWorker()
{
    runner_->wait();
}

void AnalyzeController::setRunning(bool running)
{
    if (running_ == running)
        return;
    running_ = running;
    Q_EMIT runningChanged(running);
}

QString AnalyzeController::queueFile() const
{
    if (session_ && session_->hasProject())
        return QDir(QString::fromStdString(session_->project().dir())).filePath(kQueueFileName);
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(kQueueFileName);
}

bool AnalyzeController::saveQueue() const
{
    QJsonObject json = queue_->toJson();
    json.insert(QStringLiteral("model"), model_.path);
    json.insert(QStringLiteral("run"), model_.runId);
    const QString path = queuePath_.isEmpty() ? queueFile() : queuePath_;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path); // atomic: a crash leaves the previous queue
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(json).toJson(QJsonDocument::Indented)) < 0 || !f.commit())
        return false;
    return true;
}

int AnalyzeController::restoreQueue()
{
    lastQueueModel_.clear();
    lastQueueRun_.clear();
    QFile f(queuePath_.isEmpty() ? queueFile() : queuePath_);
    if (!f.open(QIODevice::ReadOnly) || f.size() > kMaxQueueFileBytes) {
        queue_->clear();
        return 0;
    }
    const QueueFile saved = readQueueFile(f.readAll());
    lastQueueModel_ = saved.model;
    lastQueueRun_ = saved.run;
    return queue_->fromFile(saved);
}

} // namespace fisura::ui
