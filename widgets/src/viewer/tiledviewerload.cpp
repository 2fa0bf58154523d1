// TiledViewer, loading: which tiles a view wants, the worker queue that decodes them (newest
// request first, stale requests replaced, late results dropped) and the overview builder.
#include "viewer/tiledviewer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/imageconvert.h"
#include "viewer/tiledviewerprivate.h"

namespace fisura::ui
{

using namespace viewerdetail;

namespace viewerdetail
{

// One tile of one level as a QImage: RGB32/ARGB32 for the scan (cheap to turn into a pixmap),
// Grayscale8 values (max over channels) for overlays.
QImage decodeTile(const TiledImage& img, int level, int tile, int tx, int ty, bool aligned,
                  bool values)
{
    Image im;
    std::shared_ptr<const Image> blk;
    const Image* src = nullptr;
    if (aligned) {
        auto r = img.readBlock(level, tx, ty);
        if (!r)
            return {};
        blk = *r;
        src = blk.get();
    } else {
        const TiledLevel& L = img.info().levels[level];
        const int x = tx * tile, y = ty * tile;
        const int w = std::min(tile, L.width - x), h = std::min(tile, L.height - y);
        if (w <= 0 || h <= 0)
            return {};
        auto r = img.readRegion(level, x, y, w, h);
        if (!r)
            return {};
        im = std::move(*r);
        src = &im;
    }
    if (src->empty())
        return {};
    if (values) {
        QImage out(src->width, src->height, QImage::Format_Grayscale8);
        const int C = src->channels;
        for (int y = 0; y < src->height; ++y) {
            const uint8_t* s = src->row(y);
            uchar* d = out.scanLine(y);
            if (C == 1) {
                std::memcpy(d, s, size_t(src->width));
                continue;
            }
            const int cc = std::min(C, 3);
            for (int x = 0; x < src->width; ++x) {
                uint8_t m = 0;
                for (int c = 0; c < cc; ++c)
                    m = std::max(m, s[x * C + c]);
                d[x] = m;
            }
        }
        return out;
    }
    QImage q = toQImage(*src);
    return q.convertToFormat(src->channels == 4 ? QImage::Format_ARGB32_Premultiplied
                                                : QImage::Format_RGB32);
}

// The whole image at most kOverviewSide a side, from the smallest level that is still large
// enough, block by block (bounded memory). Scan: box average; overlays: max, so thin cracks
// stay visible when shrunk.
QImage buildOverview(const TiledImage& img, bool values, int maxSide,
                     const std::atomic<bool>& cancel, const std::function<void(double)>& progress)
{
    const TiledImageInfo& info = img.info();
    const double s = std::min(1.0, double(maxSide) / std::max(info.width, info.height));
    const int ow = std::max(1, int(std::ceil(info.width * s)));
    const int oh = std::max(1, int(std::ceil(info.height * s)));
    int best = 0;
    for (int i = 0; i < int(info.levels.size()); ++i)
        if (info.levels[i].width >= ow && info.levels[i].height >= oh)
            best = i;
    const TiledLevel& L = info.levels[best];
    std::vector<int> colMap(size_t(L.width)), rowMap(size_t(L.height));
    for (int x = 0; x < L.width; ++x)
        colMap[size_t(x)] = int(qint64(x) * ow / L.width);
    for (int y = 0; y < L.height; ++y)
        rowMap[size_t(y)] = int(qint64(y) * oh / L.height);
    const int C = info.channels;
    const int acc = values ? 1 : 3;
    std::vector<quint32> sum(size_t(ow) * oh * acc, 0), count(values ? 0 : size_t(ow) * oh, 0);
    for (int by = 0; by < L.blocksDown; ++by) {
        for (int bx = 0; bx < L.blocksAcross; ++bx) {
            if (cancel.load())
                return {};
            auto r = img.readBlock(best, bx, by);
            if (!r)
                return {};
            const Image& b = **r;
            const int x0 = bx * L.blockWidth, y0 = by * L.blockHeight;
            for (int y = 0; y < b.height; ++y) {
                const uint8_t* p = b.row(y);
                const size_t orow = size_t(rowMap[size_t(y0 + y)]) * ow;
                for (int x = 0; x < b.width; ++x) {
                    const size_t o = orow + size_t(colMap[size_t(x0 + x)]);
                    const uint8_t* px = p + size_t(x) * C;
                    if (values) {
                        uint8_t m = px[0];
                        for (int c = 1; c < std::min(C, 3); ++c)
                            m = std::max(m, px[c]);
                        sum[o] = std::max<quint32>(sum[o], m);
                    } else {
                        quint32* a = &sum[o * 3];
                        if (C >= 3) {
                            a[0] += px[0];
                            a[1] += px[1];
                            a[2] += px[2];
                        } else {
                            a[0] += px[0];
                            a[1] += px[0];
                            a[2] += px[0];
                        }
                        ++count[o];
                    }
                }
            }
        }
        if (progress)
            progress(double(by + 1) / L.blocksDown);
    }
    QImage out(ow, oh, values ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
    for (int y = 0; y < oh; ++y) {
        if (values) {
            uchar* d = out.scanLine(y);
            for (int x = 0; x < ow; ++x)
                d[x] = uchar(sum[size_t(y) * ow + x]);
        } else {
            auto* d = reinterpret_cast<QRgb*>(out.scanLine(y));
            for (int x = 0; x < ow; ++x) {
                const size_t o = size_t(y) * ow + x;
                const quint32 n = std::max<quint32>(1, count[o]);
                d[x] = qRgb(int(sum[o * 3] / n), int(sum[o * 3 + 1] / n), int(sum[o * 3 + 2] / n));
            }
        }
    }
    return out;
}

} // namespace viewerdetail

void TiledViewer::updateRequests()
{
    wanted_.clear();
    std::vector<std::pair<double, Queue::Req>> reqs;
    std::vector<TileId> visible;
    const QPointF centre = mapToImage(QPointF(width() / 2.0, height() / 2.0));
    for (Source* s : sources()) {
        if (s->overlay && !overlayShown(*s))
            continue;
        const Wanted w = wantedFor(*s);
        if (!w.drawTiles)
            continue;
        const TiledImageInfo& info = s->img->info();
        const TiledLevel& L = info.levels[size_t(w.level)];
        const bool aligned = w.tile == L.blockWidth && w.tile == L.blockHeight;
        const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
        for (int ty = w.y0; ty <= w.y1; ++ty)
            for (int tx = w.x0; tx <= w.x1; ++tx) {
                const ViewTileKey key{s->img->id(), w.level, tx, ty};
                wanted_.insert(key);
                if (aligned)
                    visible.push_back(TileId{s->img->id(), w.level, tx, ty});
                if (tiles_.contains(key) || failed_.contains(key))
                    continue;
                const QPointF c((tx + 0.5) * w.tile * sx, (ty + 0.5) * w.tile * sy);
                // The scan before its overlays, the centre before the edges.
                const double d =
                    std::hypot(c.x() - centre.x(), c.y() - centre.y()) + (s->overlay ? 1.0 : 0.0);
                reqs.push_back(
                    {d, Queue::Req{s->img, key, w.tile, aligned, s->overlay, generation_}});
            }
    }
    cache_->setVisible(visible);
    // Farthest first: workers take from the back.
    std::sort(reqs.begin(), reqs.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    int toStart = 0;
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        QSet<ViewTileKey> now;
        for (const auto& r : reqs)
            now.insert(r.second.key);
        QSet<ViewTileKey> before;
        for (const auto& r : queue_->pending) {
            before.insert(r.key);
            if (!now.contains(r.key))
                ++queue_->droppedStale;
        }
        queue_->pending.clear();
        for (auto& r : reqs) {
            if (queue_->inFlight.contains(r.second.key))
                continue;
            if (!before.contains(r.second.key))
                ++queue_->requested;
            queue_->pending.push_back(std::move(r.second));
        }
        toStart =
            std::min<int>(int(queue_->pending.size()), pool_.maxThreadCount() - queue_->running);
        queue_->running += std::max(0, toStart);
    }
    for (int i = 0; i < toStart; ++i) {
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
                QImage im =
                    decodeTile(*r.img, r.key.level, r.tile, r.key.x, r.key.y, r.aligned, r.values);
                ++q->decoded;
                {
                    std::lock_guard<std::mutex> lock(q->m);
                    q->inFlight.remove(r.key);
                }
                // Queued to the GUI thread; dropped by Qt if the viewer is gone by then (its
                // destructor waits for this pool first anyway).
                QMetaObject::invokeMethod(
                    this,
                    [this, key = r.key, gen = r.generation, im = std::move(im)]() mutable {
                        onTileLoaded(key, gen, std::move(im));
                    },
                    Qt::QueuedConnection);
            }
        });
    }
    checkComplete();
}

void TiledViewer::onTileLoaded(ViewTileKey key, quint64 generation, QImage image)
{
    if (image.isNull()) {
        failed_.insert(key);
        checkComplete();
        return;
    }
    // A result for an older view is kept only if the current view still wants it.
    if (generation != generation_ && !wanted_.contains(key)) {
        ++droppedLate_;
        return;
    }
    auto* t = new CachedTile;
    qint64 cost = qint64(image.width()) * image.height() * 4;
    if (image.format() == QImage::Format_Grayscale8) {
        cost += qint64(image.width()) * image.height();
        t->values = std::move(image);
    } else {
        t->pixmap = QPixmap::fromImage(std::move(image));
    }
    tiles_.insert(key, t, cost);
    update();
    checkComplete();
}

bool TiledViewer::frameComplete() const
{
    for (const ViewTileKey& k : wanted_)
        if (!tiles_.contains(k) && !failed_.contains(k))
            return false;
    return true;
}

void TiledViewer::checkComplete()
{
    if (!hasImage() || completedGeneration_ == generation_)
        return;
    if (!frameComplete()) {
        // A pixmap budget smaller than one view evicts wanted tiles as others arrive: ask for
        // them again once per view, never in a loop.
        bool idle = false;
        {
            std::lock_guard<std::mutex> lock(queue_->m);
            idle = queue_->pending.empty() && queue_->inFlight.isEmpty();
        }
        if (idle && retriedGeneration_ != generation_) {
            retriedGeneration_ = generation_;
            QMetaObject::invokeMethod(
                this, [this] { updateRequests(); }, Qt::QueuedConnection);
        }
        return;
    }
    completedGeneration_ = generation_;
    Q_EMIT frameCompleted(generation_);
}

ViewerStats TiledViewer::stats() const
{
    ViewerStats st;
    st.generation = generation_;
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        st.requested = queue_->requested;
        st.droppedStale = queue_->droppedStale;
        st.pending = int(queue_->pending.size());
    }
    st.decoded = queue_->decoded.load();
    st.droppedLate = droppedLate_;
    st.pixmapBytes = tiles_.totalCost();
    st.pixmapBudget = tiles_.maxCost();
    return st;
}

void TiledViewer::startOverview(Source& s)
{
    s.cancelOverview = std::make_shared<std::atomic<bool>>(false);
    const bool values = s.overlay;
    const std::shared_ptr<TiledImage> img = s.img;
    const quint64 id = img->id();
    QString cacheFile;
    if (!values && img->levelCount() == 1 && !overviewCacheDir_.isEmpty()) {
        const QFileInfo fi(s.path);
        const QByteArray tag = (fi.absoluteFilePath() + QString::number(fi.size()) +
                                QString::number(fi.lastModified().toMSecsSinceEpoch()))
                                   .toUtf8();
        cacheFile =
            QDir(overviewCacheDir_)
                .filePath(QString::fromLatin1(
                              QCryptographicHash::hash(tag, QCryptographicHash::Sha1).toHex()) +
                          QStringLiteral(".png"));
        QImage cached(cacheFile);
        if (!cached.isNull()) {
            s.overview = cached.convertToFormat(QImage::Format_RGB32);
            Q_EMIT overviewProgress(1.0);
            return;
        }
    }
    const auto cancel = s.cancelOverview;
    // When a level of about kSyncOverviewSide exists (pyramids, small scans) the overview
    // comes from it in milliseconds: build it here, so the first frame already has a backdrop.
    const TiledImageInfo& info = img->info();
    const int want = std::min(kSyncOverviewSide, std::max(info.width, info.height));
    int best = 0;
    for (int i = 0; i < int(info.levels.size()); ++i)
        if (std::max(info.levels[size_t(i)].width, info.levels[size_t(i)].height) >= want)
            best = i;
    const TiledLevel& bl = info.levels[size_t(best)];
    if (qint64(bl.width) * bl.height <= 4ll * kSyncOverviewSide * kSyncOverviewSide) {
        s.overview = buildOverview(*img, values, std::max(bl.width, bl.height), *cancel, {});
        return;
    }
    overviewPool_.start([this, img, id, values, cancel, cacheFile] {
        double reported = 0;
        QImage ov = buildOverview(*img, values, kOverviewSide, *cancel, [&](double f) {
            if (values || f - reported < 0.02)
                return;
            reported = f;
            QMetaObject::invokeMethod(
                this, [this, f] { Q_EMIT overviewProgress(f); }, Qt::QueuedConnection);
        });
        if (ov.isNull() || cancel->load())
            return;
        if (!cacheFile.isEmpty()) {
            QDir().mkpath(QFileInfo(cacheFile).absolutePath());
            QSaveFile f(cacheFile);
            if (f.open(QIODevice::WriteOnly) && ov.save(&f, "PNG"))
                f.commit();
        }
        QMetaObject::invokeMethod(
            this,
            [this, id, ov = std::move(ov)] {
                for (Source* s : sources())
                    if (s->img->id() == id) {
                        s->overview = ov;
                        s->overviewPixmap = QPixmap();
                        s->overviewStamp = ~0ull;
                        if (!s->overlay) {
                            Q_EMIT overviewProgress(1.0);
                            Q_EMIT overviewBuilt();
                        }
                        update();
                    }
            },
            Qt::QueuedConnection);
    });
}
} // namespace fisura::ui
