#include "common/tiledviewer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QSaveFile>
#include <QStringList>
#include <QThread>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>

#include "common/imageconvert.h"

namespace fisura::ui
{

namespace
{
constexpr int kOverviewSide = 2048;
constexpr int kSyncOverviewSide = 512;
// More decoded pixels than this for one view and the viewer draws the overview instead: a
// non-pyramidal scan seen whole would otherwise decode gigabytes per frame.
constexpr qint64 kMaxViewPixels = 20ll * 1024 * 1024;

std::atomic<quint64> lutStampCounter{1};

QRgb heat(int v)
{
    // Black-red-yellow-white ramp: monotonic in brightness, readable over grey concrete.
    const double t = v / 255.0;
    const int r = int(std::clamp(t * 3.0, 0.0, 1.0) * 255);
    const int g = int(std::clamp(t * 3.0 - 1.0, 0.0, 1.0) * 255);
    const int b = int(std::clamp(t * 3.0 - 2.0, 0.0, 1.0) * 255);
    return qRgb(r, g, b);
}

QRgb baseColour(ColorMap m, int v)
{
    switch (m) {
    case ColorMap::Red:
        return qRgb(255, 32, 32);
    case ColorMap::Green:
        return qRgb(32, 230, 64);
    case ColorMap::Blue:
        return qRgb(40, 120, 255);
    case ColorMap::Yellow:
        return qRgb(255, 230, 0);
    case ColorMap::Magenta:
        return qRgb(255, 0, 220);
    case ColorMap::Heat:
        return heat(v);
    case ColorMap::WidthClasses: { // class codes 1..4, or scaled to 63, 127, 191, 255
        static const QRgb classes[4] = {qRgb(46, 160, 67), qRgb(230, 190, 0), qRgb(245, 120, 20),
                                        qRgb(215, 30, 40)};
        return classes[std::clamp(v <= 4 ? v - 1 : v / 64, 0, 3)];
    }
    case ColorMap::Custom:
        break;
    }
    return qRgb(255, 0, 0);
}

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

// Colours overlay values through the LUT; outline keeps shown pixels with a hidden neighbour.
QImage colourValues(const QImage& values, const QVector<QRgb>& lut, bool outline, int threshold)
{
    const int w = values.width(), h = values.height();
    QImage out(w, h, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < h; ++y) {
        const uchar* v = values.constScanLine(y);
        const uchar* up = values.constScanLine(std::max(0, y - 1));
        const uchar* dn = values.constScanLine(std::min(h - 1, y + 1));
        auto* d = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w; ++x) {
            QRgb c = lut[v[x]];
            if (outline && c) {
                const bool interior = up[x] >= threshold && dn[x] >= threshold &&
                                      v[std::max(0, x - 1)] >= threshold &&
                                      v[std::min(w - 1, x + 1)] >= threshold;
                if (interior)
                    c = 0;
            }
            d[x] = c;
        }
    }
    return out;
}

QString pixelText(const Image& b, int x, int y)
{
    const uint8_t* p = b.row(y) + size_t(x) * b.channels;
    if (b.channels == 1)
        return QString::number(p[0]);
    QStringList parts;
    for (int c = 0; c < b.channels; ++c)
        parts << QString::number(p[c]);
    return parts.join(QLatin1Char(','));
}
} // namespace

size_t qHash(const ViewTileKey& k, size_t seed) noexcept
{
    return qHashMulti(seed, k.file, k.level, k.x, k.y);
}

QVector<QRgb> overlayLut(const OverlayStyle& style)
{
    QVector<QRgb> lut(256, 0);
    const int a = int(std::clamp(style.opacity, 0.0, 1.0) * 255 + 0.5);
    const QRgb custom = style.color.isValid() ? style.color.rgb() : qRgb(255, 32, 32);
    for (int v = std::clamp(style.threshold, 0, 256); v < 256; ++v) {
        const QRgb c = style.colorMap == ColorMap::Custom ? custom : baseColour(style.colorMap, v);
        lut[v] = qPremultiply(qRgba(qRed(c), qGreen(c), qBlue(c), a));
    }
    return lut;
}

struct TiledViewer::Queue {
    struct Req {
        std::shared_ptr<TiledImage> img;
        ViewTileKey key;
        int tile = 256;
        bool aligned = true;
        bool values = false;
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

TiledViewer::TiledViewer(QWidget* parent, std::shared_ptr<TileCache> cache)
    : QWidget(parent),
      cache_(cache ? std::move(cache) : std::make_shared<TileCache>(size_t(128) << 20)),
      queue_(std::make_shared<Queue>())
{
    setObjectName(QStringLiteral("tiledViewer"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    pool_.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    overviewPool_.setMaxThreadCount(1);
    tiles_.setMaxCost(256ll << 20);
}

TiledViewer::~TiledViewer()
{
    closeImage();
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        queue_->closed = true;
    }
    pool_.waitForDone();
    overviewPool_.waitForDone();
}

void TiledViewer::setPixmapBudget(qint64 bytes)
{
    tiles_.setMaxCost(bytes);
}

void TiledViewer::setWorkerCount(int n)
{
    pool_.setMaxThreadCount(std::max(1, n));
}

QSize TiledViewer::imageSize() const
{
    return hasImage() ? QSize(base_.img->info().width, base_.img->info().height) : QSize();
}

double TiledViewer::pixelSizeMm() const
{
    return hasImage() ? base_.img->info().pixelSizeXmm : 0.0;
}

void TiledViewer::closeImage()
{
    for (Source* s : sources())
        if (s->cancelOverview)
            s->cancelOverview->store(true);
    {
        std::lock_guard<std::mutex> lock(queue_->m);
        queue_->droppedStale += queue_->pending.size();
        queue_->pending.clear();
    }
    if (base_.img)
        cache_->dropFile(base_.img->id());
    for (auto& o : overlays_)
        cache_->dropFile(o->img->id());
    cache_->setVisible({});
    overlays_.clear();
    base_ = Source();
    tiles_.clear();
    wanted_.clear();
    failed_.clear();
    ++generation_;
    update();
}

Result<std::shared_ptr<TiledImage>> TiledViewer::openTiled(const QString& path) const
{
    // Scan and overlays share the tile cache; one libtiff handle per decoding worker, plus one.
    TiledOpenOptions opts;
    opts.cache = cache_;
    opts.maxHandles = std::max(2, pool_.maxThreadCount() + 1);
    return TiledImage::open(path.toStdString(), opts);
}

Status TiledViewer::openImage(const QString& path)
{
    auto r = openTiled(path);
    if (!r)
        return r.status();
    closeImage();
    base_.img = *r;
    base_.path = path;
    base_.name = QFileInfo(path).fileName();
    // A pyramid's smallest levels make the overview at once; a flat scan gets one in the
    // background (or from the cache file of an earlier visit).
    startOverview(base_);
    fitPending_ = true;
    if (width() > 0 && isVisible())
        fitToWindow();
    else
        setView(zoom_, origin_);
    Q_EMIT imageOpened();
    Q_EMIT overlaysChanged();
    return {};
}

Status TiledViewer::addOverlay(const QString& path, const QString& name, const OverlayStyle& style)
{
    if (!hasImage())
        return Status(ErrorCode::InvalidArgument, "no scan is open");
    auto r = openTiled(path);
    if (!r)
        return r.status();
    const auto& a = (*r)->info();
    const auto& b = base_.img->info();
    if (a.width != b.width || a.height != b.height)
        return Status(ErrorCode::InvalidArgument,
                      path.toStdString() + ": " + std::to_string(a.width) + "x" +
                          std::to_string(a.height) + " differs from the scan's " +
                          std::to_string(b.width) + "x" + std::to_string(b.height));
    auto s = std::make_unique<Source>();
    s->img = *r;
    s->path = path;
    s->name = name.isEmpty() ? QFileInfo(path).fileName() : name;
    s->overlay = true;
    s->style = style;
    s->lut = overlayLut(style);
    s->lutStamp = lutStampCounter++;
    Source* raw = s.get();
    overlays_.push_back(std::move(s));
    startOverview(*raw);
    setView(zoom_, origin_);
    Q_EMIT overlaysChanged();
    return {};
}

QString TiledViewer::overlayName(int i) const
{
    return i >= 0 && i < overlayCount() ? overlays_[size_t(i)]->name : QString();
}

OverlayStyle TiledViewer::overlayStyle(int i) const
{
    return i >= 0 && i < overlayCount() ? overlays_[size_t(i)]->style : OverlayStyle();
}

void TiledViewer::setOverlayStyle(int i, const OverlayStyle& style)
{
    if (i < 0 || i >= overlayCount())
        return;
    Source& s = *overlays_[size_t(i)];
    const bool wasVisible = s.style.visible;
    s.style = style;
    // Only the table changes: tiles are recoloured from their cached values when drawn.
    s.lut = overlayLut(style);
    s.lutStamp = lutStampCounter++;
    if (wasVisible != style.visible)
        setView(zoom_, origin_);
    update();
}

void TiledViewer::moveOverlay(int from, int to)
{
    if (from < 0 || from >= overlayCount() || to < 0 || to >= overlayCount() || from == to)
        return;
    auto s = std::move(overlays_[size_t(from)]);
    overlays_.erase(overlays_.begin() + from);
    overlays_.insert(overlays_.begin() + to, std::move(s));
    update();
    Q_EMIT overlaysChanged();
}

void TiledViewer::removeOverlay(int i)
{
    if (i < 0 || i >= overlayCount())
        return;
    if (overlays_[size_t(i)]->cancelOverview)
        overlays_[size_t(i)]->cancelOverview->store(true);
    cache_->dropFile(overlays_[size_t(i)]->img->id());
    overlays_.erase(overlays_.begin() + i);
    setView(zoom_, origin_);
    Q_EMIT overlaysChanged();
}

void TiledViewer::setSwipe(bool on, int left, int right)
{
    swipe_ = on;
    swipeLeft_ = left;
    swipeRight_ = right;
    update();
}

bool TiledViewer::overlayShown(const Source& s) const
{
    if (!s.style.visible)
        return false;
    return solo_ < 0 || (solo_ < overlayCount() && overlays_[size_t(solo_)].get() == &s);
}

void TiledViewer::setSoloOverlay(int i)
{
    solo_ = i;
    setView(zoom_, origin_);
}

QString TiledViewer::overlayPath(int i) const
{
    return i >= 0 && i < overlayCount() ? overlays_[size_t(i)]->path : QString();
}

void TiledViewer::setSwipePosition(double fraction)
{
    swipePos_ = std::clamp(fraction, 0.0, 1.0);
    update();
}

std::vector<TiledViewer::Source*> TiledViewer::sources()
{
    std::vector<Source*> v;
    if (base_.img)
        v.push_back(&base_);
    for (auto& o : overlays_)
        v.push_back(o.get());
    return v;
}

double TiledViewer::fitZoom() const
{
    if (!hasImage())
        return 1.0;
    const QSize s = imageSize();
    return std::min(double(std::max(1, width())) / s.width(),
                    double(std::max(1, height())) / s.height());
}

QRectF TiledViewer::viewportRect() const
{
    return QRectF(origin_, QSizeF(width() / zoom_, height() / zoom_));
}

QPointF TiledViewer::mapToImage(QPointF p) const
{
    return origin_ + p / zoom_;
}

QPointF TiledViewer::mapFromImage(QPointF q) const
{
    return (q - origin_) * zoom_;
}

void TiledViewer::setZoom(double zoom, QPointF anchor)
{
    if (!hasImage())
        return;
    const double lo = std::min(1.0, fitZoom() * 0.5), hi = 64.0;
    zoom = std::clamp(zoom, lo, hi);
    const QPointF at = mapToImage(anchor);
    setView(zoom, at - anchor / zoom);
}

void TiledViewer::centerOn(QPointF q)
{
    setView(zoom_, q - QPointF(width() / 2.0, height() / 2.0) / zoom_);
}

void TiledViewer::showAt(QPointF q, double zoom)
{
    if (!hasImage())
        return;
    zoom = std::clamp(zoom, std::min(1.0, fitZoom() * 0.5), 64.0);
    setView(zoom, q - QPointF(width() / 2.0, height() / 2.0) / zoom);
}

void TiledViewer::panBy(QPointF d)
{
    setView(zoom_, origin_ - d / zoom_);
}

void TiledViewer::fitToWindow()
{
    if (!hasImage())
        return;
    fitPending_ = false;
    const double z = fitZoom();
    // A flat scan too large to decode whole starts at 1:1 in its centre, usable at once, until
    // its overview exists.
    const int level = base_.img->bestLevelForDownsample(1.0 / z);
    const TiledLevel& L = base_.img->info().levels[size_t(level)];
    const bool tooCoarse = qint64(L.width) * L.height > kMaxViewPixels;
    if (tooCoarse && base_.overview.isNull()) {
        zoom_ = 1.0;
        centerOn(QPointF(imageSize().width() / 2.0, imageSize().height() / 2.0));
        return;
    }
    const QSize s = imageSize();
    setView(
        z, QPointF(s.width() / 2.0 - width() / (2.0 * z), s.height() / 2.0 - height() / (2.0 * z)));
}

void TiledViewer::actualSize()
{
    setZoom(1.0);
}

void TiledViewer::clampView()
{
    if (!hasImage())
        return;
    // The view centre stays on the image: the user can never lose it.
    const QSize s = imageSize();
    QPointF c = origin_ + QPointF(width() / 2.0, height() / 2.0) / zoom_;
    c.setX(std::clamp(c.x(), 0.0, double(s.width())));
    c.setY(std::clamp(c.y(), 0.0, double(s.height())));
    origin_ = c - QPointF(width() / 2.0, height() / 2.0) / zoom_;
}

void TiledViewer::setView(double zoom, QPointF origin)
{
    zoom_ = zoom;
    origin_ = origin;
    clampView();
    ++generation_;
    updateRequests();
    update();
    Q_EMIT viewChanged();
}

int TiledViewer::currentLevel() const
{
    return hasImage() ? base_.img->bestLevelForDownsample(1.0 / zoom_) : 0;
}

int TiledViewer::tileSizeFor(const Source& s, int level) const
{
    const TiledLevel& L = s.img->info().levels[size_t(level)];
    if (s.img->info().tiled && L.blockWidth == L.blockHeight && L.blockWidth >= 64 &&
        L.blockWidth <= 1024)
        return L.blockWidth;
    return 512;
}

TiledViewer::Wanted TiledViewer::wantedFor(const Source& s) const
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

QRect TiledViewer::tileRectOnScreen(const Source& s, int level, int tile, int tx, int ty) const
{
    const TiledImageInfo& info = s.img->info();
    const TiledLevel& L = info.levels[size_t(level)];
    const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
    // Each edge is rounded on its own, so neighbouring tiles share edges: no seams.
    const auto X = [&](int lx) { return int(std::lround((lx * sx - origin_.x()) * zoom_)); };
    const auto Y = [&](int ly) { return int(std::lround((ly * sy - origin_.y()) * zoom_)); };
    const int l = X(tx * tile), r = X(std::min((tx + 1) * tile, L.width));
    const int t = Y(ty * tile), b = Y(std::min((ty + 1) * tile, L.height));
    return QRect(l, t, r - l, b - t);
}

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

QPixmap TiledViewer::pixmapFor(Source& s, CachedTile* t)
{
    if (!s.overlay)
        return t->pixmap;
    if (t->pixmap.isNull() || t->lutStamp != s.lutStamp) {
        t->pixmap =
            QPixmap::fromImage(colourValues(t->values, s.lut, s.style.outline, s.style.threshold));
        t->lutStamp = s.lutStamp;
    }
    return t->pixmap;
}

void TiledViewer::paintSource(QPainter& p, Source& s, const QRect& clip)
{
    p.save();
    p.setClipRect(clip);
    const Wanted w = wantedFor(s);
    const int levels = s.img->levelCount();
    bool missing = !w.drawTiles;
    if (w.drawTiles)
        for (int ty = w.y0; ty <= w.y1 && !missing; ++ty)
            for (int tx = w.x0; tx <= w.x1 && !missing; ++tx)
                missing = !tiles_.contains(ViewTileKey{s.img->id(), w.level, tx, ty});
    if (missing) {
        // Backdrop: the overview, then whatever coarser tiles are cached, coarsest first.
        const QRectF full(mapFromImage(QPointF(0, 0)),
                          mapFromImage(QPointF(s.img->info().width, s.img->info().height)));
        if (!s.overview.isNull()) {
            if (s.overlay) {
                if (s.overviewStamp != s.lutStamp) {
                    s.overviewPixmap = QPixmap::fromImage(
                        colourValues(s.overview, s.lut, s.style.outline, s.style.threshold));
                    s.overviewStamp = s.lutStamp;
                }
            } else if (s.overviewPixmap.isNull()) {
                s.overviewPixmap = QPixmap::fromImage(s.overview);
            }
            p.drawPixmap(full, s.overviewPixmap, QRectF(s.overviewPixmap.rect()));
        }
        const TiledImageInfo& info = s.img->info();
        const QRectF vr = viewportRect().intersected(QRectF(0, 0, info.width, info.height));
        for (int level = std::min(levels - 1, w.level + 3); level > w.level; --level) {
            const TiledLevel& L = info.levels[size_t(level)];
            const int T = tileSizeFor(s, level);
            const double sx = double(info.width) / L.width, sy = double(info.height) / L.height;
            const int x0 = std::max(0, int(vr.left() / sx / T)),
                      x1 = std::min((L.width - 1) / T, int(vr.right() / sx / T));
            const int y0 = std::max(0, int(vr.top() / sy / T)),
                      y1 = std::min((L.height - 1) / T, int(vr.bottom() / sy / T));
            for (int ty = y0; ty <= y1; ++ty)
                for (int tx = x0; tx <= x1; ++tx)
                    if (CachedTile* t = tiles_.object(ViewTileKey{s.img->id(), level, tx, ty})) {
                        const QPixmap pm = pixmapFor(s, t);
                        p.drawPixmap(tileRectOnScreen(s, level, T, tx, ty), pm, pm.rect());
                    }
        }
    }
    if (w.drawTiles)
        for (int ty = w.y0; ty <= w.y1; ++ty)
            for (int tx = w.x0; tx <= w.x1; ++tx)
                if (CachedTile* t = tiles_.object(ViewTileKey{s.img->id(), w.level, tx, ty})) {
                    const QPixmap pm = pixmapFor(s, t);
                    p.drawPixmap(tileRectOnScreen(s, w.level, w.tile, tx, ty), pm, pm.rect());
                }
    p.restore();
}

void TiledViewer::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(48, 48, 48));
    if (!hasImage()) {
        p.setPen(QColor(200, 200, 200));
        p.drawText(rect(), Qt::AlignCenter, tr("Open a scan to inspect it."));
        return;
    }
    // Smooth when shrinking (no aliasing), nearest when enlarging (the user sees pixels).
    const int level = currentLevel();
    const double drawn = zoom_ * base_.img->info().levels[size_t(level)].downsample;
    p.setRenderHint(QPainter::SmoothPixmapTransform, drawn < 0.999);
    paintSource(p, base_, rect());
    const int divider = int(std::lround(swipePos_ * width()));
    for (int i = 0; i < overlayCount(); ++i) {
        Source& s = *overlays_[size_t(i)];
        if (!overlayShown(s))
            continue;
        QRect clip = rect();
        if (swipe_ && i == swipeLeft_)
            clip.setRight(divider - 1);
        else if (swipe_ && i == swipeRight_)
            clip.setLeft(divider);
        paintSource(p, s, clip);
    }
    if (swipe_)
        drawSwipe(p);
    drawScaleBar(p);
}

void TiledViewer::drawSwipe(QPainter& p)
{
    const int x = int(std::lround(swipePos_ * width()));
    p.setPen(QPen(Qt::white, 2));
    p.drawLine(x, 0, x, height());
    p.setBrush(Qt::white);
    p.drawEllipse(QPoint(x, height() / 2), 6, 6);
    p.setPen(Qt::white);
    const QString l = overlayName(swipeLeft_), r = overlayName(swipeRight_);
    p.drawText(QRect(0, 4, x - 8, 20), Qt::AlignRight, l);
    p.drawText(QRect(x + 8, 4, width() - x - 8, 20), Qt::AlignLeft, r);
}

void TiledViewer::drawScaleBar(QPainter& p)
{
    const double mm = pixelSizeMm();
    if (mm <= 0)
        return;
    const double mmPerScreenPx = mm / zoom_;
    const double target = 120 * mmPerScreenPx;
    const double e = std::pow(10.0, std::floor(std::log10(target)));
    double nice = e;
    for (double m : {2.0, 5.0, 10.0})
        if (m * e <= target)
            nice = m * e;
    const int len = int(std::lround(nice / mmPerScreenPx));
    const QString label = nice >= 1000 ? tr("%1 m").arg(nice / 1000.0) : tr("%1 mm").arg(nice);
    const QRect box(10, height() - 38, len + 20, 28);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(box, QColor(255, 255, 255, 200));
    p.fillRect(QRect(box.left() + 10, box.bottom() - 8, len, 4), Qt::black);
    p.setPen(Qt::black);
    p.drawText(QRect(box.left(), box.top() + 1, box.width(), 16), Qt::AlignCenter, label);
}

void TiledViewer::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    if (!hasImage())
        return;
    if (fitPending_)
        fitToWindow();
    else
        setView(zoom_, origin_);
}

void TiledViewer::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0)
        setZoom(zoom_ * std::pow(1.25, steps), e->position());
    e->accept();
}

bool TiledViewer::event(QEvent* e)
{
    if (e->type() == QEvent::NativeGesture) {
        auto* g = static_cast<QNativeGestureEvent*>(e);
        if (g->gestureType() == Qt::ZoomNativeGesture) {
            setZoom(zoom_ * (1.0 + g->value()), g->position());
            return true;
        }
    }
    return QWidget::event(e);
}

void TiledViewer::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    const int x = int(std::lround(swipePos_ * width()));
    if (swipe_ && std::abs(e->position().x() - x) <= 8)
        draggingSwipe_ = true;
    else
        panning_ = true;
    lastMouse_ = e->position().toPoint();
}

void TiledViewer::mouseMoveEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (draggingSwipe_)
        setSwipePosition(double(pos.x()) / std::max(1, width()));
    else if (panning_)
        panBy(pos - lastMouse_);
    lastMouse_ = pos;
    reportCursor(e->position());
}

void TiledViewer::mouseReleaseEvent(QMouseEvent*)
{
    panning_ = false;
    draggingSwipe_ = false;
}

void TiledViewer::keyPressEvent(QKeyEvent* e)
{
    const double step = std::max(16, width() / 8);
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        break;
    case Qt::Key_Minus:
        zoomBy(1 / 1.25);
        break;
    case Qt::Key_Left:
        panBy(QPointF(step, 0));
        break;
    case Qt::Key_Right:
        panBy(QPointF(-step, 0));
        break;
    case Qt::Key_Up:
        panBy(QPointF(0, step));
        break;
    case Qt::Key_Down:
        panBy(QPointF(0, -step));
        break;
    case Qt::Key_Home:
        fitToWindow();
        break;
    case Qt::Key_1:
        actualSize();
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

void TiledViewer::reportCursor(QPointF widgetPoint)
{
    if (!hasImage())
        return;
    const QPointF ip = mapToImage(widgetPoint);
    const QSize s = imageSize();
    if (ip.x() < 0 || ip.y() < 0 || ip.x() >= s.width() || ip.y() >= s.height()) {
        Q_EMIT cursorInfo(QPoint(-1, -1), QString());
        return;
    }
    const QPoint at(int(ip.x()), int(ip.y()));
    // Values come from decoded blocks already in the cache: hovering never decodes.
    QStringList parts;
    for (Source* src : sources()) {
        const TiledImageInfo& info = src->img->info();
        const int level = src->img->bestLevelForDownsample(1.0 / zoom_);
        const TiledLevel& L = info.levels[size_t(level)];
        const int lx = std::min(L.width - 1, int(ip.x() * L.width / info.width));
        const int ly = std::min(L.height - 1, int(ip.y() * L.height / info.height));
        const int bx = lx / L.blockWidth, by = ly / L.blockHeight;
        auto blk = cache_->find(TileId{src->img->id(), level, bx, by});
        if (!blk)
            continue;
        const QString v = pixelText(*blk, lx - bx * L.blockWidth, ly - by * L.blockHeight);
        parts << (src->overlay ? src->name + QStringLiteral(" ") + v : v);
    }
    Q_EMIT cursorInfo(at, parts.join(QStringLiteral("  ·  ")));
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

QImage TiledViewer::snapshot()
{
    return grab().toImage();
}

Status TiledViewer::saveSnapshot(const QString& path)
{
    const QImage img = snapshot();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Status(ErrorCode::IoError,
                      path.toStdString() + ": " + f.errorString().toStdString());
    if (!img.save(&f, "PNG") || !f.commit())
        return Status(ErrorCode::IoError,
                      path.toStdString() + ": " + f.errorString().toStdString());
    return {};
}

// ---------------------------------------------------------------------------------------------

OverviewMap::OverviewMap(TiledViewer* viewer, QWidget* parent) : QWidget(parent), viewer_(viewer)
{
    setObjectName(QStringLiteral("overviewMap"));
    setMinimumSize(120, 90);
    const auto refresh = [this] { update(); };
    connect(viewer, &TiledViewer::viewChanged, this, refresh);
    connect(viewer, &TiledViewer::overviewBuilt, this, refresh);
    connect(viewer, &TiledViewer::imageOpened, this, refresh);
}

QRectF OverviewMap::imageArea() const
{
    if (!viewer_ || !viewer_->hasImage())
        return {};
    const QSizeF s = viewer_->imageSize();
    const QRectF box = QRectF(rect()).adjusted(4, 4, -4, -4);
    const double k = std::min(box.width() / s.width(), box.height() / s.height());
    const QSizeF d = s * k;
    return QRectF(box.center() - QPointF(d.width() / 2, d.height() / 2), d);
}

void OverviewMap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRectF area = imageArea();
    if (area.isEmpty())
        return;
    const QImage ov = viewer_->overview();
    if (ov.isNull())
        p.fillRect(area, QColor(90, 90, 90));
    else {
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        p.drawImage(area, ov);
    }
    const double k = area.width() / viewer_->imageSize().width();
    const QRectF vr = viewer_->viewportRect();
    const QRectF r(area.topLeft() + vr.topLeft() * k, vr.size() * k);
    p.setPen(QPen(QColor(255, 60, 60), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.intersected(area.adjusted(-1, -1, 1, 1)));
}

void OverviewMap::jumpTo(QPointF pt)
{
    const QRectF area = imageArea();
    if (area.isEmpty())
        return;
    const double k = area.width() / viewer_->imageSize().width();
    viewer_->centerOn((pt - area.topLeft()) / k);
}

void OverviewMap::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton)
        jumpTo(e->position());
}

void OverviewMap::mouseMoveEvent(QMouseEvent* e)
{
    if (e->buttons() & Qt::LeftButton)
        jumpTo(e->position());
}

} // namespace fisura::ui
