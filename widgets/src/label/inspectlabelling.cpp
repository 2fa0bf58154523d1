// The Inspect pane's labelling hooks: the Label action and section, starting to label an image
// (with a queue to step through), and the questions about unsaved labels before another image
// opens or the window closes. Kept apart from inspectpane.cpp, which is about viewing.
#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QToolBar>

#include "common/errortext.h"
#include "viewer/tiledviewer.h"
#include "inspect/inspectpane.h"
#include "label/labelpanel.h"

namespace fisura::ui
{

void InspectPane::buildLabelling()
{
    labelAction_ = new QAction(this);
    labelAction_->setObjectName(QStringLiteral("labelAction"));
    labelAction_->setCheckable(true);
    labelAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    toolbar_->insertAction(snapshotAction_, labelAction_);
    connect(labelAction_, &QAction::triggered, this, [this](bool on) {
        if (on) {
            startLabelling(viewer_->imagePath(), label_->queue());
        } else if (label_->confirmLeave()) {
            label_->stop();
        }
        labelAction_->setChecked(label_->isLabelling());
    });
    // Tool letters, undo, redo and save apply wherever the focus is in this pane.
    for (QAction* a : label_->shortcutActions()) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    label_->setVisible(false);
    connect(label_, &LabelPanel::labellingChanged, this, [this](bool on) {
        label_->setVisible(on);
        labelAction_->setChecked(on);
        if (on)
            viewer_->setFocus();
    });
    connect(label_, &LabelPanel::statusMessage, this, &Pane::statusMessage);
    connect(label_, &LabelPanel::failed, this, &InspectPane::showLabelFailure);
    connect(label_, &LabelPanel::busyChanged, this, &Pane::busyChanged);
    connect(label_, &LabelPanel::queueStepRequested, this,
            [this](const QString& path) { startLabelling(path, label_->queue()); });
    connect(viewer_, &TiledViewer::imageOpened, this,
            [this] { labelAction_->setEnabled(viewer_->hasImage()); });
    labelAction_->setEnabled(false);
}

void InspectPane::retranslateLabelling()
{
    labelAction_->setText(tr("Label"));
    labelAction_->setToolTip(tr("Draw the cracks of this image: its mask is saved beside it (%1)")
                                 .arg(labelAction_->shortcut().toString(QKeySequence::NativeText)));
    label_->retranslateUi();
}

void InspectPane::startLabelling(const QString& imagePath, const QStringList& queue)
{
    if (imagePath.isEmpty())
        return;
    if (!viewer_->hasImage() || viewer_->imagePath() != imagePath) {
        const Status s = openScan(imagePath);
        if (!s) {
            if (s.code() != ErrorCode::Cancelled)
                showLabelFailure(
                    tr("Could not open %1 to label it.").arg(QFileInfo(imagePath).fileName()) +
                    QLatin1Char(' ') + errorMessage(s));
            labelAction_->setChecked(label_->isLabelling());
            return;
        }
    }
    label_->setQueue(queue, int(queue.indexOf(imagePath)));
    label_->start(); // a failure is reported through LabelPanel::failed
    labelAction_->setChecked(label_->isLabelling());
}

void InspectPane::setProjectSession(ProjectSession* session)
{
    label_->setProjectSession(session);
}

QString InspectPane::runningWork() const
{
    return label_->runningWork();
}

bool InspectPane::confirmClose()
{
    return label_->confirmClose();
}

void InspectPane::showLabelFailure(const QString& message)
{
    Q_EMIT statusMessage(message.section(QLatin1Char('\n'), 0, 0), 0);
    // Not modal: labelling goes on, and a queue of images is not held up by one failure.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Labels"), message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("labelErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace fisura::ui
