// What the Train pane shows when a run ends: the best epoch's metrics, the task's evaluation
// chart (precision-recall curve with a movable threshold, confusion matrix, or error histogram
// with the threshold) and a gallery of the best and worst validation predictions.
//
// The pane feeds it: setRun() with the finished run record, setBusy() while evaluateModel() runs
// off the GUI thread, then setReport() with its result. When the user moves the threshold the
// view emits thresholdChosen(); the pane stores it (setModelThreshold and ProjectRun::threshold).
#pragma once

#include <QWidget>

#include "fisura/evaluate.h"
#include "fisura/project.h"

class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QStackedWidget;
class QTableWidget;

namespace fisura::ui
{

class TrainGalleryView;

class TrainResultsView : public QWidget
{
    Q_OBJECT
public:
    explicit TrainResultsView(QWidget* parent = nullptr);

    /// Show the best epoch's metrics of `run` (its bestEpoch, else the highest score).
    void setRun(const ProjectRun& run);
    /// Show an evaluation: chart, threshold (the report's, i.e. the model's) and gallery.
    void setReport(const EvaluationReport& report);
    /// Say that an evaluation is running (`text` is shown as is; already translated).
    void setBusy(const QString& text);
    /// Forget run and report.
    void clear();

    /// The threshold shown (segmentation probability, anomaly reconstruction error); -1 before
    /// a report of those tasks.
    double threshold() const { return threshold_; }
    /// Move the threshold marker and control without emitting thresholdChosen().
    void setThreshold(double threshold);

    /// Precision, recall and F1 at `threshold`, interpolated along the report's curve.
    PrPoint pointAt(double threshold) const;

Q_SIGNALS:
    /// The user moved the threshold (slider released, spin box edited, click on the curve).
    void thresholdChosen(double threshold);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslateUi();
    void buildCharts();
    void fillMetrics();
    void showCurve();
    void showConfusion();
    void showHistogram();
    void configureThresholdControl();
    void updateThresholdMarks();
    void userMovedThreshold(double threshold, bool final);
    double sliderToThreshold(int v) const;
    int thresholdToSlider(double t) const;

    QLabel* busy_;
    QLabel* metricsTitle_;
    QTableWidget* metrics_;
    QLabel* chartTitle_;
    QStackedWidget* charts_;
    QLabel* noChart_;
    QCustomPlot* prPlot_;
    QTableWidget* confusion_;
    QLabel* confusionNote_;
    QWidget* confusionPage_;
    QCustomPlot* histogram_;
    QWidget* thresholdRow_;
    QLabel* thresholdLabel_;
    QSlider* slider_;
    QDoubleSpinBox* spin_;
    QLabel* readout_;
    QLabel* galleryTitle_;
    TrainGalleryView* gallery_;

    bool haveRun_ = false;
    ProjectRun run_;
    bool haveReport_ = false;
    EvaluationReport report_;
    double threshold_ = -1;
    double lo_ = 0, hi_ = 1; ///< threshold range of the control
    bool updating_ = false;
};

} // namespace fisura::ui
