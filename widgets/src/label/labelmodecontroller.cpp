#include "label/labelmodecontroller.h"

#include <QAction>
#include <QFileInfo>
#include <QKeySequence>
#include <QMessageBox>
#include <QWidget>

#include "common/errortext.h"
#include "label/labelpanel.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

LabelModeController::LabelModeController(TiledViewer* viewer, QWidget* host, OpenImage openImage)
    : QObject(host), viewer_(viewer), host_(host), openImage_(std::move(openImage)),
      panel_(new LabelPanel(viewer, host)), action_(new QAction(host))
{
    action_->setObjectName(QStringLiteral("labelAction"));
    action_->setCheckable(true);
    action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(action_, &QAction::triggered, this, &LabelModeController::toggle);
    // Tool letters, undo, redo and save apply wherever the focus is in the pane.
    for (QAction* a : panel_->shortcutActions()) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        host->addAction(a);
    }
    panel_->setVisible(false);
    connect(panel_, &LabelPanel::labellingChanged, this, [this](bool on) {
        panel_->setVisible(on);
        action_->setChecked(on);
        if (on)
            viewer_->setFocus();
    });
    connect(panel_, &LabelPanel::statusMessage, this, &LabelModeController::statusMessage);
    connect(panel_, &LabelPanel::failed, this, &LabelModeController::showFailure);
    connect(panel_, &LabelPanel::busyChanged, this, &LabelModeController::busyChanged);
    connect(panel_, &LabelPanel::queueStepRequested, this,
            [this](const QString& path) { startLabelling(path, panel_->queue()); });
    connect(viewer_, &TiledViewer::imageOpened, this,
            [this] { action_->setEnabled(viewer_->hasImage()); });
    action_->setEnabled(false);
}

void LabelModeController::toggle(bool on)
{
    if (on)
        startLabelling(viewer_->imagePath(), panel_->queue());
    else if (panel_->confirmLeave())
        panel_->stop();
    action_->setChecked(panel_->isLabelling());
}

void LabelModeController::retranslateUi()
{
    action_->setText(tr("Label"));
    action_->setToolTip(tr("Draw the cracks of this image: its mask is saved beside it (%1)")
                            .arg(action_->shortcut().toString(QKeySequence::NativeText)));
    panel_->retranslateUi();
}

void LabelModeController::startLabelling(const QString& imagePath, const QStringList& queue)
{
    if (imagePath.isEmpty())
        return;
    if (!viewer_->hasImage() || viewer_->imagePath() != imagePath) {
        const Status s = openImage_(imagePath);
        if (!s) {
            if (s.code() != ErrorCode::Cancelled)
                showFailure(
                    tr("Could not open %1 to label it.").arg(QFileInfo(imagePath).fileName()) +
                    QLatin1Char(' ') + errorMessage(s));
            action_->setChecked(panel_->isLabelling());
            return;
        }
    }
    panel_->setQueue(queue, int(queue.indexOf(imagePath)));
    panel_->start(); // a failure is reported through LabelPanel::failed
    action_->setChecked(panel_->isLabelling());
}

bool LabelModeController::leaveImage()
{
    if (panel_->isLabelling() && !panel_->confirmLeave())
        return false;
    panel_->stop();
    return true;
}

void LabelModeController::setProjectSession(ProjectSession* session)
{
    panel_->setProjectSession(session);
}

QString LabelModeController::runningWork() const
{
    return panel_->runningWork();
}

bool LabelModeController::confirmClose()
{
    return panel_->confirmClose();
}

void LabelModeController::showFailure(const QString& message)
{
    Q_EMIT statusMessage(message.section(QLatin1Char('\n'), 0, 0), 0);
    // Not modal: labelling goes on, and a queue of images is not held up by one failure.
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Labels"), message, QMessageBox::Ok, host_);
    box->setObjectName(QStringLiteral("labelErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace fisura::ui
