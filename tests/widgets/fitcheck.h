// Finds what a person cannot read because it has no room: a label, button, group title or tab
// narrower (or a wrapped label lower) than its text needs, a widget cut off by the widget that
// holds it, a table column narrower than its header or its values. Scrolled-away content is not
// cut off (it is one scroll away); a cell whose full text is its tool tip may be elided.
#pragma once

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QStyleOptionButton>
#include <QStyleOptionComboBox>
#include <QStyleOptionHeader>
#include <QTabBar>
#include <QTableView>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeView>
#include <QWidget>

#include "common/qcp.h"

namespace fitcheck
{

inline QString name(const QWidget* w)
{
    QString n = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        n += QLatin1Char('#') + w->objectName();
    return n;
}

inline QString plain(QString t)
{
    t.remove(QLatin1Char('&'));
    return t;
}

/// The width a push button needs for its text and icon, without the style's 80 px minimum.
inline int pushButtonNeeds(const QPushButton* b)
{
    QStyleOptionButton opt;
    opt.initFrom(b);
    opt.features = b->isFlat() ? QStyleOptionButton::Flat : QStyleOptionButton::None;
    const int textW = b->fontMetrics().horizontalAdvance(plain(b->text()));
    const int iconW = b->icon().isNull() ? 0 : b->iconSize().width() + 4;
    const QSize inner(textW + iconW, b->fontMetrics().height());
    return b->style()->sizeFromContents(QStyle::CT_PushButton, &opt, inner, b).width();
}

/// A widget's text that does not fit it; empty when it fits.
inline QString textProblem(const QWidget* w)
{
    const int have = w->width();
    if (auto* l = qobject_cast<const QLabel*>(w)) {
        if (l->text().trimmed().isEmpty() || l->pixmap().isNull() == false)
            return {};
        if (l->wordWrap()) {
            const int need = l->heightForWidth(have);
            if (need > w->height() + 1)
                return QStringLiteral("wrapped text needs %1 px high, has %2")
                    .arg(need)
                    .arg(w->height());
            return {};
        }
        const int need = l->sizeHint().width();
        if (need > have)
            return QStringLiteral("needs %1 px wide, has %2").arg(need).arg(have);
        return {};
    }
    if (auto* b = qobject_cast<const QAbstractButton*>(w)) {
        if (b->text().trimmed().isEmpty())
            return {};
        const auto* pb = qobject_cast<const QPushButton*>(w);
        const int need = pb ? pushButtonNeeds(pb) : b->sizeHint().width();
        if (need > have)
            return QStringLiteral("needs %1 px wide, has %2").arg(need).arg(have);
        return {};
    }
    if (auto* g = qobject_cast<const QGroupBox*>(w)) {
        const int need =
            g->fontMetrics().horizontalAdvance(plain(g->title())) + (g->isCheckable() ? 24 : 8);
        if (!g->title().isEmpty() && need > have)
            return QStringLiteral("title needs %1 px wide, has %2").arg(need).arg(have);
        return {};
    }
    if (auto* c = qobject_cast<const QComboBox*>(w)) {
        // A chosen entry that does not fit is elided; combos made to elide (a minimum contents
        // length: paths and run names) may, as may one whose tip says it all.
        if (c->isEditable() || c->currentText().isEmpty() || c->minimumContentsLength() > 0 ||
            c->toolTip().contains(c->currentText()))
            return {};
        QStyleOptionComboBox opt;
        opt.initFrom(c);
        const int iconW = c->itemIcon(c->currentIndex()).isNull() ? 0 : c->iconSize().width() + 4;
        const QSize inner(c->fontMetrics().horizontalAdvance(c->currentText()) + iconW,
                          c->fontMetrics().height());
        const int need = c->style()->sizeFromContents(QStyle::CT_ComboBox, &opt, inner, c).width();
        if (need > have)
            return QStringLiteral("\"%1\" needs %2 px wide, has %3")
                .arg(c->currentText())
                .arg(need)
                .arg(have);
        return {};
    }
    if (auto* t = qobject_cast<const QTabBar*>(w)) {
        for (int i = 0; i < t->count(); ++i) {
            if (!t->isTabVisible(i))
                continue;
            const QRect r = t->tabRect(i);
            const int need = t->fontMetrics().horizontalAdvance(plain(t->tabText(i))) + 12;
            if (r.width() < need || r.right() > t->width() || r.left() < 0)
                return QStringLiteral("tab \"%1\" needs %2 px, has %3 (bar %4 px)")
                    .arg(t->tabText(i))
                    .arg(need)
                    .arg(r.width())
                    .arg(t->width());
        }
        return {};
    }
    return {};
}

/// A widget that its parents cut off: part of it lies outside an ancestor that does not scroll.
inline QString cutOff(const QWidget* w)
{
    QRect r(QPoint(0, 0), w->size());
    const QWidget* child = w;
    for (const QWidget* p = w->parentWidget(); p; child = p, p = p->parentWidget()) {
        r.translate(child->pos());
        // The contents of a scroll area are reachable by scrolling.
        if (auto* sa = qobject_cast<const QAbstractScrollArea*>(p->parentWidget()))
            if (sa->viewport() == p)
                return {};
        if (!QRect(QPoint(0, 0), p->size()).contains(r))
            return QStringLiteral("cut off by %1 (%2x%3 at %4,%5 in %6x%7)")
                .arg(name(p))
                .arg(r.width())
                .arg(r.height())
                .arg(r.x())
                .arg(r.y())
                .arg(p->width())
                .arg(p->height());
        if (p->isWindow())
            return {};
    }
    return {};
}

/// The first rows a person sees: top-level rows and the children of expanded tree rows.
inline QList<QModelIndex> shownRows(const QAbstractItemView* v, const QModelIndex& parent = {})
{
    QList<QModelIndex> out;
    const auto* tree = qobject_cast<const QTreeView*>(v);
    const QAbstractItemModel* m = v->model();
    for (int r = 0; r < m->rowCount(parent) && out.size() < 60; ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        out << i;
        if (tree && tree->isExpanded(i))
            out << shownRows(v, i);
    }
    return out;
}

/// Header sections narrower than their titles, and columns narrower than their values (a value
/// elided without its full text as a tool tip).
inline QStringList columnProblems(const QAbstractItemView* v)
{
    QStringList bad;
    const QAbstractItemModel* m = v->model();
    const auto* tree = qobject_cast<const QTreeView*>(v);
    const QHeaderView* h = tree ? tree->header() : v->findChild<QHeaderView*>();
    if (!m || !h || h->orientation() != Qt::Horizontal || h->isHidden())
        return bad;
    for (int c = 0; c < m->columnCount(); ++c) {
        if (h->isSectionHidden(c) || h->sectionSize(c) == 0)
            continue;
        const QString title = m->headerData(c, Qt::Horizontal).toString();
        QStyleOptionHeader opt;
        opt.initFrom(h);
        opt.text = title;
        opt.section = c;
        const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, &opt, h);
        const int need = h->fontMetrics().horizontalAdvance(title) + 2 * margin;
        if (!title.isEmpty() && h->sectionSize(c) < need)
            bad << QStringLiteral("column \"%1\" title needs %2 px, has %3")
                       .arg(title)
                       .arg(need)
                       .arg(h->sectionSize(c));
        for (const QModelIndex& row : shownRows(v)) {
            const QModelIndex i = row.siblingAtColumn(c);
            const QString text = i.data(Qt::DisplayRole).toString();
            if (text.isEmpty() || i.data(Qt::ToolTipRole).toString().contains(text))
                continue;
            const QRect cell = v->visualRect(i);
            if (cell.isEmpty())
                continue;
            QStyleOptionViewItem o;
            o.initFrom(v);
            o.font = v->font();
            o.fontMetrics = v->fontMetrics();
            o.rect = cell;
            o.features = QStyleOptionViewItem::HasDisplay;
            const bool wrap = v->property("wordWrap").toBool();
            if (wrap)
                o.features |= QStyleOptionViewItem::WrapText;
            if (wrap) {
                // Wrapped: the cell must be high enough for every line.
                const int margin = v->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, &o, v) + 1;
                const int need = v->fontMetrics()
                                     .boundingRect(QRect(0, 0, cell.width() - 2 * margin, 100000),
                                                   Qt::TextWordWrap, text)
                                     .height();
                if (need > cell.height()) {
                    bad << QStringLiteral("row \"%1\" (wrapped) needs %2 px high, has %3")
                               .arg(text.left(40))
                               .arg(need)
                               .arg(cell.height());
                    break;
                }
                continue;
            }
            const QSize want = v->itemDelegateForIndex(i)->sizeHint(o, i);
            if (want.width() > cell.width()) {
                bad << QStringLiteral("column \"%1\" value \"%2\" needs %3 px, has %4")
                           .arg(title, text)
                           .arg(want.width())
                           .arg(cell.width());
                break;
            }
        }
    }
    return bad;
}

/// A view whose columns reach past its right edge (a sideways scroll away); empty when they fit.
inline QStringList sidewaysScroll(const QAbstractItemView* v)
{
    const auto* tree = qobject_cast<const QTreeView*>(v);
    const auto* table = qobject_cast<const QTableView*>(v);
    const QHeaderView* h = tree ? tree->header() : table ? table->horizontalHeader() : nullptr;
    if (!v->isVisible() || !h)
        return {};
    const int need = h->length();
    const int have = v->viewport()->width();
    if (need <= have)
        return {};
    return {QStringLiteral("%1: columns need %2 px, the view shows %3 (sideways scroll)")
                .arg(name(v))
                .arg(need)
                .arg(have)};
}

/// A plot with less room than it needs: squeezed below its minimum height (its lowest axis title
/// or tick labels are drawn past its edge), or a layout element reaching past the widget's edge.
/// Empty when everything is inside.
inline QString plotProblem(QCustomPlot* plot)
{
    if (plot->height() < plot->minimumHeight() || plot->width() < plot->minimumWidth())
        return QStringLiteral("squeezed to %1x%2, needs %3x%4")
            .arg(plot->width())
            .arg(plot->height())
            .arg(plot->minimumWidth())
            .arg(plot->minimumHeight());
    const QRect view = plot->viewport();
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (!e || !e->visible() || e->outerRect().isEmpty())
            continue;
        const QRect r = e->outerRect();
        if (r.bottom() > view.bottom() + 1 || r.right() > view.right() + 1)
            return QStringLiteral("plot element %1 reaches %2,%3, the plot is %4x%5")
                .arg(QString::fromLatin1(e->metaObject()->className()))
                .arg(r.right())
                .arg(r.bottom())
                .arg(view.width())
                .arg(view.height());
    }
    return {};
}

/// Every problem under `root` that a person would see: one line each.
inline QStringList problems(QWidget* root)
{
    QStringList bad;
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* w : widgets) {
        if (!w->isVisible() || w->width() <= 0 || w->height() <= 0)
            continue;
        QString p = textProblem(w);
        if (p.isEmpty() && (qobject_cast<QLabel*>(w) || qobject_cast<QAbstractButton*>(w) ||
                            qobject_cast<QTabBar*>(w) || qobject_cast<QGroupBox*>(w) ||
                            qobject_cast<QComboBox*>(w)))
            p = cutOff(w);
        if (!p.isEmpty()) {
            QString text;
            if (auto* l = qobject_cast<QLabel*>(w))
                text = l->text().left(40);
            else if (auto* b = qobject_cast<QAbstractButton*>(w))
                text = b->text();
            else if (auto* g = qobject_cast<QGroupBox*>(w))
                text = g->title();
            bad << QStringLiteral("%1 \"%2\": %3").arg(name(w), text, p);
        }
        if (auto* v = qobject_cast<QAbstractItemView*>(w))
            for (const QString& c : columnProblems(v))
                bad << name(w) + QStringLiteral(": ") + c;
        if (auto* plot = qobject_cast<QCustomPlot*>(w)) {
            plot->replot(); // lays out for the size it has now
            QString c = plotProblem(plot);
            if (c.isEmpty())
                c = cutOff(plot);
            if (!c.isEmpty())
                bad << name(w) + QStringLiteral(": ") + c;
        }
    }
    return bad;
}

} // namespace fitcheck
