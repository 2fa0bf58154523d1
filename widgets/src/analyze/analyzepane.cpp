#include "analyze/analyzepane.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "analyze/advancedoptions.h"
#include "analyze/analyzecontroller.h"
#include "analyze/analyzequeue.h"
#include "analyze/modelchooser.h"
#include "analyze/modelfacts.h"
#include "common/errortext.h"
#include "common/flowlayout.h"
#include "common/preference.h"
#include "common/screenfit.h"
#include "project/projectsession.h"

namespace fisura::ui
{

namespace
{
const Preference<QString> kLastScanDir(QStringLiteral("analyze/lastScanDir"), QString());

QStringList localFiles(const QMimeData* mime)
{
    QStringList out;
    if (mime && mime->hasUrls())
        for (const QUrl& u : mime->urls())
            if (u.isLocalFile())
                out << u.toLocalFile();
    return out;
}
} // namespace

AnalyzePane::AnalyzePane(QWidget* parent)
    : Pane(parent), queue_(new AnalyzeQueueModel(this)),
      controller_(new AnalyzeController(queue_, this))
{
    setObjectName(QStringLiteral("analyzePane"));
    setAcceptDrops(true);
    buildUi();

    connect(chooser_, &ModelChooser::modelChosen, this, &AnalyzePane::onModelChosen);
    connect(advanced_, &AdvancedOptionsWidget::optionsChanged, this,
            [this] { controller_->setOptions(advanced_->options()); });
    connect(addButton_, &QPushButton::clicked, this, &AnalyzePane::chooseScans);
    connect(folderButton_, &QPushButton::clicked, this, &AnalyzePane::chooseFolder);
    connect(removeButton_, &QPushButton::clicked, this, &AnalyzePane::removeSelected);
    connect(runButton_, &QPushButton::clicked, this, &AnalyzePane::run);
    connect(resumeButton_, &QPushButton::clicked, this, &AnalyzePane::run);
    connect(cancelButton_, &QPushButton::clicked, this, &AnalyzePane::cancelSelected);
    connect(cancelAllButton_, &QPushButton::clicked, this, &AnalyzePane::cancelAll);
    connect(openButton_, &QPushButton::clicked, this, &AnalyzePane::openSelectedInInspect);
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { openRow(i.row()); });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &AnalyzePane::updateActions);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(queue_, signal, this, &AnalyzePane::updateActions);
    connect(queue_, &QAbstractItemModel::modelReset, this, &AnalyzePane::updateActions);
    connect(queue_, &QAbstractItemModel::dataChanged, this, &AnalyzePane::updateActions);
    connect(controller_, &AnalyzeController::runningChanged, this, &Pane::busyChanged);
    connect(controller_, &AnalyzeController::runningChanged, this, [this](bool running) {
        if (running)
            restoredWaiting_ = 0;
        updateActions();
    });
    connect(controller_, &AnalyzeController::scanFinished, this, [this](const QString& id) {
        const ScanRow* r = queue_->find(id);
        if (r && r->state == QueueRowState::Done)
            lastDone_ = id;
    });
    connect(controller_, &AnalyzeController::queueFinished, this, &AnalyzePane::onQueueFinished);
    connect(controller_, &AnalyzeController::queueRestored, this, &AnalyzePane::onQueueRestored);
    connect(controller_, &AnalyzeController::modelPrepared, advanced_,
            &AdvancedOptionsWidget::showPreparedPolicy);
    connect(controller_, &AnalyzeController::scanPaced, advanced_,
            &AdvancedOptionsWidget::showScanPace);
    connect(controller_, &AnalyzeController::modelFailed, this, [this](const Status& s) {
        message_->setText(tr("The model could not be prepared: %1").arg(errorMessage(s)));
        message_->show();
    });
    connect(controller_, &AnalyzeController::saveFailed, this, [this](const QString& m) {
        message_->setText(tr("The result could not be recorded in the project: %1").arg(m));
        message_->show();
    });

    retranslateUi();
    controller_->reloadQueue(); // an interrupted queue of the last session
    updateActions();
}

AnalyzePane::~AnalyzePane() = default;

void AnalyzePane::buildUi()
{
    heading_ = new QLabel(this);
    QFont f = heading_->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    heading_->setFont(f);
    chooser_ = new ModelChooser(this);
    advanced_ = new AdvancedOptionsWidget(this);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(heading_);
    leftLayout->addWidget(chooser_);
    leftLayout->addWidget(advanced_);
    leftLayout->addStretch(1);
    // As wide as the model facts and options need in the language shown; scrolls when low.
    QScrollArea* scroll = scrollingPanel(left, this);

    scansHeading_ = new QLabel(this);
    scansHeading_->setFont(f);
    addButton_ = new QPushButton(this);
    addButton_->setObjectName(QStringLiteral("addScansButton"));
    folderButton_ = new QPushButton(this);
    folderButton_->setObjectName(QStringLiteral("addFolderButton"));
    removeButton_ = new QPushButton(this);
    removeButton_->setObjectName(QStringLiteral("removeScansButton"));
    auto* addRow = new FlowLayout; // the buttons go below the heading when the pane is narrow
    addRow->addWidget(scansHeading_);
    addRow->addStretch();
    addRow->addWidget(addButton_);
    addRow->addWidget(folderButton_);
    addRow->addWidget(removeButton_);

    resumeBar_ = new QFrame(this);
    resumeBar_->setObjectName(QStringLiteral("resumeBar"));
    resumeBar_->setFrameShape(QFrame::StyledPanel);
    resumeLabel_ = new QLabel(resumeBar_);
    resumeLabel_->setWordWrap(true);
    resumeButton_ = new QPushButton(resumeBar_);
    resumeButton_->setObjectName(QStringLiteral("resumeButton"));
    auto* resumeLayout = new QHBoxLayout(resumeBar_);
    resumeLayout->addWidget(resumeLabel_, 1);
    resumeLayout->addWidget(resumeButton_);
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("queueMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b00020;"));
    message_->hide();

    table_ = new ScanQueueView(queue_, this);
    table_->setObjectName(QStringLiteral("scanQueue"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    dropHint_ = new QLabel(this);
    dropHint_->setAlignment(Qt::AlignCenter);
    dropHint_->setWordWrap(true);

    runButton_ = new QPushButton(this);
    runButton_->setObjectName(QStringLiteral("runButton"));
    runButton_->setDefault(true);
    runButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    cancelButton_ = new QPushButton(this);
    cancelButton_->setObjectName(QStringLiteral("cancelButton"));
    cancelAllButton_ = new QPushButton(this);
    cancelAllButton_->setObjectName(QStringLiteral("cancelAllButton"));
    openButton_ = new QPushButton(this);
    openButton_->setObjectName(QStringLiteral("openInInspectButton"));
    auto* actions = new FlowLayout;
    actions->addWidget(runButton_);
    actions->addWidget(cancelButton_);
    actions->addWidget(cancelAllButton_);
    actions->addStretch();
    actions->addWidget(openButton_);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->addLayout(addRow);
    rightLayout->addWidget(resumeBar_);
    rightLayout->addWidget(message_);
    rightLayout->addWidget(table_, 1);
    rightLayout->addWidget(dropHint_);
    rightLayout->addLayout(actions);

    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->setObjectName(QStringLiteral("analyzeSplitter"));
    splitter_->addWidget(scroll);
    splitter_->addWidget(right);
    splitter_->setStretchFactor(1, 1);
    splitter_->setCollapsible(0, false);
    // At first the facts sit beside their labels where the window allows; the queue takes the
    // rest, and on a small window the side panel gives way down to its minimum.
    splitter_->setSizes({std::max(scroll->minimumSizeHint().width(), 480), 800});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);
}

QString AnalyzePane::title() const
{
    return tr("Analyze");
}

QIcon AnalyzePane::icon() const
{
    return style()->standardIcon(QStyle::SP_FileDialogContentsView);
}

void AnalyzePane::saveState(QSettings& s) const
{
    s.setValue(QStringLiteral("analyze/splitter"), splitter_->saveState());
    s.setValue(QStringLiteral("analyze/advanced"), advanced_->isExpanded());
}

void AnalyzePane::restoreState(QSettings& s)
{
    splitter_->restoreState(s.value(QStringLiteral("analyze/splitter")).toByteArray());
    advanced_->setExpanded(s.value(QStringLiteral("analyze/advanced"), false).toBool());
}

void AnalyzePane::setProjectSession(ProjectSession* session)
{
    session_ = session;
    chooser_->setProjectSession(session); // the newest finished run of the project
    controller_->setProjectSession(session);
    updateActions();
}

void AnalyzePane::setModelFile(const QString& path)
{
    chooser_->setModelFile(path);
}

bool AnalyzePane::setModelFromRun(const QString& runId)
{
    return chooser_->setModelFromRun(runId);
}

void AnalyzePane::setModelDialog(std::function<QString()> dialog)
{
    chooser_->setModelDialog(std::move(dialog));
}

int AnalyzePane::addScans(const QStringList& paths)
{
    const QStringList ids = controller_->addScans(paths);
    if (ids.isEmpty() && !paths.isEmpty())
        Q_EMIT statusMessage(tr("No scans there: Fisura reads TIFF, PNG and JPEG images."), 5000);
    if (!paths.isEmpty())
        kLastScanDir.setValue(QFileInfo(paths.first()).absolutePath());
    updateActions();
    return int(ids.size());
}

bool AnalyzePane::queueScanOnce(const QString& scan)
{
    const QString path = QFileInfo(scan).absoluteFilePath();
    for (const ScanRow& r : queue_->rows())
        if (r.input == path)
            return false;
    return QFileInfo(path).isFile() && addScans({path}) > 0;
}

QString AnalyzePane::scanDialogFolder() const
{
    const QString last = kLastScanDir.value();
    const auto usable = [](const QString& dir) { return !dir.isEmpty() && QFileInfo(dir).isDir(); };
    if (session_ && session_->hasProject()) {
        const QString project = QString::fromStdString(session_->project().dir());
        const auto inProject = [&](const QString& dir) {
            return usable(dir) && (dir == project || dir.startsWith(project + QLatin1Char('/')));
        };
        if (inProject(last))
            return last;
        QStringList candidates;
        for (int i = queue_->rowCount() - 1; i >= 0; --i)
            candidates << QFileInfo(queue_->at(i).input).absolutePath();
        const auto& scans = session_->project().scans();
        for (auto it = scans.rbegin(); it != scans.rend(); ++it)
            candidates << QFileInfo(QString::fromStdString(it->input)).absolutePath();
        for (const QString& dir : candidates)
            if (inProject(dir))
                return dir;
        return project;
    }
    return usable(last) ? last : QDir::homePath();
}

void AnalyzePane::chooseScans()
{
    const QStringList files =
        scanDialog_ ? scanDialog_()
                    : QFileDialog::getOpenFileNames(
                          this, tr("Add scans"), scanDialogFolder(),
                          tr("Scans (*.tif *.tiff *.png *.jpg *.jpeg);;All files (*)"));
    addScans(files);
}

void AnalyzePane::chooseFolder()
{
    const QString dir = folderDialog_ ? folderDialog_()
                                      : QFileDialog::getExistingDirectory(
                                            this, tr("Add a folder of scans"), scanDialogFolder());
    if (!dir.isEmpty())
        addScans({dir});
}

void AnalyzePane::onModelChosen(const AnalyzeModelChoice& choice)
{
    advanced_->setModel(choice.info);
    controller_->setModel(choice);
    controller_->setOptions(advanced_->options());
    updateActions();
}

bool AnalyzePane::run()
{
    message_->hide();
    controller_->setOptions(advanced_->options());
    const bool started = controller_->start();
    if (!started && !controller_->model().ok) {
        message_->setText(tr("Choose a usable model first."));
        message_->show();
    }
    updateActions();
    return started;
}

void AnalyzePane::cancelSelected()
{
    for (const QString& id : selectedIds())
        controller_->cancel(id);
    updateActions();
}

void AnalyzePane::cancelAll()
{
    controller_->cancelAll();
    updateActions();
}

bool AnalyzePane::isRunning() const
{
    return controller_->isRunning();
}

QString AnalyzePane::runningWork() const
{
    return controller_->isRunning() ? tr("Scans are being analysed.") : QString();
}

void AnalyzePane::stopWork()
{
    // Cancelled scans leave nothing half-written and stay in the queue to resume later.
    controller_->cancelAll();
}

QStringList AnalyzePane::selectedIds() const
{
    QStringList ids;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows())
        ids << queue_->at(i.row()).id;
    return ids;
}

void AnalyzePane::removeSelected()
{
    controller_->removeScans(selectedIds());
}

/// The row "Open in Inspect" opens: the current row when it is done, else the last done.
static int inspectTarget(const AnalyzeQueueModel* queue, int current, const QString& lastDone)
{
    if (current >= 0 && current < queue->rowCount() &&
        queue->at(current).state == QueueRowState::Done)
        return current;
    const int last = queue->indexOf(lastDone);
    if (last >= 0 && queue->at(last).state == QueueRowState::Done)
        return last;
    for (int i = queue->rowCount() - 1; i >= 0; --i)
        if (queue->at(i).state == QueueRowState::Done)
            return i;
    return -1;
}

bool AnalyzePane::openSelectedInInspect()
{
    const int row = inspectTarget(queue_, table_->currentIndex().row(), lastDone_);
    if (row < 0)
        return false;
    openRow(row);
    return true;
}

void AnalyzePane::openRow(int row)
{
    if (row < 0 || row >= queue_->rowCount() || queue_->at(row).state != QueueRowState::Done)
        return;
    const ScanRow& r = queue_->at(row);
    Q_EMIT openInInspect(r.input, r.output, r.threshold);
}

void AnalyzePane::onQueueFinished()
{
    Q_EMIT statusMessage(tr("Analysis finished: %1 done, %2 failed, %3 cancelled.")
                             .arg(queue_->count(QueueRowState::Done))
                             .arg(queue_->count(QueueRowState::Failed))
                             .arg(queue_->count(QueueRowState::Cancelled)),
                         8000);
    updateActions();
    Q_EMIT queueFinished();
}

void AnalyzePane::onQueueRestored(int waiting)
{
    restoredWaiting_ = waiting;
    lastDone_.clear();
    // Resume with the model the queue was made with, when it is still there.
    const QString model = controller_->lastQueueModel();
    const QString run = controller_->lastQueueRun();
    if (waiting > 0 && !model.isEmpty() && model != controller_->model().path) {
        if (run.isEmpty() || !chooser_->setModelFromRun(run))
            if (QFileInfo(model).isFile())
                chooser_->setModelFile(model);
    }
    retranslateUi(); // the resume bar's count
}

void AnalyzePane::updateActions()
{
    const bool running = controller_->isRunning();
    const int waiting = queue_->count(QueueRowState::Waiting);
    const bool modelOk = controller_->model().ok;
    runButton_->setEnabled(!running && waiting > 0 && modelOk);
    resumeButton_->setEnabled(runButton_->isEnabled());
    resumeBar_->setVisible(restoredWaiting_ > 0 && !running && waiting > 0);
    bool cancellable = false, removable = false;
    for (const QString& id : selectedIds()) {
        const QueueRowState s = queue_->find(id)->state;
        cancellable |= s == QueueRowState::Waiting || s == QueueRowState::Running;
        removable |= s != QueueRowState::Running;
    }
    cancelButton_->setEnabled(cancellable);
    removeButton_->setEnabled(removable);
    cancelAllButton_->setEnabled(running || waiting > 0);
    openButton_->setEnabled(inspectTarget(queue_, table_->currentIndex().row(), lastDone_) >= 0);
    dropHint_->setVisible(queue_->rowCount() == 0);
}

void AnalyzePane::retranslateUi()
{
    heading_->setText(tr("Model"));
    scansHeading_->setText(tr("Scans"));
    addButton_->setText(tr("Add scans…"));
    folderButton_->setText(tr("Add folder…"));
    removeButton_->setText(tr("Remove"));
    resumeLabel_->setText(
        tr("The last queue was interrupted: %n scan(s) still wait.", nullptr, restoredWaiting_));
    resumeButton_->setText(tr("Resume queue"));
    dropHint_->setText(tr("Drop scans or folders here (TIFF of any size, PNG, JPEG)."));
    runButton_->setText(tr("Run"));
    runButton_->setToolTip(tr("Analyse the waiting scans one after the other"));
    cancelButton_->setText(tr("Cancel"));
    cancelButton_->setToolTip(tr("Stop the selected scans; the queue goes on with the next"));
    cancelAllButton_->setText(tr("Cancel all"));
    openButton_->setText(tr("Open in Inspect"));
    openButton_->setToolTip(tr("Show the scan with its crack map at the model's threshold"));
    chooser_->retranslateUi();
    advanced_->retranslateUi();
    queue_->retranslate();
}

void AnalyzePane::dragEnterEvent(QDragEnterEvent* e)
{
    if (!localFiles(e->mimeData()).isEmpty())
        e->acceptProposedAction();
}

void AnalyzePane::dropEvent(QDropEvent* e)
{
    const QStringList files = localFiles(e->mimeData());
    if (files.isEmpty())
        return;
    e->acceptProposedAction();
    addScans(files);
}

} // namespace fisura::ui
