// Best and worst validation samples of an evaluation, as two rows of thumbnails: the input with
// the prediction overlaid beside the ground truth (segmentation), the input with its true and
// predicted class (classification), or the input beside its reconstruction-error heat map
// (anomaly). Tooltips give the file name and the sample's quality.
#pragma once

#include <QImage>
#include <QWidget>

#include "fisura/evaluate.h"

class QGridLayout;
class QLabel;

namespace fisura::ui
{

/// The picture of one sample (what a thumbnail shows before scaling). `threshold` is the crack
/// probability (segmentation) above which the prediction is drawn.
QImage galleryPicture(const GallerySample& sample, TaskKind task, double threshold);

class TrainGalleryView : public QWidget
{
    Q_OBJECT
public:
    explicit TrainGalleryView(QWidget* parent = nullptr);

    /// Show the report's best and worst samples.
    void setReport(const EvaluationReport& report);
    /// Redraw the segmentation overlays at another threshold (qualities stay as evaluated).
    void setThreshold(double threshold);
    void clear();

    /// Edge of one picture panel in px.
    static constexpr int kPanel = 96;

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslateUi();
    void rebuild();
    QString toolTipFor(const GallerySample& s) const;

    QGridLayout* grid_;
    QLabel* bestTitle_;
    QLabel* worstTitle_;
    QLabel* empty_;
    QList<QLabel*> thumbs_;
    EvaluationReport report_;
    double threshold_ = 0.5;
};

} // namespace fisura::ui
