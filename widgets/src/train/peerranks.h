// The other ranks of a data-parallel job that the desktop application trains on several GPUs:
// rank 0 runs in this process (TrainController's thread), ranks 1..N-1 are fisura-cli
// processes, one per GPU, that read the same TrainOptions from a temporary JSON file and join
// the job from their environment as they do under torchrun (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT). One GPU per process: NCCL with several GPUs driven
// from threads of one process can deadlock (PyTorch dropped single-process multi-GPU
// DataParallel training for the same reason).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "fisura/distributed.h"
#include "fisura/project.h"

class QProcess;
class QTemporaryFile;
class QTimer;

namespace fisura::ui
{

class PeerRanks : public QObject
{
    Q_OBJECT
public:
    explicit PeerRanks(QObject* parent = nullptr);
    /// Stops the processes that still run and waits for them (no child is left behind).
    ~PeerRanks() override;

    /// The fisura-cli that runs the peers: $FISURA_CLI when set (empty when it names no
    /// executable file), else fisura-cli next to this program, else ../cli/fisura-cli from it
    /// (the build tree), else the one on PATH. Empty when there is none.
    static QString findProgram();

    /// Writes `options` to a temporary file and starts ranks 1..rank0.worldSize-1 of `program`
    /// (rank0: the identity of this process, rank 0). False with a translated error() when the
    /// file cannot be written; processes that fail to start are reported through failed().
    bool start(const QString& program, const TrainOptions& options,
               const DistributedIdentity& rank0);
    /// SIGTERM to the processes that still run, SIGKILL to those left after `graceMs`;
    /// nothing is reported as a failure from now on.
    void stop(int graceMs = 5000);
    /// stop(), then wait (at most about `graceMs` and a second more) until all have ended.
    void stopAndWait(int graceMs = 3000);

    /// Processes started and not yet ended.
    int running() const;
    /// Their process ids (tests: none outlives the job).
    QList<qint64> processIds() const;
    QString error() const { return error_; }

Q_SIGNALS:
    /// Every process started.
    void allStarted();
    /// A process of rank `rank` could not start (exitCode -1) or ended with an error before
    /// stop(); `lastLines`: the end of its stderr.
    void failed(int rank, int exitCode, const QString& lastLines);
    /// The last process ended.
    void allEnded();

private:
    struct Peer;
    void startPeer(const QString& program, int rank, const DistributedIdentity& rank0, bool onCpu);
    void onEnded(Peer* peer, int exitCode, bool crashed);
    void readErrors(Peer* peer);

    std::vector<std::unique_ptr<Peer>> peers_;
    std::unique_ptr<QTemporaryFile> optionsFile_;
    QTimer* killTimer_;
    QString error_;
    int started_ = 0, expected_ = 0;
    bool stopping_ = false;
};

} // namespace fisura::ui
