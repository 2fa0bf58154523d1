#include "viewer/tiledviewer.h"

#include <QFileInfo>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QStringList>
#include <QThread>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "viewer/tiledviewerprivate.h"

namespace fisura::ui
{

using namespace viewerdetail;

namespace
{
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
    editable_.reset();
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
    s->lutStamp = nextLutStamp();
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
    s.lutStamp = nextLutStamp();
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
    if (tool_ && hasImage() && tool_->mousePress(e))
        return;
    // The middle button always pans, so a tool that takes the left button can still move around.
    if (e->button() != Qt::LeftButton && e->button() != Qt::MiddleButton)
        return;
    const int x = int(std::lround(swipePos_ * width()));
    if (swipe_ && e->button() == Qt::LeftButton && std::abs(e->position().x() - x) <= 8)
        draggingSwipe_ = true;
    else
        panning_ = true;
    lastMouse_ = e->position().toPoint();
}

void TiledViewer::mouseMoveEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (tool_ && hasImage() && !panning_ && !draggingSwipe_ && tool_->mouseMove(e)) {
        lastMouse_ = pos;
        reportCursor(e->position());
        return;
    }
    if (draggingSwipe_)
        setSwipePosition(double(pos.x()) / std::max(1, width()));
    else if (panning_)
        panBy(pos - lastMouse_);
    lastMouse_ = pos;
    reportCursor(e->position());
}

void TiledViewer::mouseReleaseEvent(QMouseEvent* e)
{
    if (!panning_ && !draggingSwipe_ && tool_ && hasImage() && tool_->mouseRelease(e))
        return;
    panning_ = false;
    draggingSwipe_ = false;
}

void TiledViewer::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (tool_ && hasImage() && tool_->mouseDoubleClick(e))
        return;
    QWidget::mouseDoubleClickEvent(e);
}

void TiledViewer::leaveEvent(QEvent* e)
{
    if (tool_)
        tool_->leave();
    QWidget::leaveEvent(e);
}

void TiledViewer::setTool(ViewerTool* tool)
{
    if (tool_ == tool)
        return;
    if (tool_)
        tool_->leave();
    tool_ = tool;
    panning_ = draggingSwipe_ = false;
    update();
}

void TiledViewer::keyPressEvent(QKeyEvent* e)
{
    if (tool_ && hasImage() && tool_->keyPress(e))
        return;
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
    cursorText_ = parts.join(QStringLiteral("  ·  "));
    Q_EMIT cursorInfo(at, cursorText_);
    const TiledImageInfo& info = base_.img->info();
    if (info.bitsPerSample != 8 || info.sampleFormat != "uint") {
        storedValueAt_ = at;
        if (!storedValueTimer_) {
            storedValueTimer_ = new QTimer(this);
            storedValueTimer_->setSingleShot(true);
            storedValueTimer_->setInterval(150);
            connect(storedValueTimer_, &QTimer::timeout, this, &TiledViewer::reportStoredValues);
        }
        storedValueTimer_->start();
    }
}

void TiledViewer::reportStoredValues()
{
    if (!hasImage())
        return;
    auto raw = base_.img->readRawValue(0, storedValueAt_.x(), storedValueAt_.y());
    if (!raw)
        return;
    QStringList values;
    for (double v : *raw)
        values << QLocale().toString(v, 'g', 6);
    Q_EMIT cursorInfo(storedValueAt_, cursorText_ + QStringLiteral("  ·  ") +
                                          tr("stored %1").arg(values.join(QStringLiteral("; "))));
}
} // namespace fisura::ui
