#include "common/plotlegend.h"

#include <algorithm>

#include "common/qcp.h"

namespace fisura::ui
{

OutsideLegend::OutsideLegend(QCustomPlot* plot, QCPLegend* legend, int row)
    : QObject(plot), plot_(plot), legend_(legend), margins_(6, 2, 6, 2)
{
    plot->plotLayout()->addElement(row, 0, legend);
    // The legend's row is as high as its lines; spare height goes to the axis rects.
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
    // The legend re-wraps to the plot's width; its columns of the moment must not hold the plot
    // (and the window) wide, so the plot states its own minimum instead of the layout's.
    plot->setMinimumWidth(std::max(plot->minimumWidth(), 240));
    plot->plotLayout()->setRowStretchFactor(row, 0.001); // as tall as its entries, no more
    legend->setLayer(QStringLiteral("legend"));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setColumnSpacing(12);
    legend->setRowSpacing(0);
    // An empty grid's size hint is 0 × 0, and a column is no wider than its narrowest maximum:
    // without this the axis rects below an empty legend would shrink to their minimum width.
    // (Half of QWIDGETSIZE_MAX: the margins are added to it, and the sum must stay below.)
    legend->setMaximumSize(QWIDGETSIZE_MAX / 2, QWIDGETSIZE_MAX);
    connect(plot, &QCustomPlot::beforeReplot, this, &OutsideLegend::fit);
    fit();
}

int OutsideLegend::entries(const QCPLegend* legend)
{
    // itemCount() counts the cells of the grid, empty ones (after wrapping) too.
    int n = 0;
    for (int k = 0; k < legend->itemCount(); ++k)
        n += legend->item(k) != nullptr;
    return n;
}

int OutsideLegend::columns() const
{
    const int n = entries(legend_);
    return legend_->wrap() > 0 ? std::min(legend_->wrap(), n) : n;
}

void OutsideLegend::setEntries(const std::vector<QCPAbstractPlottable*>& plottables)
{
    std::vector<QCPAbstractPlottable*> have;
    for (int k = 0; k < legend_->itemCount(); ++k)
        if (auto* it = qobject_cast<QCPPlottableLegendItem*>(legend_->item(k)))
            have.push_back(it->plottable());
    if (have == plottables)
        return;
    legend_->clearItems();
    for (QCPAbstractPlottable* p : plottables)
        p->addToLegend(legend_);
}

void OutsideLegend::fit()
{
    const int n = entries(legend_);
    // Empty: no box, and no height either (an empty grid is only its margins tall).
    legend_->setVisible(n > 0);
    legend_->setMargins(n > 0 ? margins_ : QMargins());
    if (n == 0) {
        extraHeight_ = 0;
        return;
    }
    int widest = 1;
    int tallest = 0;
    for (int k = 0; k < legend_->itemCount(); ++k)
        if (QCPAbstractLegendItem* it = legend_->item(k)) {
            const int w = it->minimumOuterSizeHint().width();
            widest = std::max(widest, w);
            tallest = std::max(tallest, it->minimumOuterSizeHint().height());
            it->setMaximumSize(w, QWIDGETSIZE_MAX); // entries side by side from the left
        }
    const int spacing = legend_->columnSpacing();
    const int room = plot_->viewport().width() - margins_.left() - margins_.right();
    const int columns = std::clamp((room + spacing) / (widest + spacing), 1, n);
    if (legend_->wrap() != columns) {
        legend_->setWrap(columns);
        legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-wrap the entries
    }
    // More lines of legend need more height: the plot asks for it rather than clip its axes
    // (every legend of the plot adds its own; the plot's minimum without them is kept aside).
    const char* base = "fisuraMinimumHeight";
    if (!plot_->property(base).isValid())
        plot_->setProperty(base, plot_->minimumHeight());
    const int lines = (n + columns - 1) / columns;
    extraHeight_ = (lines - 1) * tallest;
    int extra = 0;
    for (const OutsideLegend* l : plot_->findChildren<OutsideLegend*>(Qt::FindDirectChildrenOnly))
        extra += l->extraHeight_;
    if (const int min = plot_->property(base).toInt(); min > 0)
        plot_->setMinimumHeight(min + extra);
}

} // namespace fisura::ui
