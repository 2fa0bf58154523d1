// Legends outside the data. QCustomPlot puts a legend inside its axis rect, where it covers the
// newest points of a growing curve (the F1 above 0.6, the CPU trace at the right edge). Here a
// legend sits in a row of the plot's layout of its own, above its axis rect, its entries side by
// side in as many columns as the plot's width holds; without entries (before any data) it takes
// no room and draws no empty box. (QCustomPlot's "legend outside the axis rect" layout.)
#pragma once

#include <QMargins>
#include <QObject>

#include <vector>

class QCustomPlot;
class QCPAbstractPlottable;
class QCPLegend;

namespace fisura::ui
{

class OutsideLegend : public QObject
{
    Q_OBJECT
public:
    /// Puts `legend` into row `row` of the plot's layout (the row must exist and be empty); it
    /// is fitted before every replot.
    OutsideLegend(QCustomPlot* plot, QCPLegend* legend, int row);
    QCPLegend* legend() const { return legend_; }
    /// Entries of `legend` (QCPLegend::itemCount() counts empty cells of the grid too).
    static int entries(const QCPLegend* legend);
    /// Columns used now (entries per line).
    int columns() const;
    /// Exactly these entries, in this order (rebuilt only when they differ).
    void setEntries(const std::vector<QCPAbstractPlottable*>& plottables);
    /// Shows the legend when it has entries and wraps them to the plot's width.
    void fit();

private:
    QCustomPlot* plot_;
    QCPLegend* legend_;
    QMargins margins_;
    int extraHeight_ = 0; ///< what the legend's second and further lines add to the plot
};

} // namespace fisura::ui
