// TiledViewer: the scan and its layers (opening, closing, overlay edits passed to the stack)
// and the view transform (zoom, pan, fit).
#include "viewer/tiledviewer.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

#include "viewer/tiledecode.h"
#include "viewer/tileloadscheduler.h"

namespace fisura::ui
{

using namespace viewerdetail;

ViewerDecoration::ViewerDecoration(TiledViewer* viewer) : QObject(viewer)
{
    viewer->addDecoration(this);
}

TiledViewer::TiledViewer(QWidget* parent, std::shared_ptr<TileCache> cache)
    : QWidget(parent), cache_(cache ? std::move(cache)
                                    : std::make_shared<TileCache>(size_t(kViewerBlockCacheBytes))),
      loader_(std::make_unique<TileLoadScheduler>()), layers_(std::make_unique<OverlayStack>())
{
    setObjectName(QStringLiteral("tiledViewer"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    overviewPool_.setMaxThreadCount(1);
    connect(loader_.get(), &TileLoadScheduler::tileLoaded, this, [this] { update(); });
    connect(loader_.get(), &TileLoadScheduler::frameCompleted, this, [this](quint64 generation) {
        if (hasImage())
            Q_EMIT frameCompleted(generation);
    });
}

TiledViewer::~TiledViewer()
{
    closeImage();
    loader_.reset(); // waits for its workers
    overviewPool_.waitForDone();
}

void TiledViewer::setPixmapBudget(qint64 bytes)
{
    loader_->setBudget(bytes);
}

void TiledViewer::setWorkerCount(int n)
{
    loader_->setWorkerCount(n);
}

ViewerStats TiledViewer::stats() const
{
    const TileLoadStats l = loader_->stats();
    ViewerStats st;
    st.generation = l.generation;
    st.requested = l.requested;
    st.decoded = l.decoded;
    st.droppedStale = l.droppedStale;
    st.droppedLate = l.droppedLate;
    st.pending = l.pending;
    st.pixmapBytes = l.bytes;
    st.pixmapBudget = l.budget;
    return st;
}

bool TiledViewer::frameComplete() const
{
    return loader_->frameComplete();
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
    for (ViewSource* s : sources())
        s->cancelBackgroundWork();
    loader_->reset();
    if (base_.img)
        cache_->dropFile(base_.img->id());
    for (int i = 0; i < layers_->count(); ++i)
        cache_->dropFile(layers_->at(i).img->id());
    cache_->setVisible({});
    layers_->clear();
    base_ = ViewSource();
    update();
}

Result<std::shared_ptr<TiledImage>> TiledViewer::openTiled(const QString& path) const
{
    // Scan and overlays share the tile cache; one libtiff handle per decoding worker, plus one.
    TiledOpenOptions opts;
    opts.cache = cache_;
    opts.maxHandles = std::max(2, loader_->workerCount() + 1);
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
        refreshView();
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
    auto s = std::make_unique<ViewSource>();
    s->img = *r;
    s->path = path;
    s->name = name.isEmpty() ? QFileInfo(path).fileName() : name;
    s->overlay = true;
    s->colours.setStyle(style);
    ViewSource* raw = s.get();
    layers_->append(std::move(s));
    startOverview(*raw);
    refreshView();
    Q_EMIT overlaysChanged();
    return {};
}

int TiledViewer::overlayCount() const
{
    return layers_->count();
}

QString TiledViewer::overlayName(int i) const
{
    return layers_->isIndex(i) ? layers_->at(i).name : QString();
}

void TiledViewer::setOverlayName(int i, const QString& name)
{
    if (!layers_->isIndex(i) || layers_->at(i).name == name)
        return;
    layers_->at(i).name = name;
    Q_EMIT overlaysChanged();
}

QString TiledViewer::overlayPath(int i) const
{
    return layers_->isIndex(i) ? layers_->at(i).path : QString();
}

OverlayStyle TiledViewer::overlayStyle(int i) const
{
    return layers_->style(i);
}

void TiledViewer::setOverlayStyle(int i, const OverlayStyle& style)
{
    if (!layers_->isIndex(i))
        return;
    if (layers_->setStyle(i, style))
        refreshView(); // shown or hidden: other tiles are wanted
    update();
}

void TiledViewer::moveOverlay(int from, int to)
{
    if (!layers_->move(from, to))
        return;
    update();
    Q_EMIT overlaysChanged();
}

void TiledViewer::removeOverlay(int i)
{
    std::unique_ptr<ViewSource> s = layers_->take(i);
    if (!s)
        return;
    s->cancelBackgroundWork();
    cache_->dropFile(s->img->id());
    refreshView();
    Q_EMIT overlaysChanged();
}

void TiledViewer::setSoloOverlay(int i)
{
    layers_->setSolo(i);
    refreshView();
}

int TiledViewer::soloOverlay() const
{
    return layers_->solo();
}

void TiledViewer::setSwipe(bool on, int left, int right)
{
    layers_->setSwipe(on, left, right);
    update();
}

bool TiledViewer::swipeEnabled() const
{
    return layers_->swipe();
}

void TiledViewer::setSwipePosition(double fraction)
{
    layers_->setSwipePosition(fraction);
    update();
}

double TiledViewer::swipePosition() const
{
    return layers_->swipePosition();
}

void TiledViewer::setEditableOverlay(std::shared_ptr<EditableOverlaySource> source,
                                     const OverlayStyle& style)
{
    layers_->setEditable(source ? std::make_unique<EditableLayer>(std::move(source), style)
                                : nullptr);
    update();
}

bool TiledViewer::hasEditableOverlay() const
{
    return layers_->editable() != nullptr;
}

OverlayStyle TiledViewer::editableOverlayStyle() const
{
    return layers_->editable() ? layers_->editable()->style() : OverlayStyle();
}

void TiledViewer::setEditableOverlayStyle(const OverlayStyle& style)
{
    if (!layers_->editable())
        return;
    layers_->editable()->setStyle(style);
    update();
}

void TiledViewer::editableOverlayChanged(const QRect& region)
{
    if (!layers_->editable())
        return;
    layers_->editable()->changed(region);
    update(QRectF(mapFromImage(region.topLeft()), mapFromImage(region.bottomRight() + QPoint(1, 1)))
               .toAlignedRect()
               .adjusted(-2, -2, 2, 2));
}

void TiledViewer::addDecoration(ViewerDecoration* d)
{
    layers_->addDecoration(d);
    update();
}

std::vector<ViewSource*> TiledViewer::sources()
{
    std::vector<ViewSource*> v;
    if (base_.img)
        v.push_back(&base_);
    for (int i = 0; i < layers_->count(); ++i)
        v.push_back(&layers_->at(i));
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
    loader_->beginView();
    updateRequests();
    update();
    Q_EMIT viewChanged();
}

int TiledViewer::currentLevel() const
{
    return hasImage() ? base_.img->bestLevelForDownsample(1.0 / zoom_) : 0;
}

void TiledViewer::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    if (!hasImage())
        return;
    if (fitPending_)
        fitToWindow();
    else
        refreshView();
}

} // namespace fisura::ui
