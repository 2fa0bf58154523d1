// The Inspect pane's "Ground truth" section: the mask attached to the scan, the comparison of a
// probability map with it (fisura::scoreMap in the background) shown as three overlay layers —
// true positives, false positives and missed cracks — with a legend, and precision, recall, F1
// and IoU at the comparison threshold. The threshold only changes lookup tables and sums of the
// score histograms: nothing is recomputed when it moves.
#pragma once

#include <QGroupBox>
#include <QSettings>

#include <memory>

#include "fisura/score.h"
#include "fisura/status.h"
#include "inspect/comparisonsummary.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;

namespace fisura::ui
{

class JobRunner;
class TiledViewer;

class TruthPanel : public QGroupBox
{
    Q_OBJECT
public:
    using Kind = ComparisonSummary::Kind;

    explicit TruthPanel(TiledViewer* viewer, QWidget* parent = nullptr);
    ~TruthPanel() override;

    /// Forgets the truth and the comparison (a new scan is open); cancels a running comparison.
    void reset();
    /// Attaches a mask of the scan's size (TIFF, or PNG shown through a TIFF copy in the cache)
    /// and shows it as the "Ground truth" layer (an overlay of that file already in the viewer is
    /// adopted). A different size is refused with a translated message (message()).
    Status attachTruth(const QString& path);
    QString truthPath() const { return truthPath_; }
    /// Starts comparing `mapPath` with the truth in the background (a running comparison is
    /// cancelled and replaced); an error with a message when there is no truth or no map.
    Status compare(const QString& mapPath);
    bool isRunning() const;
    void cancel();
    /// The finished comparison, or null.
    const ScoreCurve* comparison() const { return curve_.get(); }
    /// The map of the last comparison started.
    QString comparedMap() const { return mapPath_; }
    /// Overlay `i` of the viewer is the truth or a comparison layer (not a map to compare).
    bool isTruthLayer(int i) const;
    bool isComparisonLayer(int i) const;
    /// Viewer overlay index of a comparison layer, or -1.
    int layerIndex(Kind kind) const;

    int threshold() const;
    void setThreshold(int threshold);
    int tolerance() const;
    void setTolerance(int px);
    /// Colour of a comparison layer (the legend's swatch).
    QColor colour(Kind kind) const { return summary_->colour(kind); }
    void setColour(Kind kind, const QColor& colour) { summary_->setColour(kind, colour); }
    /// The legend and the numbers.
    ComparisonSummary* summary() const { return summary_; }
    /// The last message of the section (errors, refusals), translated.
    QString message() const;

    void saveState(QSettings& s) const;
    void restoreState(QSettings& s);
    void retranslateUi();

Q_SIGNALS:
    /// "Compare with the map" was clicked: the pane picks the map layer and calls compare().
    void compareRequested();
    void thresholdChanged(int threshold);
    void comparisonFinished(const fisura::Status& status);
    void statusMessage(const QString& text, int timeoutMs);

protected:
    void changeEvent(QEvent* e) override;

private:
    void chooseTruth();
    Status checkSize(const QString& path);
    void showTruthLayer(const QString& path);
    void startCopy();
    void onCopyFinished(const Status& s);
    void onComparisonFinished(Result<ScoreCurve> result);
    void addComparisonLayers();
    void discardComparison();
    void applyThreshold();
    void showNumbers();
    void showMessage(const QString& text);
    void recolourLayer(int kind, const QColor& colour);
    void updateEnabled();
    QString cacheFolder(const QString& mapPath) const;
    int overlayIndexOf(const QString& path) const;

    TiledViewer* viewer_;
    JobRunner* runner_;
    JobRunner* converter_;
    std::unique_ptr<ScoreCurve> curve_;
    QString truthPath_;  ///< as attached
    QString truthLayer_; ///< the file shown as the truth layer (a TIFF copy for PNG)
    QString mapPath_;
    QString queuedMap_;   ///< compare this once the cancelled comparison has stopped
    QString copyWanted_;  ///< TIFF copy of a PNG truth still to be shown
    QString copyRunning_; ///< the copy being written
    QString messageText_;

    QLabel* truthLabel_;
    QPushButton* attachButton_;
    QLabel* toleranceLabel_;
    QSpinBox* tolerance_;
    QPushButton* compareButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QLabel* message_;
    QLabel* thresholdLabel_;
    QSlider* threshold_;
    ComparisonSummary* summary_;
};

} // namespace fisura::ui
