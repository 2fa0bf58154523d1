// TiledViewer, loading: which tiles a view wants of each source, the requests handed to the
// TileLoadScheduler for them, and the overview built for each source.
#include "viewer/tiledviewer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

#include "viewer/tiledecode.h"
#include "viewer/tileloadscheduler.h"

namespace fisura::ui
{

using namespace viewerdetail;

int TiledViewer::tileSizeFor(const ViewSource& s, int level) const
{
    const TiledLevel& L = s.img->info().levels[size_t(level)];
    if (s.img->info().tiled && L.blockWidth == L.blockHeight && L.blockWidth >= 64 &&
        L.blockWidth <= 1024)
        return L.blockWidth;
    return 512;
}

TiledViewer::Wanted TiledViewer::wantedFor(const ViewSource& s) const
{
    Wanted w;
    w.level = s.img->bestLevelForDownsample(1.0 / zoom_);
    w.tile = tileSizeFor(s, w.level);
    const TiledImageInfo& info = s.img->info();
    const TiledLevel& L = info.levels[size_t(w.level)];
    const QRectF vr = viewportRect().intersected(QRectF(0, 0, info.width, info.height));
    if (vr.isEmpty()) {
        w.drawTiles = false;
        return w;
    }
    const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
    const int across = (L.width + w.tile - 1) / w.tile, down = (L.height + w.tile - 1) / w.tile;
    w.x0 = std::clamp(int(std::floor(vr.left() / sx / w.tile)), 0, across - 1);
    w.x1 = std::clamp(int(std::floor((vr.right() / sx - 1e-6) / w.tile)), 0, across - 1);
    w.y0 = std::clamp(int(std::floor(vr.top() / sy / w.tile)), 0, down - 1);
    w.y1 = std::clamp(int(std::floor((vr.bottom() / sy - 1e-6) / w.tile)), 0, down - 1);
    const qint64 n = qint64(w.x1 - w.x0 + 1) * (w.y1 - w.y0 + 1);
    w.drawTiles = n * w.tile * w.tile <= kMaxViewPixels;
    return w;
}

void TiledViewer::updateRequests()
{
    if (!hasImage())
        return;
    QSet<ViewTileKey> wanted;
    std::vector<TileRequest> requests;
    std::vector<TileId> visible;
    const QPointF centre = mapToImage(QPointF(width() / 2.0, height() / 2.0));
    const std::vector<ViewSource*> all = sources();
    for (size_t i = 0; i < all.size(); ++i) {
        const ViewSource& s = *all[i];
        if (s.overlay && !layers_->isShown(int(i) - 1))
            continue;
        const Wanted w = wantedFor(s);
        if (!w.drawTiles)
            continue;
        const TiledImageInfo& info = s.img->info();
        const TiledLevel& L = info.levels[size_t(w.level)];
        const bool aligned = w.tile == L.blockWidth && w.tile == L.blockHeight;
        const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
        for (int ty = w.y0; ty <= w.y1; ++ty)
            for (int tx = w.x0; tx <= w.x1; ++tx) {
                const ViewTileKey key{s.img->id(), w.level, tx, ty};
                wanted.insert(key);
                if (aligned)
                    visible.push_back(TileId{s.img->id(), w.level, tx, ty});
                if (loader_->isLoaded(key) || loader_->hasFailed(key))
                    continue;
                const QPointF c((tx + 0.5) * w.tile * sx, (ty + 0.5) * w.tile * sy);
                // The scan before its overlays, the centre before the edges.
                const double d =
                    std::hypot(c.x() - centre.x(), c.y() - centre.y()) + (s.overlay ? 1.0 : 0.0);
                requests.push_back(TileRequest{
                    key, d, [img = s.img, key, tile = w.tile, aligned, values = s.overlay] {
                        return decodeTile(*img, key.level, tile, key.x, key.y, aligned, values);
                    }});
            }
    }
    cache_->setVisible(visible);
    loader_->request(std::move(wanted), std::move(requests));
}

void TiledViewer::startOverview(ViewSource& s)
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
            this, [this, id, ov = std::move(ov)] { overviewArrived(id, ov); },
            Qt::QueuedConnection);
    });
}

void TiledViewer::overviewArrived(quint64 file, const QImage& overview)
{
    for (ViewSource* s : sources())
        if (s->img->id() == file) {
            s->overview = overview;
            s->overviewPixmap = QPixmap();
            s->overviewStamp = ~0ull;
            if (!s->overlay) {
                Q_EMIT overviewProgress(1.0);
                Q_EMIT overviewBuilt();
            }
            update();
        }
}
} // namespace fisura::ui
