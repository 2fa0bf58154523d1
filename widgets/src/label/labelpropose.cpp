#include "label/labelpropose.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "analyze/modelchooser.h"
#include "common/errortext.h"
#include "viewer/tiledviewer.h"
#include "label/labelsession.h"

namespace fisura::ui
{

LabelProposeBox::LabelProposeBox(TiledViewer* viewer, QWidget* parent)
    : QGroupBox(parent), viewer_(viewer), chooser_(new ModelChooser(this)),
      regionLabel_(new QLabel(this)), region_(new QComboBox(this)), propose_(new QPushButton(this)),
      cancel_(new QPushButton(this)), progress_(new QProgressBar(this)),
      progressText_(new QLabel(this))
{
    setObjectName(QStringLiteral("labelProposeBox"));
    chooser_->setObjectName(QStringLiteral("labelModelChooser"));
    chooser_->setCompact(true); // the side panel is narrow
    region_->setObjectName(QStringLiteral("proposeRegionBox"));
    propose_->setObjectName(QStringLiteral("proposeButton"));
    cancel_->setObjectName(QStringLiteral("proposeCancelButton"));
    progress_->setObjectName(QStringLiteral("proposeProgress"));
    progress_->setRange(0, 1000);
    progressText_->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(regionLabel_, region_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(propose_, 1);
    buttons->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(chooser_);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(progress_);
    layout->addWidget(progressText_);
    connect(propose_, &QPushButton::clicked, this, &LabelProposeBox::propose);
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (session_)
            session_->cancelProposal();
    });
    connect(chooser_, &ModelChooser::modelChosen, this, &LabelProposeBox::updateState);
    retranslateUi();
    updateState();
}

void LabelProposeBox::setSession(LabelSession* session)
{
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    if (session_) {
        connect(session_, &LabelSession::busyChanged, this, &LabelProposeBox::updateState);
        connect(session_, &LabelSession::progress, this,
                [this](double f, const QString&, double eta) {
                    progress_->setValue(int(std::clamp(f, 0.0, 1.0) * 1000));
                    progressText_->setText(formatEta(eta));
                });
        connect(session_, &LabelSession::proposalApplied, this, [this](quint64 cracks) {
            Q_EMIT statusMessage(tr("The model proposed %1 crack pixels; erase what is wrong and "
                                    "trace what it missed.")
                                     .arg(QLocale().toString(cracks)),
                                 8000);
        });
    }
    updateState();
}

void LabelProposeBox::setProjectSession(ProjectSession* session)
{
    chooser_->setProjectSession(session);
}

bool LabelProposeBox::propose()
{
    if (!session_ || !viewer_)
        return false;
    const AnalyzeModelChoice& m = chooser_->choice();
    if (!m.ok || m.path.isEmpty()) {
        Q_EMIT statusMessage(tr("Choose a model that loads to propose labels."), 5000);
        return false;
    }
    LabelRect r; // empty: the whole image
    if (region_->currentIndex() == 0) {
        const QRect v = viewer_->viewportRect().toAlignedRect().intersected(
            QRect(QPoint(0, 0), viewer_->imageSize()));
        if (v.isEmpty())
            return false;
        r = LabelRect{v.x(), v.y(), v.width(), v.height()};
    }
    if (!session_->propose(m.path, m.threshold, r))
        return false;
    progress_->setValue(0);
    Q_EMIT statusMessage(
        tr("Running %1 on %2…")
            .arg(QFileInfo(m.path).fileName(), QFileInfo(session_->imagePath()).fileName()),
        0);
    return true;
}

void LabelProposeBox::updateState()
{
    const bool busy = session_ && session_->isBusy();
    const bool proposing = busy && !session_->isSaving();
    propose_->setEnabled(session_ && !busy && chooser_->choice().ok);
    cancel_->setVisible(proposing);
    progress_->setVisible(proposing);
    progressText_->setVisible(proposing);
    if (!proposing)
        progressText_->clear();
}

void LabelProposeBox::retranslateUi()
{
    setTitle(tr("Start from the model"));
    chooser_->retranslateUi();
    regionLabel_->setText(tr("Where"));
    {
        const QSignalBlocker block(region_);
        const int i = region_->currentIndex();
        region_->clear();
        region_->addItems({tr("Visible region"), tr("Whole image")});
        region_->setCurrentIndex(std::max(0, i));
    }
    propose_->setText(tr("Propose labels"));
    propose_->setToolTip(tr("Run the model and put its thresholded prediction into the label "
                            "layer as one edit you can undo"));
    cancel_->setText(tr("Cancel"));
}

} // namespace fisura::ui
