#include "label/labelpanel.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "common/errortext.h"
#include "common/screenfit.h"
#include "fisura/labels.h"
#include "label/labelgeojsonbox.h"
#include "label/labelpropose.h"
#include "label/labelsession.h"
#include "label/labelsource.h"
#include "label/labeltool.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

namespace
{
OverlayStyle labelStyle()
{
    OverlayStyle s;
    s.colorMap = ColorMap::Custom;
    s.color = QColor(0, 200, 255);
    s.opacity = 0.55;
    s.threshold = 1;
    return s;
}

QString shortcutText(const QAction* a)
{
    return a->shortcut().toString(QKeySequence::NativeText);
}
} // namespace

LabelPanel::LabelPanel(TiledViewer* viewer, QWidget* parent)
    : QWidget(parent), viewer_(viewer), tool_(new LabelTool(viewer, this)),
      toolbar_(new QWidget(this)), tools_(new QActionGroup(this)), fileLabel_(new QLabel(this)),
      widthLabel_(new QLabel(this)), width_(new QDoubleSpinBox(this)), unit_(new QComboBox(this)),
      brushLabel_(new QLabel(this)), brush_(new QSpinBox(this)), stats_(new QLabel(this)),
      propose_(new LabelProposeBox(viewer, this)), geojson_(new LabelGeoJsonBox(this)),
      queueLabel_(new QLabel(this)), previous_(new QPushButton(this)), next_(new QPushButton(this))
{
    setObjectName(QStringLiteral("labelPanel"));
    buildActions();
    buildLayout();
    connect(tool_, &LabelTool::lineWidthChanged, this, &LabelPanel::showLineWidth);
    connect(tool_, &LabelTool::brushSizeChanged, this, [this](double px) {
        const QSignalBlocker block(brush_);
        brush_->setValue(int(std::lround(px)));
    });
    connect(propose_, &LabelProposeBox::statusMessage, this, &LabelPanel::statusMessage);
    connect(geojson_, &LabelGeoJsonBox::statusMessage, this, &LabelPanel::statusMessage);
    connect(geojson_, &LabelGeoJsonBox::failed, this, &LabelPanel::reportFailure);
    retranslateUi();
    updateState();
}

LabelPanel::~LabelPanel()
{
    if (viewer_ && viewer_->tool() == tool_)
        viewer_->setTool(nullptr);
}

void LabelPanel::buildActions()
{
    toolbar_->setObjectName(QStringLiteral("labelToolBar"));
    auto* toolGrid = new QGridLayout(toolbar_);
    toolGrid->setContentsMargins(0, 0, 0, 0);
    toolGrid->setSpacing(2);
    const char* names[] = {"labelLineAction", "labelBrushAction", "labelEraserAction",
                           "labelFillAction", "labelCrackFreeAction"};
    const Qt::Key keys[] = {Qt::Key_P, Qt::Key_B, Qt::Key_E, Qt::Key_F, Qt::Key_R};
    for (int i = 0; i < 5; ++i) {
        auto* a = new QAction(this);
        a->setObjectName(QString::fromLatin1(names[i]));
        toolGrid->addWidget(narrowTextButton(a, toolbar_), i / 2, i % 2);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(keys[i]));
        a->setData(i);
        tools_->addAction(a);
        toolActions_ << a;
    }
    toolActions_.front()->setChecked(true);
    connect(tools_, &QActionGroup::triggered, this, &LabelPanel::chooseTool);
    wholeCrackFree_ = new QAction(this);
    wholeCrackFree_->setObjectName(QStringLiteral("labelWholeCrackFreeAction"));
    connect(wholeCrackFree_, &QAction::triggered, this, &LabelPanel::markWholeImageCrackFree);
    undoAction_ = new QAction(this);
    undoAction_->setObjectName(QStringLiteral("labelUndoAction"));
    undoAction_->setShortcut(QKeySequence::Undo);
    redoAction_ = new QAction(this);
    redoAction_->setObjectName(QStringLiteral("labelRedoAction"));
    redoAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    saveAction_ = new QAction(this);
    saveAction_->setObjectName(QStringLiteral("labelSaveAction"));
    saveAction_->setShortcut(QKeySequence::Save);
    connect(undoAction_, &QAction::triggered, this, [this] {
        if (session_ && !session_->isBusy())
            session_->undoStack()->undo();
    });
    connect(redoAction_, &QAction::triggered, this, [this] {
        if (session_ && !session_->isBusy())
            session_->undoStack()->redo();
    });
    connect(saveAction_, &QAction::triggered, this, [this] {
        if (session_)
            session_->save();
    });
}

void LabelPanel::buildLayout()
{
    fileLabel_->setObjectName(QStringLiteral("labelFileLabel"));
    fileLabel_->setWordWrap(true);
    stats_->setObjectName(QStringLiteral("labelStats"));
    stats_->setWordWrap(true);
    width_->setObjectName(QStringLiteral("labelLineWidth"));
    width_->setRange(0.01, 500);
    width_->setDecimals(2);
    unit_->setObjectName(QStringLiteral("labelLineUnit"));
    brush_->setObjectName(QStringLiteral("labelBrushSize"));
    brush_->setRange(1, 1000);
    brush_->setValue(int(tool_->brushSize()));
    queueLabel_->setObjectName(QStringLiteral("labelQueueLabel"));
    previous_->setObjectName(QStringLiteral("labelPreviousButton"));
    next_->setObjectName(QStringLiteral("labelNextButton"));
    connect(width_, &QDoubleSpinBox::valueChanged, this, &LabelPanel::applyLineWidth);
    connect(unit_, &QComboBox::currentIndexChanged, this, &LabelPanel::showLineWidth);
    connect(brush_, &QSpinBox::valueChanged, this, [this](int v) { tool_->setBrushSize(v); });
    const auto step = [this](int delta) {
        const int i = queueIndex_ + delta;
        if (i >= 0 && i < queue_.size())
            Q_EMIT queueStepRequested(queue_[i], i);
    };
    connect(previous_, &QPushButton::clicked, this, [step] { step(-1); });
    connect(next_, &QPushButton::clicked, this, [step] { step(+1); });

    auto* edit = new QWidget(this);
    edit->setObjectName(QStringLiteral("labelEditBar"));
    auto* editGrid = new QGridLayout(edit);
    editGrid->setContentsMargins(0, 0, 0, 0);
    editGrid->setSpacing(2);
    editGrid->addWidget(narrowTextButton(undoAction_, edit), 0, 0);
    editGrid->addWidget(narrowTextButton(redoAction_, edit), 0, 1);
    editGrid->addWidget(narrowTextButton(saveAction_, edit), 1, 0, 1, 2);
    editGrid->addWidget(narrowTextButton(wholeCrackFree_, edit), 2, 0, 1, 2);
    auto* form = new QFormLayout;
    auto* w = new QHBoxLayout;
    w->addWidget(width_, 1);
    w->addWidget(unit_);
    form->addRow(widthLabel_, w);
    form->addRow(brushLabel_, brush_);
    auto* nav = new QHBoxLayout;
    nav->addWidget(previous_);
    nav->addWidget(queueLabel_, 1, Qt::AlignCenter);
    nav->addWidget(next_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(fileLabel_);
    layout->addLayout(nav);
    layout->addWidget(toolbar_);
    layout->addLayout(form);
    layout->addWidget(edit);
    layout->addWidget(geojson_);
    layout->addWidget(stats_);
    layout->addWidget(propose_);
}

LabelSession* LabelPanel::session() const
{
    return session_;
}

QList<QAction*> LabelPanel::shortcutActions() const
{
    return toolActions_ + QList<QAction*>{undoAction_, redoAction_, saveAction_};
}

QAction* LabelPanel::toolAction(int kind) const
{
    return toolActions_.value(kind);
}

void LabelPanel::setProjectSession(ProjectSession* session)
{
    propose_->setProjectSession(session);
}

double LabelPanel::pixelSizeMm() const
{
    return session_ ? session_->layer()->pixelSizeXmm() : 0.0;
}

bool LabelPanel::isLabelling() const
{
    return bool(session_);
}

bool LabelPanel::hasUnsavedLabels() const
{
    return session_ && session_->isModified();
}

Status LabelPanel::start()
{
    if (!viewer_ || !viewer_->hasImage())
        return Status(ErrorCode::InvalidArgument, "no image is open");
    if (session_ && session_->imagePath() == viewer_->imagePath())
        return {};
    stop();
    auto s = LabelSession::open(viewer_->imagePath(), this);
    if (!s) {
        reportFailure(labelErrorText(
            tr("Could not open the labels of %1.").arg(QFileInfo(viewer_->imagePath()).fileName()),
            s.status()));
        return s.status();
    }
    session_ = s->release();
    connectSession();
    viewer_->setEditableOverlay(session_->overlaySource(), labelStyle());
    tool_->setSession(session_);
    viewer_->setTool(tool_);
    viewer_->setCursor(Qt::CrossCursor);
    propose_->setSession(session_);
    geojson_->setSession(session_);
    updateState();
    Q_EMIT labellingChanged(true);
    return {};
}

void LabelPanel::stop()
{
    delete detach();
}

LabelSession* LabelPanel::detach()
{
    if (!session_)
        return nullptr;
    tool_->setSession(nullptr);
    propose_->setSession(nullptr);
    geojson_->setSession(nullptr);
    if (viewer_) {
        viewer_->setTool(nullptr);
        viewer_->setEditableOverlay(nullptr);
        viewer_->unsetCursor();
    }
    LabelSession* s = session_;
    session_ = nullptr;
    updateState();
    Q_EMIT labellingChanged(false);
    return s;
}

void LabelPanel::connectSession()
{
    LabelSession* s = session_;
    connect(s, &LabelSession::changed, this, [this, s](const QRect& r) {
        if (viewer_ && s == session_)
            viewer_->editableOverlayChanged(r);
        if (s == session_)
            updateStats();
    });
    connect(s, &LabelSession::modifiedChanged, this, &LabelPanel::updateState);
    connect(s, &LabelSession::busyChanged, this, [this, s] {
        // What the viewer skipped while a save held the layer is drawn now.
        if (viewer_ && s == session_)
            viewer_->update();
        updateState();
        Q_EMIT busyChanged(!runningWork().isEmpty());
    });
    connect(s->undoStack(), &QUndoStack::indexChanged, this, &LabelPanel::updateState);
    connect(s, &LabelSession::failed, this, &LabelPanel::reportFailure);
    connect(s, &LabelSession::progress, this, [this, s](double f) {
        if (s->isSaving())
            Q_EMIT statusMessage(tr("Saving the labels of %1… %2 %")
                                     .arg(QFileInfo(s->imagePath()).fileName(),
                                          QLocale().toString(int(std::lround(f * 100)))),
                                 0);
    });
    connect(s, &LabelSession::saved, this, [this, s](const QString& mask) {
        Q_EMIT statusMessage(
            tr("Saved the labels of %1 to %2.")
                .arg(QFileInfo(s->imagePath()).fileName(), QFileInfo(mask).fileName()),
            5000);
        Q_EMIT saved(s->imagePath(), mask);
        if (closeAfterSave_ && s == session_) {
            closeAfterSave_ = false;
            if (QWidget* w = window())
                w->close();
        }
    });
}

void LabelPanel::saveInBackground(LabelSession* s)
{
    // The labels of the image being left are saved while the next one opens; the session goes
    // once its save is over (a failure is reported with the file's name).
    saving_ << s;
    const auto done = [this, s] {
        saving_.removeAll(s);
        if (s != session_)
            s->deleteLater();
    };
    connect(s, &LabelSession::saved, this, done);
    connect(s, &LabelSession::failed, this, done);
    if (!s->save())
        done();
}

QMessageBox::StandardButton LabelPanel::ask(const QString& file)
{
    if (prompt_)
        return prompt_(file);
    QMessageBox box(QMessageBox::Question, tr("Unsaved labels"),
                    tr("The labels of %1 have changes that are not saved.").arg(file),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedLabelsBox"));
    box.setInformativeText(tr("Save them before going on?"));
    box.button(QMessageBox::Save)->setText(tr("Save"));
    box.button(QMessageBox::Discard)->setText(tr("Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("Cancel"));
    box.setDefaultButton(QMessageBox::Save);
    return QMessageBox::StandardButton(box.exec());
}

bool LabelPanel::confirmLeave()
{
    if (!hasUnsavedLabels())
        return !(session_ && session_->isBusy() && !session_->isSaving());
    switch (ask(QFileInfo(session_->imagePath()).fileName())) {
    case QMessageBox::Save: {
        saveInBackground(detach()); // the next image opens while this one is saved
        return true;
    }
    case QMessageBox::Discard:
        stop();
        return true;
    default:
        return false;
    }
}

bool LabelPanel::confirmClose()
{
    if (!hasUnsavedLabels())
        return true;
    switch (ask(QFileInfo(session_->imagePath()).fileName())) {
    case QMessageBox::Save:
        closeAfterSave_ = session_->save();
        return false;
    case QMessageBox::Discard:
        stop();
        return true;
    default:
        return false;
    }
}

QString LabelPanel::runningWork() const
{
    QStringList files;
    if (session_ && session_->isSaving())
        files << QFileInfo(session_->imagePath()).fileName();
    for (const auto& s : saving_)
        if (s && s->isSaving())
            files << QFileInfo(s->imagePath()).fileName();
    if (files.isEmpty())
        return {};
    return tr("The labels of %1 are being saved.").arg(files.join(QStringLiteral(", ")));
}

void LabelPanel::setQueue(const QStringList& queue, int index)
{
    queue_ = queue;
    queueIndex_ = queue.isEmpty() ? -1 : std::clamp(index, 0, int(queue.size()) - 1);
    updateQueue();
}

void LabelPanel::chooseTool(QAction* a)
{
    tool_->setKind(LabelToolKind(a->data().toInt()));
    updateState();
}

void LabelPanel::applyLineWidth()
{
    if (updatingWidth_)
        return;
    const double mm = pixelSizeMm();
    const bool inMm = unit_->currentIndex() == 1 && mm > 0;
    tool_->setLineWidth(inMm ? width_->value() / mm : width_->value());
}

void LabelPanel::showLineWidth()
{
    const double mm = pixelSizeMm();
    const bool inMm = unit_->currentIndex() == 1 && mm > 0;
    updatingWidth_ = true;
    width_->setSingleStep(inMm ? std::max(0.01, mm) : 0.5);
    width_->setValue(inMm ? tool_->lineWidth() * mm : tool_->lineWidth());
    updatingWidth_ = false;
}

void LabelPanel::markWholeImageCrackFree()
{
    if (!session_ || session_->isBusy())
        return;
    LabelLayer* l = session_->layer();
    session_->apply(l->setRegion(LabelRect{0, 0, l->width(), l->height()}, 0),
                    tr("Whole image crack-free"));
}

void LabelPanel::reportFailure(const QString& message)
{
    Q_EMIT statusMessage(message.section(QLatin1Char('\n'), 0, 0), 0);
    Q_EMIT failed(message);
}

QString LabelPanel::provenanceText(quint64 labelled, quint64 fromProposal, quint64 userAdded,
                                   quint64 proposalErased)
{
    const QLocale l;
    if (labelled == 0 && proposalErased == 0)
        return tr("No crack labelled yet.");
    if (fromProposal == 0 && proposalErased == 0)
        return tr("Label: %1 px, all drawn by you").arg(l.toString(labelled));
    const double total = std::max<quint64>(1, labelled);
    const auto pct = [&](quint64 n) { return l.toString(100.0 * double(n) / total, 'f', 0); };
    return tr("Label: %1 px · %2 % from the model's proposal · %3 % your edits · %4 px of the "
              "proposal erased")
        .arg(l.toString(labelled), pct(fromProposal), pct(userAdded), l.toString(proposalErased));
}

void LabelPanel::updateStats()
{
    if (!session_) {
        stats_->clear();
        return;
    }
    const LabelProvenance p = session_->layer()->provenance();
    stats_->setText(provenanceText(p.labelled, p.fromProposal, p.userAdded, p.proposalErased));
}

void LabelPanel::updateQueue()
{
    const bool has = !queue_.isEmpty();
    queueLabel_->setVisible(has);
    previous_->setVisible(has);
    next_->setVisible(has);
    if (!has)
        return;
    queueLabel_->setText(
        tr("%1 of %2 to label")
            .arg(QLocale().toString(queueIndex_ + 1), QLocale().toString(int(queue_.size()))));
    previous_->setEnabled(queueIndex_ > 0);
    next_->setEnabled(queueIndex_ + 1 < queue_.size());
}

void LabelPanel::updateState()
{
    const bool on = bool(session_);
    const bool idle = on && !session_->isBusy();
    for (QAction* a : toolActions_)
        a->setEnabled(idle);
    wholeCrackFree_->setEnabled(idle);
    undoAction_->setEnabled(idle && session_->undoStack()->canUndo());
    redoAction_->setEnabled(idle && session_->undoStack()->canRedo());
    saveAction_->setEnabled(idle && session_->isModified());
    unit_->setEnabled(on && pixelSizeMm() > 0);
    if (unit_->currentIndex() == 1 && !(pixelSizeMm() > 0)) {
        const QSignalBlocker block(unit_);
        unit_->setCurrentIndex(0);
    }
    const LabelToolKind k = tool_->kind();
    width_->setEnabled(on && k == LabelToolKind::Polyline);
    brush_->setEnabled(on && (k == LabelToolKind::Brush || k == LabelToolKind::Eraser));
    showLineWidth();
    if (!on) {
        fileLabel_->setText(tr("Open an image and choose Label to draw its cracks."));
    } else {
        const QString file = QFileInfo(session_->imagePath()).fileName();
        fileLabel_->setText(session_->isSaving()     ? tr("Saving the labels of %1…").arg(file)
                            : session_->isModified() ? tr("Labels of %1 · not saved").arg(file)
                                                     : tr("Labels of %1 · saved").arg(file));
        if (session_->undoStack()->canUndo())
            undoAction_->setToolTip(
                tr("Undo “%1” (%2)")
                    .arg(session_->undoStack()->undoText(), shortcutText(undoAction_)));
        if (session_->undoStack()->canRedo())
            redoAction_->setToolTip(
                tr("Redo “%1” (%2)")
                    .arg(session_->undoStack()->redoText(), shortcutText(redoAction_)));
    }
    updateStats();
    updateQueue();
}

void LabelPanel::retranslateUi()
{
    const QString texts[] = {tr("Crack line"), tr("Brush"), tr("Eraser"), tr("Fill"),
                             tr("Crack-free area")};
    const QString tips[] = {
        tr("Click along the crack; Enter or a double click finishes, Backspace removes the last "
           "point, Esc cancels, Shift keeps the segment at 0, 45 or 90° (%1)"),
        tr("Paint cracks; [ and ] change the size (%1)"),
        tr("Erase labels; [ and ] change the size (%1)"),
        tr("Fill the closed region around the click (%1)"),
        tr("Drag a rectangle that has no crack: its labels are cleared (%1)")};
    for (int i = 0; i < toolActions_.size(); ++i) {
        toolActions_[i]->setText(texts[i]);
        toolActions_[i]->setToolTip(tips[i].arg(shortcutText(toolActions_[i])));
    }
    wholeCrackFree_->setText(tr("Whole image crack-free"));
    wholeCrackFree_->setToolTip(tr("Clear every label: the image shows no crack"));
    undoAction_->setText(tr("Undo"));
    undoAction_->setToolTip(tr("Undo the last edit (%1)").arg(shortcutText(undoAction_)));
    redoAction_->setText(tr("Redo"));
    redoAction_->setToolTip(tr("Redo the edit undone last (%1)").arg(shortcutText(redoAction_)));
    saveAction_->setText(tr("Save labels"));
    saveAction_->setToolTip(
        tr("Save the mask beside the image (%1)").arg(shortcutText(saveAction_)));
    widthLabel_->setText(tr("Line width"));
    brushLabel_->setText(tr("Brush size (px)"));
    {
        const QSignalBlocker block(unit_);
        const int i = unit_->currentIndex();
        unit_->clear();
        unit_->addItems({tr("px"), tr("mm")});
        unit_->setCurrentIndex(std::max(0, i));
    }
    previous_->setText(tr("Previous"));
    previous_->setToolTip(tr("Label the previous image of the list"));
    next_->setText(tr("Next"));
    next_->setToolTip(tr("Label the next image of the list"));
    propose_->retranslateUi();
    geojson_->retranslateUi();
    updateState();
}

} // namespace fisura::ui
