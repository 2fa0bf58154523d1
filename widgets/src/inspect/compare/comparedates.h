// Inspect's "Compare dates": with a scan and its crack map open (the earlier date), asks for a
// later scan of the same surface and its crack map, and in the background (a JobRunner, with
// progress, ETA and Cancel) aligns the later scan to the earlier one, warps the later map and the
// later scan onto the earlier grid (temporary files in the cache, removed again on failure,
// cancel and reset) and compares the crack maps (fisura/change.h). Shows the alignment's quality
// and totals per kind, the alignment's settings (to compare again with others), owns the change
// table (the results view the pane places) and the change layer on the viewer, and adds the later
// scan as a layer for the viewer's swipe.
#pragma once

#include <QGroupBox>
#include <QString>

#include <functional>
#include <memory>

#include "fisura/change.h"
#include "fisura/measure.h"
#include "fisura/status.h"

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace fisura::ui
{

class AlignSettings;
class ChangeOverlay;
class ChangeTable;
class JobRunner;
class TiledViewer;

class CompareDatesPanel : public QGroupBox
{
    Q_OBJECT
public:
    /// Asks for a file to open: `laterMap` false for the later scan, true for its crack map;
    /// returns "" when the user gives up. Tests inject one; the default is a file dialog.
    using FileChooser = std::function<QString(bool laterMap, const QString& startFolder)>;

    explicit CompareDatesPanel(TiledViewer* viewer, QWidget* parent = nullptr);
    ~CompareDatesPanel() override;

    void setFileChooser(FileChooser chooser) { chooser_ = std::move(chooser); }
    /// Asks for the later scan and its map (dialogs open in the earlier scan's folder), then
    /// start()s; "" when the user gave up.
    Status chooseAndCompare(const QString& earlierMap, const MeasureOptions& measure);
    /// Compares the viewer's scan and `earlierMap` with `laterScan` and `laterMap` in the
    /// background (finished() follows); an error at once when a map's size is not its scan's or
    /// a comparison is running.
    Status start(const QString& earlierMap, const QString& laterScan, const QString& laterMap,
                 const MeasureOptions& measure);
    bool isRunning() const;
    /// Stops the comparison; the message says cancelled at once.
    void cancel();
    /// A new scan is open: forgets the result, takes the layers off and deletes their files.
    void reset();

    std::shared_ptr<const ChangeResult> result() const { return result_; }
    QString message() const;
    /// The folder of the temporary files (in the app's cache).
    static QString cacheFolder();
    /// The later scan on the earlier grid (a layer once compared), or "".
    QString laterScanPath() const { return laterScanPath_; }
    /// Layers of this comparison are not crack maps of the scan.
    bool isDateLayer(int overlay) const;
    int laterScanLayer() const;

    QWidget* resultsView() const;
    ChangeTable* table() const { return table_; }
    ChangeOverlay* changeOverlay() const { return overlay_; }
    QCheckBox* showChangesBox() const { return showChanges_; }
    QPushButton* swipeButton() const { return swipe_; }
    QPushButton* cancelButton() const { return cancel_; }
    /// The alignment's settings and "Compare again" (the last later scan and map).
    AlignSettings* alignSettings() const { return align_; }
    /// Runs the last comparison again with the alignment settings as they are now; an error when
    /// none was started since the scan was opened, or one is running.
    Status compareAgain();
    void retranslateUi();

Q_SIGNALS:
    void finished(const fisura::Status& status);
    /// Swipe between the layers `left` (earlier map) and `right` (later scan).
    void swipeRequested(int left, int right);
    void statusMessage(const QString& text, int timeoutMs);

protected:
    void changeEvent(QEvent* e) override;

private:
    /// What keeps these files from being compared (a map missing or of another size than its
    /// scan, a file that cannot be read), translated; "" when nothing does.
    QString inputProblem(const QString& earlierMap, const QString& laterScan,
                         const QString& laterMap) const;
    void onFinished(Result<ChangeResult> result);
    void onProgress(double fraction, const QString& stage, double eta);
    void showResult();
    void showMessage(const QString& text);
    void removeFiles();
    void requestSwipe();
    void updateEnabled();

    TiledViewer* viewer_;
    JobRunner* runner_;
    FileChooser chooser_;
    std::shared_ptr<const ChangeResult> result_;
    Status lastStatus_;
    QString earlierMap_;
    QString laterScanIn_, laterMapIn_; ///< the last comparison's inputs, for compareAgain()
    MeasureOptions measure_;
    QString laterScanPath_, alignedMapPath_;
    bool cancelled_ = false;

    QLabel* message_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel* summary_;
    QCheckBox* showChanges_;
    QPushButton* swipe_;
    ChangeTable* table_;
    ChangeOverlay* overlay_;
    AlignSettings* align_;
};

} // namespace fisura::ui
