// The legend and the numbers of a ground-truth comparison: three colour swatches (click one to
// change its colour) with the pixel counts beside them, then precision, recall, F1 and IoU at
// the current threshold, formatted in the user's locale. Kept apart from TruthPanel, which runs the
// comparison.
#pragma once

#include <QColor>
#include <QWidget>

#include <array>

#include "fisura/score.h"

class QFormLayout;
class QLabel;
class QToolButton;

namespace fisura::ui
{

class ComparisonSummary : public QWidget
{
    Q_OBJECT
public:
    enum Kind { TruePositive = 0, FalsePositive = 1, FalseNegative = 2 };
    /// Okabe–Ito colours: bluish green (#009E73), orange (#E69F00) and blue (#0072B2) differ in
    /// hue and in lightness, so the three stay apart for red–green colour blindness and in
    /// grey-scale prints; blue for misses also reads apart from the warm false alarms.
    static QColor defaultColour(Kind kind);
    /// The stable key of a kind ("tp", "fp", "fn") in settings and object names.
    static const char* kindKey(Kind kind);

    explicit ComparisonSummary(QWidget* parent = nullptr);

    QColor colour(Kind kind) const { return colours_[size_t(kind)]; }
    /// Emits colourChanged when it differs.
    void setColour(Kind kind, const QColor& colour);
    /// The translated name of a layer kind ("True positives", ...).
    QString kindName(Kind kind) const;
    /// Shows the counts of `curve` at `threshold` ("–" without a curve).
    void showCounts(const ScoreCurve* curve, int threshold, int tolerance);
    void retranslateUi();

Q_SIGNALS:
    void colourChanged(int kind, const QColor& colour);

protected:
    void changeEvent(QEvent* e) override;

private:
    void updateSwatches();

    std::array<QColor, 3> colours_;
    std::array<QToolButton*, 3> swatches_;
    std::array<QLabel*, 3> legend_;
    QFormLayout* numbers_;
    QLabel* precision_;
    QLabel* recall_;
    QLabel* f1_;
    QLabel* iou_;
    QLabel* tp_;
    QLabel* fp_;
    QLabel* fn_;
    QLabel* toleranceValue_;
    QLabel* thresholdValue_;
    const ScoreCurve* curve_ = nullptr;
    int threshold_ = 128;
    int tolerance_ = 2;
};

} // namespace fisura::ui
