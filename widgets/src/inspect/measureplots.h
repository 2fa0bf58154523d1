// The two plots of a crack measurement (QCustomPlot): the width histogram (skeleton length at
// each width) and the total length per width class, bars coloured like the class overlay.
// Also rendered to images for the PDF report.
#pragma once

#include <QImage>
#include <QWidget>

#include <memory>

#include "fisura/measure.h"

class QCustomPlot;

namespace fisura::ui
{

class MeasurePlots : public QWidget
{
    Q_OBJECT
public:
    explicit MeasurePlots(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const MeasureResult> result);
    QCustomPlot* histogramPlot() const { return histogram_; }
    QCustomPlot* classPlot() const { return classes_; }
    /// Bars shown in the histogram and in the class plot (tests).
    int histogramBars() const;
    int classBars() const;
    /// The plots as pictures of `size` logical pixels at `scale` (for the report).
    QImage histogramImage(QSize size, double scale = 2.0);
    QImage classImage(QSize size, double scale = 2.0);
    void retranslateUi();

protected:
    void changeEvent(QEvent* e) override;

private:
    void showHistogram();
    void showClasses();

    std::shared_ptr<const MeasureResult> result_;
    QCustomPlot* histogram_;
    QCustomPlot* classes_;
};

} // namespace fisura::ui
