#include "train/peerranks.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QTimer>

#include "fisura/distributed.h"

namespace fisura::ui
{

namespace
{
constexpr int kKeptLines = 12; // of a peer's stderr, for the message of its failure

bool isProgram(const QString& path)
{
    const QFileInfo f(path);
    return f.isFile() && f.isExecutable();
}

/// This environment as rank `rank` of the job (fisura::rankEnvironment, as fisura-cli's own
/// launcher starts its ranks).
QProcessEnvironment rankProcessEnvironment(int rank, const DistributedIdentity& id, bool onCpu)
{
    QProcessEnvironment env;
    for (const auto& [key, value] : rankEnvironment(processEnvironment(), rank, id, onCpu))
        env.insert(QString::fromStdString(key), QString::fromStdString(value));
    return env;
}
} // namespace

struct PeerRanks::Peer {
    int rank = 0;
    QProcess* process = nullptr;
    QStringList lastLines;
    QByteArray partial; // an unfinished line of stderr
    bool ended = false;
};

PeerRanks::PeerRanks(QObject* parent) : QObject(parent), killTimer_(new QTimer(this))
{
    killTimer_->setSingleShot(true);
    connect(killTimer_, &QTimer::timeout, this, [this] {
        for (const auto& p : peers_)
            if (!p->ended)
                p->process->kill();
    });
}

PeerRanks::~PeerRanks()
{
    blockSignals(true);
    stopAndWait();
}

QString PeerRanks::findProgram()
{
    if (qEnvironmentVariableIsSet("FISURA_CLI")) {
        const QString set = qEnvironmentVariable("FISURA_CLI");
        return isProgram(set) ? QFileInfo(set).absoluteFilePath() : QString();
    }
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {here.filePath(QStringLiteral("fisura-cli")),
                                     here.filePath(QStringLiteral("../cli/fisura-cli"))})
        if (isProgram(candidate))
            return QFileInfo(candidate).absoluteFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("fisura-cli"));
}

bool PeerRanks::start(const QString& program, const TrainOptions& options,
                      const DistributedIdentity& rank0)
{
    stopAndWait();
    for (const auto& p : peers_) { // all ended: nothing of theirs arrives any more
        p->process->disconnect(this);
        p->process->deleteLater();
    }
    peers_.clear();
    error_.clear();
    started_ = 0;
    expected_ = rank0.worldSize - 1;
    stopping_ = false;
    optionsFile_ = std::make_unique<QTemporaryFile>(
        QDir(QDir::tempPath()).filePath(QStringLiteral("fisura-train-XXXXXX.json")));
    const QByteArray json = QByteArray::fromStdString(toJson(options));
    if (!optionsFile_->open() || optionsFile_->write(json) != json.size() ||
        !optionsFile_->flush()) {
        error_ = tr("The options for the other GPUs cannot be written to %1: %2")
                     .arg(QDir::toNativeSeparators(optionsFile_->fileName()),
                          optionsFile_->errorString());
        return false;
    }
    optionsFile_->close(); // the file stays until the next job or the end of this object
    for (int rank = 1; rank < rank0.worldSize; ++rank)
        startPeer(program, rank, rank0, options.preferCpu);
    return true;
}

void PeerRanks::startPeer(const QString& program, int rank, const DistributedIdentity& rank0,
                          bool onCpu)
{
    auto peer = std::make_unique<Peer>();
    Peer* p = peer.get();
    p->rank = rank;
    p->process = new QProcess(this);
    p->process->setProgram(program);
    p->process->setArguments({QStringLiteral("train"), QStringLiteral("--options-json"),
                              optionsFile_->fileName(), QStringLiteral("--quiet")});
    p->process->setProcessEnvironment(rankProcessEnvironment(rank, rank0, onCpu));
    p->process->setStandardOutputFile(QProcess::nullDevice());
    connect(p->process, &QProcess::started, this, [this] {
        if (++started_ == expected_)
            Q_EMIT allStarted();
    });
    connect(p->process, &QProcess::readyReadStandardError, this, [this, p] { readErrors(p); });
    connect(p->process, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            p->lastLines << p->process->errorString();
            onEnded(p, -1, true);
        }
    });
    connect(p->process, &QProcess::finished, this,
            [this, p](int code, QProcess::ExitStatus status) {
                onEnded(p, code, status == QProcess::CrashExit);
            });
    peers_.push_back(std::move(peer));
    p->process->start();
}

void PeerRanks::readErrors(Peer* p)
{
    p->partial += p->process->readAllStandardError();
    int nl;
    while ((nl = p->partial.indexOf('\n')) >= 0) {
        p->lastLines << QString::fromUtf8(p->partial.left(nl)).trimmed();
        p->partial.remove(0, nl + 1);
        while (p->lastLines.size() > kKeptLines)
            p->lastLines.removeFirst();
    }
}

void PeerRanks::onEnded(Peer* p, int exitCode, bool crashed)
{
    if (p->ended)
        return;
    p->ended = true;
    readErrors(p);
    if (!p->partial.trimmed().isEmpty())
        p->lastLines << QString::fromUtf8(p->partial).trimmed();
    p->partial.clear();
    if (!stopping_ && (crashed || exitCode != 0))
        Q_EMIT failed(p->rank, crashed ? -1 : exitCode, p->lastLines.join(QLatin1Char('\n')));
    if (running() == 0) {
        killTimer_->stop();
        Q_EMIT allEnded();
    }
}

void PeerRanks::stop(int graceMs)
{
    stopping_ = true;
    if (running() == 0)
        return;
    for (const auto& p : peers_)
        if (!p->ended)
            p->process->terminate(); // SIGTERM: fisura-cli cancels its job and exits
    killTimer_->start(graceMs);
}

void PeerRanks::stopAndWait(int graceMs)
{
    stop(graceMs);
    for (const auto& p : peers_) {
        if (p->ended)
            continue;
        if (!p->process->waitForFinished(graceMs))
            p->process->kill();
        p->process->waitForFinished(1000);
        onEnded(p.get(), p->process->exitCode(), true);
    }
}

QList<qint64> PeerRanks::processIds() const
{
    QList<qint64> ids;
    for (const auto& p : peers_)
        if (p->process->processId() > 0)
            ids << p->process->processId();
    return ids;
}

int PeerRanks::running() const
{
    int n = 0;
    for (const auto& p : peers_)
        n += p->ended ? 0 : 1;
    return n;
}

} // namespace fisura::ui
