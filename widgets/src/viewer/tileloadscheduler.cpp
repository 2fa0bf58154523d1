#include "viewer/tileloadscheduler.h"

#include <QMetaObject>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <mutex>

namespace fisura::ui
{

// Shared with the workers (they may still hold it while the scheduler goes).
struct TileLoadScheduler::Queue {
    struct Req {
        ViewTileKey key;
        std::function<QImage()> decode;
        quint64 generation = 0;
    };
    std::mutex m;
    std::vector<Req> pending; ///< served from the back: the newest, most central request first
    QSet<ViewTileKey> inFlight;
    int running = 0;
    bool closed = false;
    quint64 requested = 0;
    quint64 droppedStale = 0;
    std::atomic<quint64> decoded{0};
};

TileLoadScheduler::TileLoadScheduler(QObject* parent)
    : QObject(parent), queue_(std::make_shared<Queue>())
{
    pool_.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
}

TileLoadScheduler::~TileLoadScheduler()
{
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        queue_->closed = true;
        queue_->pending.clear();
    }
    pool_.waitForDone();
}

void TileLoadScheduler::setWorkerCount(int n)
{
    pool_.setMaxThreadCount(std::max(1, n));
}

int TileLoadScheduler::workerCount() const
{
    return pool_.maxThreadCount();
}

void TileLoadScheduler::setBudget(qint64 bytes)
{
    cache_.setBudget(bytes);
}

void TileLoadScheduler::beginView()
{
    ++generation_;
}

void TileLoadScheduler::request(QSet<ViewTileKey> wanted, std::vector<TileRequest> requests)
{
    cache_.setVisible(std::move(wanted));
    requests.erase(std::remove_if(requests.begin(), requests.end(),
                                  [this](const TileRequest& r) {
                                      return cache_.contains(r.key) || failed_.contains(r.key);
                                  }),
                   requests.end());
    // Farthest first: workers take from the back.
    std::stable_sort(
        requests.begin(), requests.end(),
        [](const TileRequest& a, const TileRequest& b) { return a.priority > b.priority; });
    int toStart = 0;
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        QSet<ViewTileKey> now;
        for (const TileRequest& r : requests)
            now.insert(r.key);
        QSet<ViewTileKey> before;
        for (const Queue::Req& r : queue_->pending) {
            before.insert(r.key);
            if (!now.contains(r.key))
                ++queue_->droppedStale;
        }
        queue_->pending.clear();
        for (TileRequest& r : requests) {
            if (queue_->inFlight.contains(r.key))
                continue;
            if (!before.contains(r.key))
                ++queue_->requested;
            queue_->pending.push_back(Queue::Req{r.key, std::move(r.decode), generation_});
        }
        toStart = std::min<int>(int(queue_->pending.size()), workerCount() - queue_->running);
        queue_->running += std::max(0, toStart);
    }
    startWorkers(toStart);
    checkComplete();
}

void TileLoadScheduler::startWorkers(int n)
{
    for (int i = 0; i < n; ++i) {
        std::shared_ptr<Queue> q = queue_;
        pool_.start([q, this] {
            for (;;) {
                Queue::Req r;
                {
                    std::lock_guard<std::mutex> lock(q->m);
                    if (q->closed || q->pending.empty()) {
                        --q->running;
                        return;
                    }
                    r = std::move(q->pending.back());
                    q->pending.pop_back();
                    q->inFlight.insert(r.key);
                }
                QImage im = r.decode();
                ++q->decoded;
                {
                    std::lock_guard<std::mutex> lock(q->m);
                    q->inFlight.remove(r.key);
                }
                // Queued to the GUI thread; dropped by Qt if the scheduler is gone by then (its
                // destructor waits for this pool first anyway).
                QMetaObject::invokeMethod(
                    this,
                    [this, key = r.key, gen = r.generation, im = std::move(im)]() mutable {
                        onResult(key, gen, std::move(im));
                    },
                    Qt::QueuedConnection);
            }
        });
    }
}

void TileLoadScheduler::onResult(const ViewTileKey& key, quint64 generation, QImage image)
{
    if (image.isNull()) {
        failed_.insert(key);
        checkComplete();
        return;
    }
    // A result for an older view is kept only if the current view still wants it.
    if (generation != generation_ && !cache_.visible().contains(key)) {
        ++droppedLate_;
        return;
    }
    LoadedTile t;
    qint64 cost = qint64(image.width()) * image.height() * 4;
    if (image.format() == QImage::Format_Grayscale8) {
        cost += qint64(image.width()) * image.height();
        t.values = std::move(image);
    } else {
        t.pixmap = QPixmap::fromImage(std::move(image)); // only the GUI thread makes pixmaps
    }
    cache_.insert(key, std::move(t), cost);
    Q_EMIT tileLoaded(key);
    checkComplete();
}

void TileLoadScheduler::reset()
{
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        queue_->droppedStale += queue_->pending.size();
        queue_->pending.clear();
    }
    cache_.clear();
    failed_.clear();
    ++generation_;
}

bool TileLoadScheduler::frameComplete() const
{
    for (const ViewTileKey& k : cache_.visible())
        if (!cache_.contains(k) && !failed_.contains(k))
            return false;
    return true;
}

void TileLoadScheduler::checkComplete()
{
    if (completedGeneration_ == generation_ || !frameComplete())
        return;
    completedGeneration_ = generation_;
    Q_EMIT frameCompleted(generation_);
}

TileLoadStats TileLoadScheduler::stats() const
{
    TileLoadStats st;
    st.generation = generation_;
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        st.requested = queue_->requested;
        st.droppedStale = queue_->droppedStale;
        st.pending = int(queue_->pending.size());
    }
    st.decoded = queue_->decoded.load();
    st.droppedLate = droppedLate_;
    st.bytes = cache_.bytes();
    st.budget = cache_.budget();
    return st;
}

} // namespace fisura::ui
