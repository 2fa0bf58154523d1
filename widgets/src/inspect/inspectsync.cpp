// The Inspect pane's wiring between its parts: a scan opened with its map (the map in view, the
// comparison with the truth one click away), the cursor readout on the status bar (only while
// Inspect is shown) and the one threshold that the map layer, the comparison and the measurement
// field share.
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QListWidget>
#include <QLocale>

#include <algorithm>
#include <utility>

#include "common/errortext.h"
#include "fisura/threshold.h"
#include "inspect/compare/comparedates.h"
#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "inspect/truthpanel.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

Status InspectPane::openWithMap(const QString& scan, const QString& map, int threshold,
                                const QString& truth)
{
    if (const Status s = openScan(scan); !s)
        return s;
    OverlayStyle style;
    style.threshold = std::clamp(threshold, 0, 256);
    if (const Status s = viewer_->addOverlay(map, QFileInfo(map).completeBaseName(), style); !s)
        return s;
    layers_->setCurrentRow(viewer_->overlayCount() - 1);
    if (!truth.isEmpty())
        if (const Status s = attachTruth(truth); !s)
            return s;
    truth_->setThreshold(threshold);
    syncMeasureThreshold();
    if (truth_->truthPath().isEmpty())
        return {};
    // Inspect opens on the map: the truth layer waits hidden and the comparison is computed in
    // the background, one click ("Show the comparison") away.
    for (int i = 0; i < viewer_->overlayCount(); ++i)
        if (truth_->isTruthLayer(i)) {
            OverlayStyle st = viewer_->overlayStyle(i);
            st.visible = false;
            viewer_->setOverlayStyle(i, st);
        }
    return truth_->compare(map, false);
}

void InspectPane::onComparisonThreshold(int threshold)
{
    // The compared map's own layer follows the comparison threshold (and the other way round in
    // applyLayerControls), so both sliders always agree.
    for (int i = 0; i < viewer_->overlayCount(); ++i)
        if (viewer_->overlayPath(i) == truth_->comparedMap() &&
            viewer_->overlayStyle(i).threshold != threshold) {
            OverlayStyle s = viewer_->overlayStyle(i);
            s.threshold = threshold;
            viewer_->setOverlayStyle(i, s);
        }
    if (second_->isVisible())
        for (int i = 0; i < viewer_->overlayCount(); ++i)
            second_->setOverlayStyle(i, viewer_->overlayStyle(i));
    showLayerControls();
}

void InspectPane::showReadout(QPoint at, const QString& values)
{
    if (at.x() < 0) {
        clearReadout();
        return;
    }
    readoutShown_ = true;
    QString text = tr("x %1, y %2").arg(at.x()).arg(at.y());
    if (!values.isEmpty())
        text += QStringLiteral(": ") + values;
    const double mm = viewer_->pixelSizeMm();
    if (mm > 0)
        text += QStringLiteral("  (") +
                tr("%1 × %2 mm")
                    .arg(QLocale().toString(at.x() * mm, 'f', 1),
                         QLocale().toString(at.y() * mm, 'f', 1)) +
                QStringLiteral(")");
    Q_EMIT statusMessage(text, 0);
}

void InspectPane::clearReadout()
{
    if (std::exchange(readoutShown_, false))
        Q_EMIT statusMessage(QString(), 0);
}

void InspectPane::hideEvent(QHideEvent* e)
{
    clearReadout(); // the cursor readout belongs to Inspect only
    Pane::hideEvent(e);
}

void InspectPane::syncMeasureThreshold()
{
    const int i = mapLayer();
    if (i < 0 || thresholdSync_)
        return;
    thresholdSync_ = true;
    // The layer keeps a map byte; the field shows the crack probability that stands for it.
    measure_->thresholdBox()->setValue(
        probabilityOfMapByte(std::clamp(viewer_->overlayStyle(i).threshold, 1, 255)));
    thresholdSync_ = false;
}

void InspectPane::onMeasureThreshold(double probability)
{
    const int threshold = std::clamp(mapByteThreshold(probability), 1, 255);
    const int i = mapLayer();
    if (i < 0 || thresholdSync_ || viewer_->overlayStyle(i).threshold == threshold)
        return;
    OverlayStyle s = viewer_->overlayStyle(i);
    s.threshold = threshold;
    viewer_->setOverlayStyle(i, s);
    if (second_->isVisible())
        second_->setOverlayStyle(i, s);
    if (viewer_->overlayPath(i) == truth_->comparedMap())
        truth_->setThreshold(threshold);
    showLayerControls();
}

// The Compare tool: a swipe divider between two layers, or the two side by side.
void InspectPane::updateCompare()
{
    if (updating_)
        return;
    const bool on = compareAction_->isChecked();
    compareBox_->setVisible(on);
    const bool two = viewer_->overlayCount() >= 2;
    const bool sideBySide = on && two && modeBox_->currentIndex() == 1;
    viewer_->setSwipe(on && two && !sideBySide, left_->currentIndex(), right_->currentIndex());
    if (sideBySide) {
        syncSecondViewer();
        viewer_->setSoloOverlay(left_->currentIndex());
        second_->setSoloOverlay(right_->currentIndex());
        second_->show();
        followView(viewer_, second_);
    } else {
        viewer_->setSoloOverlay(-1);
        second_->hide();
        second_->closeImage();
    }
}

void InspectPane::syncSecondViewer()
{
    // The right view opens the same files (sharing the decoded-block cache) and styles.
    bool same = second_->imagePath() == viewer_->imagePath() &&
                second_->overlayCount() == viewer_->overlayCount();
    for (int i = 0; same && i < viewer_->overlayCount(); ++i)
        same = second_->overlayPath(i) == viewer_->overlayPath(i);
    if (!same) {
        if (const Status s = second_->openImage(viewer_->imagePath()); !s) {
            reportError(s);
            return;
        }
        for (int i = 0; i < viewer_->overlayCount(); ++i)
            second_->addOverlay(viewer_->overlayPath(i), viewer_->overlayName(i),
                                viewer_->overlayStyle(i));
    }
    for (int i = 0; i < viewer_->overlayCount(); ++i)
        second_->setOverlayStyle(i, viewer_->overlayStyle(i));
}

void InspectPane::followView(TiledViewer* from, TiledViewer* to)
{
    if (syncing_ || !second_->isVisible() || !to->hasImage())
        return;
    syncing_ = true;
    to->showAt(from->viewportRect().center(), from->zoom());
    syncing_ = false;
}

void InspectPane::startCompareDates()
{
    const int i = mapLayer();
    if (i < 0) {
        Q_EMIT statusMessage(tr("Add the crack map of this scan first (Add overlay…)."), 5000);
        return;
    }
    const Status s = dates_->chooseAndCompare(viewer_->overlayPath(i), measure_->options());
    if (!s && s.code() != ErrorCode::Cancelled)
        Q_EMIT statusMessage(dates_->message(), 0);
}

void InspectPane::swipeDates(int left, int right)
{
    modeBox_->setCurrentIndex(0);
    compareAction_->setChecked(true);
    left_->setCurrentIndex(left);
    right_->setCurrentIndex(right);
    updateCompare();
}

} // namespace fisura::ui
