#include "inspect/crackoverlay.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

#include "inspect/measuretext.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

CrackOverlay::CrackOverlay(TiledViewer* viewer) : ViewerDecoration(viewer), viewer_(viewer)
{
    setObjectName(QStringLiteral("crackOverlay"));
    viewer->installEventFilter(this);
}

void CrackOverlay::update()
{
    if (viewer_)
        viewer_->update();
}

void CrackOverlay::setResult(std::shared_ptr<const MeasureResult> result)
{
    result_ = std::move(result);
    selected_ = hovered_ = -1;
    update();
}

const Crack* CrackOverlay::crack(int id) const
{
    if (!result_ || id < 1)
        return nullptr;
    const auto& cs = result_->cracks;
    if (size_t(id) <= cs.size() && cs[size_t(id) - 1].id == id)
        return &cs[size_t(id) - 1];
    for (const Crack& c : cs)
        if (c.id == id)
            return &c;
    return nullptr;
}

void CrackOverlay::setSelected(int crackId)
{
    selected_ = crack(crackId) ? crackId : -1;
    update();
}

int CrackOverlay::crackAt(QPointF p) const
{
    if (!result_ || !viewer_)
        return -1;
    const double slack = 4.0 / std::max(1e-6, viewer_->zoom());
    int best = -1;
    double bestArea = 0;
    for (const Crack& c : result_->cracks) {
        const QRectF box = QRectF(c.box.x, c.box.y, c.box.width, c.box.height)
                               .adjusted(-slack, -slack, slack, slack);
        if (!box.contains(p))
            continue;
        const double area = box.width() * box.height();
        if (best < 0 || area < bestArea) {
            best = c.id;
            bestArea = area;
        }
    }
    return best;
}

void CrackOverlay::zoomTo(int crackId)
{
    const Crack* c = crack(crackId);
    if (!c || !viewer_ || viewer_->width() <= 0)
        return;
    const double w = std::max(16.0, c->box.width * 1.4), h = std::max(16.0, c->box.height * 1.4);
    const double zoom = std::min({viewer_->width() / w, viewer_->height() / h, 8.0});
    viewer_->showAt(QPointF(c->box.x + c->box.width / 2.0, c->box.y + c->box.height / 2.0), zoom);
    setSelected(crackId);
}

void CrackOverlay::setHovered(int id)
{
    if (id == hovered_)
        return;
    hovered_ = id;
    update();
    Q_EMIT crackHovered(id);
}

bool CrackOverlay::eventFilter(QObject* watched, QEvent* e)
{
    // While the viewer is being destroyed it is no longer a TiledViewer (QWidget's destructor
    // still sends it focus events): comparing it with the QPointer<TiledViewer> would downcast
    // it (undefined behaviour, found by UBSan), so qobject_cast checks first.
    if (!qobject_cast<TiledViewer*>(watched) || watched != viewer_)
        return false;
    if (e->type() == QEvent::MouseMove && result_)
        setHovered(crackAt(viewer_->mapToImage(static_cast<QMouseEvent*>(e)->position())));
    else if (e->type() == QEvent::Leave && result_)
        setHovered(-1);
    return false;
}

QRectF CrackOverlay::screenBox(const PixelBox& b) const
{
    return QRectF(viewer_->mapFromImage(QPointF(b.x, b.y)),
                  viewer_->mapFromImage(QPointF(b.x + b.width, b.y + b.height)));
}

void CrackOverlay::paint(QPainter& p)
{
    if (!result_ || !viewer_)
        return;
    p.setRenderHint(QPainter::Antialiasing);
    if (const Crack* h = crack(hovered_); h && hovered_ != selected_) {
        p.setPen(QPen(QColor(255, 255, 255, 200), 1, Qt::DashLine));
        p.drawRect(screenBox(h->box).adjusted(-3, -3, 3, 3));
    }
    const Crack* s = crack(selected_);
    if (!s)
        return;
    // Its branches thin in the class colour, the crack's box bold around them.
    for (const CrackBranch& b : result_->branches)
        if (b.crackId == s->id) {
            p.setPen(QPen(MeasureText::classColour(result_->options.classes, b.widthClass), 1));
            p.drawRect(screenBox(b.box).adjusted(-1, -1, 1, 1));
        }
    const QRectF box = screenBox(s->box).adjusted(-5, -5, 5, 5);
    p.setPen(QPen(QColor(0, 0, 0, 170), 4));
    p.drawRect(box);
    p.setPen(QPen(QColor(0, 230, 255), 2));
    p.drawRect(box);
    const QString label = QStringLiteral("#%1").arg(s->id);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0, 0, 0, 170));
    const QRectF tag(box.topLeft() - QPointF(0, 20),
                     QSizeF(viewer_->fontMetrics().horizontalAdvance(label) + 10, 18));
    p.drawRect(tag);
    p.setPen(QColor(0, 230, 255));
    p.drawText(tag, Qt::AlignCenter, label);
}

} // namespace fisura::ui
