// The Inspect pane's "Crack measurement" section: measures the cracks of a map layer in the
// background (fisura::measureCracks through a JobRunner, with progress and cancel), with the
// pixel size (prefilled from the scan's tags), the threshold and editable width class limits
// with the note that they depend on the standard in force. Shows the totals by class, and owns
// the results view (crack table and plots, laid out by the pane), the crack outline on the
// viewer, the width-class overlay and the exports (CSV, JSON, PDF report).
#pragma once

#include <QGroupBox>
#include <QPointer>
#include <QSettings>
#include <QTabWidget>

#include <array>
#include <memory>

#include "fisura/measure.h"
#include "fisura/status.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace fisura::ui
{

class ClassPresetBox;
class CrackOverlay;
class CrackTable;
class JobRunner;
class MeasurePlots;
class TiledViewer;

class MeasurePanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit MeasurePanel(TiledViewer* viewer, QWidget* parent = nullptr);
    ~MeasurePanel() override;

    /// A new scan is open: forgets the result, takes the scan's pixel size.
    void reset();
    /// Starts measuring `mapPath` (a running measurement is cancelled first); an error when
    /// there is no map or the settings are not valid. `mapByte` (the layer's threshold, 1..255)
    /// sets the threshold field to its crack probability; below 1 keeps the field's value.
    Status measure(const QString& mapPath, int mapByte = -1);
    bool isRunning() const;
    void cancel();
    /// The settings as they are in the fields.
    MeasureOptions options() const;
    std::shared_ptr<const MeasureResult> result() const { return result_; }

    Status exportCsv(const QString& path) const;
    Status exportJson(const QString& path) const;
    /// Crack centre lines for GIS / CAD (format from the extension: fisura/vectorexport.h).
    Status exportVectors(const QString& path) const;
    /// The crack overlay (RGBA GeoTIFF of the width classes, georeferenced like the scan) in the
    /// background: the map is measured once more into a width layer (overlayWritten).
    Status exportOverlay(const QString& path);
    /// Reads the overview picture in the background, then writes the PDF (reportWritten).
    Status writeReport(const QString& path);

    /// The crack table and plots in tabs, for the pane to place (beside or below the viewer).
    QTabWidget* resultsView() const { return results_; }
    CrackTable* table() const { return table_; }
    MeasurePlots* plots() const { return plots_; }
    CrackOverlay* crackOverlay() const { return overlay_; }
    QDoubleSpinBox* pixelSizeBox() const { return pixelSize_; }
    QDoubleSpinBox* thresholdBox() const { return threshold_; }
    QDoubleSpinBox* classLimitBox(int k) const { return limits_[size_t(k)]; }
    /// Fisura's classes, a standard's preset or custom limits (the limit fields).
    ClassPresetBox* classPresetBox() const { return presets_; }
    QCheckBox* classOverlayBox() const { return classLayer_; }
    QString message() const;

    void saveState(QSettings& s) const;
    void restoreState(QSettings& s);
    void retranslateUi();

Q_SIGNALS:
    /// "Measure" was clicked: the pane picks the map layer and calls measure().
    void measureRequested();
    void measured(const fisura::Status& status);
    void reportWritten(const fisura::Status& status, const QString& path);
    void overlayWritten(const fisura::Status& status, const QString& path);
    void statusMessage(const QString& text, int timeoutMs);

protected:
    void changeEvent(QEvent* e) override;

private:
    void buildForm();
    void onFinished(Result<MeasureResult> result);
    void onReportPictures(Result<QImage> picture);
    void showSummary();
    void showMessage(const QString& text);
    void updateEnabled();
    void chooseExport(int kind);
    void showClassLayer(bool on);
    void selectCrack(int id);
    void onClassMap(const Status& s);
    void onOverlayWritten(const Status& s);
    void onPresetChanged();
    int classLayerIndex() const;

    TiledViewer* viewer_;
    JobRunner* runner_;
    JobRunner* reporter_;
    JobRunner* classMapper_;
    JobRunner* overlayWriter_;
    std::shared_ptr<const MeasureResult> result_;
    QString reportPath_;
    QString mapPath_;
    QString queuedMap_; ///< measure this once the cancelled measurement has stopped
    QString classMapPath_;
    QString overlayPath_;
    QString messageText_;

    QLabel* mapLabel_;
    QLabel* pixelSizeLabel_;
    QDoubleSpinBox* pixelSize_;
    QLabel* thresholdLabel_;
    QDoubleSpinBox* threshold_; ///< crack probability
    QLabel* presetLabel_;
    ClassPresetBox* presets_;
    QLabel* limitsLabel_;
    std::array<QLabel*, 3> limitLabels_{};
    std::array<QDoubleSpinBox*, 3> limits_{};
    QLabel* note_;
    QPushButton* measureButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QLabel* message_;
    QLabel* summary_;
    QCheckBox* classLayer_;
    QPushButton* csvButton_;
    QPushButton* jsonButton_;
    QPushButton* pdfButton_;
    QPushButton* vectorButton_;
    QPointer<QTabWidget> results_; ///< in the pane's layout once placed there
    CrackTable* table_;
    MeasurePlots* plots_;
    CrackOverlay* overlay_;
};

} // namespace fisura::ui
