#include "common/progressrelay.h"

#include <QMetaObject>

namespace fisura::ui
{

ProgressRelay::ProgressRelay(QObject* target, std::function<void(const Progress&)> deliver)
    : target_(target), deliver_(std::move(deliver))
{
}

void ProgressRelay::report(const Progress& progress)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        latest_ = progress;
    }
    // Post once; later reports overwrite latest_ until the target picks it up.
    if (!pending_.exchange(true))
        QMetaObject::invokeMethod(
            target_, [this] { flush(); }, Qt::QueuedConnection);
}

void ProgressRelay::flush()
{
    if (!pending_.exchange(false))
        return;
    Progress p;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p = latest_;
    }
    deliver_(p);
}

void ProgressRelay::reset()
{
    pending_ = false;
    std::lock_guard<std::mutex> lock(mutex_);
    latest_ = Progress();
}

} // namespace fisura::ui
