// The Inspect pane: open a scan of any size, lay model outputs and masks over it, compare two
// layers with a swipe divider, check a map against a ground-truth mask (TruthPanel) and save
// what is on screen.
#pragma once

#include <QPointer>

#include "common/pane.h"
#include "fisura/score.h"
#include "fisura/status.h"
#include "label/labelmodecontroller.h"

class QAction;
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QSlider;
class QToolBar;
class QToolButton;

namespace fisura::ui
{

class CompareDatesPanel;
class LabelPanel;
class MeasurePanel;
class OverviewMap;
class ProjectSession;
class TiledViewer;
class TruthPanel;
class ViewerRuler;

class InspectPane : public Pane
{
    Q_OBJECT
public:
    explicit InspectPane(QWidget* parent = nullptr);
    ~InspectPane() override;

    QString paneId() const override { return QStringLiteral("inspect"); }
    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings& s) const override;
    void restoreState(QSettings& s) override;

    /// Opens a scan; a `<name>_mask.tif` beside it is attached as the ground truth.
    Status openScan(const QString& path);
    Status addOverlay(const QString& path);
    Status saveSnapshot(const QString& path);
    /// Opens `scan`, adds `map` as an overlay shown from `threshold` (0..255) and selects it,
    /// attaches `truth` when given (else the `_mask` beside the scan, if any) and, when a truth
    /// is attached, starts comparing the map with it in the background.
    Status openWithMap(const QString& scan, const QString& map, int threshold,
                       const QString& truth = {});
    /// Attaches a ground-truth mask (TIFF or PNG) of the scan's size; a different size is refused
    /// with a translated message in the Ground truth section.
    Status attachTruth(const QString& path);
    /// The finished comparison of the map with the truth, or null.
    const ScoreCurve* comparison() const;
    TruthPanel* truthPanel() const { return truth_; }
    /// Crack measurement: the section, its table and plots, and the ruler on the viewer.
    MeasurePanel* measurePanel() const { return measure_; }
    ViewerRuler* ruler() const { return ruler_; }
    QAction* openScanAction() const { return openAction_; }
    QAction* measureAction() const { return measureAction_; }
    QAction* rulerAction() const { return rulerAction_; }
    /// Compare dates: a later scan of this surface aligned and its cracks compared.
    CompareDatesPanel* compareDates() const { return dates_; }
    QAction* compareDatesAction() const { return datesAction_; }
    /// Measures the selected map layer (or the first map layer) at its threshold.
    void measureCracks();

    /// Labelling: the Label section and the toolbar action that starts labelling the open image.
    LabelModeController* labelMode() const { return labelMode_; }
    LabelPanel* labelPanel() const { return labelMode_->panel(); }
    QAction* labelAction() const { return labelMode_->action(); }
    /// Models for "Propose labels" come from this project's runs (and model files).
    /// File dialogs open at the project's folders.
    void setProjectSession(ProjectSession* session);
    QString runningWork() const override { return labelMode_->runningWork(); }
    void stopWork() override {}
    bool confirmClose() override { return labelMode_->confirmClose(); }

    TiledViewer* viewer() const { return viewer_; }
    QListWidget* layerList() const { return layers_; }
    QSlider* opacitySlider() const { return opacity_; }
    QSlider* thresholdSlider() const { return threshold_; }
    QComboBox* colorMapBox() const { return colorMap_; }
    QCheckBox* outlineBox() const { return outline_; }
    QAction* compareAction() const { return compareAction_; }
    /// 0: swipe divider, 1: side by side.
    QComboBox* compareModeBox() const { return modeBox_; }
    /// The right-hand view of the side-by-side comparison (hidden otherwise).
    TiledViewer* secondViewer() const { return second_; }

public Q_SLOTS:
    /// Opens `imagePath` (asking first about unsaved labels of the image open now) with its label
    /// layer on and the label tools shown; `queue` adds Next / Previous through those images.
    void startLabelling(const QString& imagePath, const QStringList& queue = {})
    {
        labelMode_->startLabelling(imagePath, queue);
    }

protected:
    void retranslateUi() override;
    void hideEvent(QHideEvent* e) override;

private:
    void buildLayerControls();
    void chooseScan();
    void chooseOverlay();
    void chooseSnapshot();
    void refreshLayers();
    /// Compare and Ruler: enabled with a scan (Compare with two layers), else saying why.
    void updateViewTools();
    void showLayerControls();
    void applyLayerControls();
    void moveLayer(int delta);
    void updateCompare();
    void syncSecondViewer();
    void followView(TiledViewer* from, TiledViewer* to);
    int currentLayer() const;
    void reportError(const Status& s);
    void compareWithMap();
    /// The selected layer, or else the first one that is neither the truth nor a comparison
    /// layer; -1 when there is none.
    int mapLayer() const;
    void onComparisonThreshold(int threshold);
    /// The measurement field shows the map layer's threshold; editing it sets that threshold.
    void syncMeasureThreshold();
    /// The status bar's readout of what is under the cursor (inspectsync.cpp).
    void showReadout(QPoint at, const QString& values);
    /// Takes the cursor readout off the status bar (cursor gone, pane hidden).
    void clearReadout();
    void onMeasureThreshold(double probability);
    /// Asks for the later scan and its map and compares (inspectsync.cpp).
    void startCompareDates();
    /// Swipe divider between these two layers (earlier map, later scan).
    void swipeDates(int left, int right);

    TiledViewer* viewer_;
    TiledViewer* second_;
    OverviewMap* overview_;
    TruthPanel* truth_;
    MeasurePanel* measure_;
    CompareDatesPanel* dates_;
    ViewerRuler* ruler_;
    LabelModeController* labelMode_;
    QToolBar* toolbar_;
    QAction* openAction_;
    QAction* overlayAction_;
    QAction* fitAction_;
    QAction* actualAction_;
    QAction* snapshotAction_;
    QAction* compareAction_;
    QAction* measureAction_;
    QAction* datesAction_;
    QAction* rulerAction_;
    QLabel* fileLabel_;
    QGroupBox* layersBox_;
    QListWidget* layers_;
    QToolButton* upButton_;
    QToolButton* downButton_;
    QToolButton* removeButton_;
    QLabel* colorMapLabel_;
    QComboBox* colorMap_;
    QLabel* opacityLabel_;
    QSlider* opacity_;
    QLabel* thresholdLabel_;
    QSlider* threshold_;
    QLabel* thresholdValue_;
    QCheckBox* outline_;
    QGroupBox* compareBox_;
    QLabel* modeLabel_;
    QComboBox* modeBox_;
    QLabel* leftLabel_;
    QComboBox* left_;
    QLabel* rightLabel_;
    QComboBox* right_;
    QProgressBar* overviewProgress_;
    QLabel* overviewLabel_;
    QString lastDir_;
    QPointer<ProjectSession> session_;
    bool updating_ = false;
    bool syncing_ = false;
    bool thresholdSync_ = false;
    bool readoutShown_ = false;
};

} // namespace fisura::ui
