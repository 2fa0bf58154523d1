// The Inspect pane's wiring between its parts: the cursor readout on the status bar (only while
// Inspect is shown) and the one threshold that the map layer, the comparison and the measurement
// field share.
#include <QLocale>
#include <QSpinBox>

#include <algorithm>
#include <utility>

#include "inspect/inspectpane.h"
#include "inspect/measurepanel.h"
#include "inspect/truthpanel.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

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
    measure_->thresholdBox()->setValue(std::clamp(viewer_->overlayStyle(i).threshold, 1, 255));
    thresholdSync_ = false;
}

void InspectPane::onMeasureThreshold(int threshold)
{
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

} // namespace fisura::ui
