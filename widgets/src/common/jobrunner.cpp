#include "common/jobrunner.h"

#include <QMetaObject>

#include "common/progressrelay.h"
#include "fisura/process.h"

namespace fisura::ui
{

JobRunner::JobRunner(QObject* parent)
    : QObject(parent), sink_(std::make_unique<ProgressRelay>(this, [this](const Progress& p) {
          Q_EMIT progress(p.fraction, QString::fromStdString(p.message), p.etaSeconds);
      }))
{
}

JobRunner::~JobRunner()
{
    cancel();
    wait();
}

bool JobRunner::start(Job job)
{
    return run(std::move(job), {});
}

bool JobRunner::run(Job job, std::function<void(const Status&)> done)
{
    if (running_)
        return false;
    wait(); // join a finished thread
    running_ = true;
    cancel_ = CancelToken();
    done_ = std::move(done);
    Q_EMIT started();
    thread_ = std::thread([this, job = std::move(job), token = cancel_]() {
        Status s;
        try {
            s = job(token, sink_.get());
        } catch (const std::exception& e) {
            s = Status(ErrorCode::Internal, e.what());
        }
        // What the job freed goes back to the system now, not when the heap next fills
        // (a window stays open long after its jobs; fisura/process.h).
        releaseFreedMemory();
        QMetaObject::invokeMethod(
            this,
            [this, s] {
                running_ = false;
                sink_->flush();
                // Taken first: the handler may start the next job, which sets its own.
                const auto done = std::exchange(done_, {});
                if (done)
                    done(s);
                Q_EMIT finished(s);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void JobRunner::cancel()
{
    if (running_)
        cancel_.cancel();
}

void JobRunner::discard()
{
    done_ = {};
    cancel();
}

void JobRunner::wait()
{
    if (thread_.joinable())
        thread_.join();
}

} // namespace fisura::ui
