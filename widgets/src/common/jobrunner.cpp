#include "common/jobrunner.h"

#include <QMetaObject>

namespace fisura::ui
{

class JobRunner::Sink final : public ProgressSink
{
public:
    explicit Sink(JobRunner* owner) : owner_(owner) {}
    void report(const Progress& p) override
    {
        {
            std::lock_guard<std::mutex> lock(owner_->mutex_);
            owner_->latest_ = p;
        }
        // Post once; later reports overwrite latest_ until the GUI picks it up.
        if (!owner_->progressPending_.exchange(true))
            QMetaObject::invokeMethod(
                owner_, [o = owner_] { o->deliverProgress(); }, Qt::QueuedConnection);
    }

private:
    JobRunner* owner_;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent), sink_(std::make_unique<Sink>(this)) {}

JobRunner::~JobRunner()
{
    cancel();
    wait();
}

bool JobRunner::start(Job job)
{
    if (running_)
        return false;
    wait(); // join a finished thread
    running_ = true;
    cancel_ = CancelToken();
    Q_EMIT started();
    thread_ = std::thread([this, job = std::move(job), token = cancel_]() {
        Status s;
        try {
            s = job(token, sink_.get());
        } catch (const std::exception& e) {
            s = Status(ErrorCode::Internal, e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, s] {
                running_ = false;
                deliverProgress();
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

void JobRunner::wait()
{
    if (thread_.joinable())
        thread_.join();
}

void JobRunner::deliverProgress()
{
    if (!progressPending_.exchange(false))
        return;
    Progress p;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p = latest_;
    }
    Q_EMIT progress(p.fraction, QString::fromStdString(p.message), p.etaSeconds);
}

} // namespace fisura::ui
