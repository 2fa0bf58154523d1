#include "train/trainpane.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "common/errortext.h"
#include "common/flowlayout.h"
#include "common/integertext.h"
#include "common/jobrunner.h"
#include "common/screenfit.h"
#include "common/wrappedlabel.h"
#include "fisura/evaluate.h"
#include "project/projectsession.h"
#include "train/datasetpicker.h"
#include "train/policypreview.h"
#include "train/resultsview.h"
#include "train/runevaluator.h"
#include "train/runslist.h"
#include "train/traincontroller.h"
#include "train/trainlog.h"
#include "train/trainplot.h"
#include "train/trainsetup.h"

namespace fisura::ui
{

TrainPane::TrainPane(QWidget* parent)
    : Pane(parent), machineJob_(new JobRunner(this)), heading_(new QLabel(this)),
      setup_(new TrainSetupPanel(this)), preview_(new PolicyPreview(this)),
      start_(new QPushButton(this)), pause_(new QPushButton(this)), resume_(new QPushButton(this)),
      cancel_(new QPushButton(this)), message_(new QLabel(this)), counters_(new WrappedLabel(this)),
      progress_(new QProgressBar(this)), tabs_(new QTabWidget(this)), plot_(new TrainPlot(this)),
      log_(new TrainLog(this)), results_(new TrainResultsView(this)),
      analyze_(new QPushButton(this)), labelNext_(new QPushButton(this)),
      runsHeading_(new QLabel(this)), runs_(new RunsList(this)),
      controller_(new TrainController(this)), evaluator_(new RunEvaluator(this)),
      telemetryTimer_(new QTimer(this))
{
    start_->setObjectName(QStringLiteral("startButton"));
    pause_->setObjectName(QStringLiteral("pauseButton"));
    resume_->setObjectName(QStringLiteral("resumeButton"));
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    message_->setObjectName(QStringLiteral("trainMessage"));
    counters_->setObjectName(QStringLiteral("trainCounters"));
    progress_->setObjectName(QStringLiteral("trainProgress"));
    analyze_->setObjectName(QStringLiteral("analyzeButton"));
    labelNext_->setObjectName(QStringLiteral("labelNextButton"));
    start_->setDefault(true);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    counters_->setWordWrap(true);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    QFont f = heading_->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    heading_->setFont(f);
    runsHeading_->setFont(f);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("trainSplitter"));
    split->addWidget(buildLeft());
    split->addWidget(buildRight());
    split->setStretchFactor(1, 3);
    split->setCollapsible(0, false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connectParts();
    connectController();
    queryMachineInBackground();
    retranslateUi();
    refreshProject();
}

TrainPane::~TrainPane()
{
    // A running job is cancelled and recorded now, while this pane is whole; its last events
    // must not reach slots of a pane that is being taken apart.
    disconnect(controller_, nullptr, nullptr, nullptr);
    controller_->cancelAndWait();
}

QWidget* TrainPane::buildLeft()
{
    auto* inner = new QWidget(this);
    auto* buttons = new FlowLayout; // wraps in a narrow panel (long Spanish texts)
    for (QPushButton* b : {start_, pause_, resume_, cancel_})
        buttons->addWidget(b);
    auto* layout = new QVBoxLayout(inner);
    layout->addWidget(heading_);
    layout->addWidget(setup_);
    layout->addWidget(preview_, 1);
    layout->addLayout(buttons);
    layout->addWidget(message_);
    // As wide as its fields need in the language shown, scrolling when the window is low.
    return scrollingPanel(inner, this);
}

QWidget* TrainPane::buildRight()
{
    auto* live = new QWidget(this);
    auto* liveLayout = new QVBoxLayout(live);
    liveLayout->setContentsMargins(0, 0, 0, 0);
    liveLayout->addWidget(counters_);
    liveLayout->addWidget(progress_);
    auto* curves = new QSplitter(Qt::Vertical, live);
    curves->setObjectName(QStringLiteral("trainCurvesSplitter"));
    curves->addWidget(plot_);
    curves->addWidget(log_);
    curves->setStretchFactor(0, 4);
    liveLayout->addWidget(curves, 1);

    auto* resultsPage = new QWidget(this);
    auto* resultsLayout = new QVBoxLayout(resultsPage);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    // Metrics, charts and the gallery need more height than a 720-line screen leaves: they scroll.
    resultsLayout->addWidget(scrollingPanel(results_, resultsPage), 1);
    auto* resultButtons = new FlowLayout; // right-aligned, one under the other when narrow
    resultButtons->addStretch();
    resultButtons->addWidget(labelNext_);
    resultButtons->addWidget(analyze_);
    resultsLayout->addLayout(resultButtons);
    tabs_->setObjectName(QStringLiteral("trainTabs"));
    showWholeTabs(tabs_);
    tabs_->addTab(live, QString());
    tabs_->addTab(resultsPage, QString());

    auto* runsPage = new QWidget(this);
    auto* runsLayout = new QVBoxLayout(runsPage);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->addWidget(runsHeading_);
    runsLayout->addWidget(runs_);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("trainRunsSplitter"));
    split->addWidget(tabs_);
    split->addWidget(runsPage);
    split->setStretchFactor(0, 3);
    return split;
}

void TrainPane::connectParts()
{
    connect(start_, &QPushButton::clicked, this, &TrainPane::startTraining);
    connect(pause_, &QPushButton::clicked, this, &TrainPane::pauseTraining);
    connect(resume_, &QPushButton::clicked, this, &TrainPane::resumeTraining);
    connect(cancel_, &QPushButton::clicked, this, &TrainPane::cancelTraining);
    connect(analyze_, &QPushButton::clicked, this, [this] {
        if (const ProjectRun* r = findRun(shownRun_))
            Q_EMIT analyzeWithModel(QString::fromStdString(r->modelPath));
    });
    connect(labelNext_, &QPushButton::clicked, this, &TrainPane::requestImagesToLabel);
    connect(setup_, &TrainSetupPanel::changed, this, &TrainPane::refreshPolicy);
    connect(setup_, &TrainSetupPanel::taskChanged, this, [this](TaskKind task) {
        setup_->datasetPicker()->rescan(task); // counts and problems depend on the task
    });
    connect(setup_->datasetPicker(), &DatasetPicker::datasetChanged, this,
            &TrainPane::onDatasetChanged);
    connect(setup_->datasetPicker(), &DatasetPicker::folderChosen, this,
            &TrainPane::onFolderChosen);
    connect(setup_->datasetPicker(), &DatasetPicker::scanned, this, &TrainPane::updateButtons);
    connect(runs_, &RunsList::selectionChanged, this, &TrainPane::onRunsSelected);
    connect(results_, &TrainResultsView::thresholdChosen, this, &TrainPane::onThresholdChosen);
    connect(evaluator_, &RunEvaluator::reportReady, this,
            [this](const QString& id, const EvaluationReport& report) {
                if (id != shownRun_)
                    return;
                results_->setReport(report);
                Q_EMIT resultsShown(id);
            });
    connect(evaluator_, &RunEvaluator::failed, this, [this](const QString& id, const Status& s) {
        if (id != shownRun_)
            return;
        results_->setBusy(tr("The model could not be evaluated: %1").arg(errorMessage(s)));
        Q_EMIT resultsShown(id);
    });
    connect(telemetryTimer_, &QTimer::timeout, this, &TrainPane::pollTelemetry);
    telemetryTimer_->setInterval(1000);
}

void TrainPane::queryMachineInBackground()
{
    preview_->setDetecting();
    auto machine = std::make_shared<MachineInfo>();
    machineJob_->start([machine](const CancelToken&, ProgressSink*) {
        *machine = queryMachine(); // CUDA initialisation can take seconds: off the GUI thread
        return Status::ok();
    });
    connect(
        machineJob_, &JobRunner::finished, this,
        [this, machine](const Status&) {
            if (!haveMachine_)
                setMachine(*machine);
        },
        Qt::SingleShotConnection);
}

void TrainPane::connectController()
{
    connect(controller_, &TrainController::phaseChanged, this, &TrainPane::updateButtons);
    connect(controller_, &TrainController::phaseChanged, this, &TrainPane::showCounters);
    connect(controller_, &TrainController::phaseChanged, this,
            [this] { Q_EMIT busyChanged(controller_->isRunning()); });
    connect(controller_, &TrainController::runStarted, this, &TrainPane::onRunStarted);
    connect(controller_, &TrainController::trainStarted, this, [this](const TrainStarted& s) {
        preview_->setPolicy(s.policy, setup_->options().batchSize <= 0, true);
        log_->addLine([s] {
            const QLocale loc;
            return tr("%1 training and %2 validation images, %3 batches per epoch, %4 "
                      "parameters.")
                .arg(loc.toString(s.trainItems), loc.toString(s.valItems),
                     loc.toString(s.batchesPerEpoch), integerText(qint64(s.parameters), loc));
        });
    });
    connect(controller_, &TrainController::batchDone, this, &TrainPane::onBatch);
    connect(controller_, &TrainController::epochDone, this, &TrainPane::onEpoch);
    connect(controller_, &TrainController::notice, log_, &TrainLog::addNotice);
    connect(controller_, &TrainController::finished, this, &TrainPane::onFinished);
}

QString TrainPane::title() const
{
    return tr("Train");
}

QIcon TrainPane::icon() const
{
    return style()->standardIcon(QStyle::SP_MediaPlay);
}

void TrainPane::retranslateUi()
{
    heading_->setText(tr("Train a model"));
    start_->setText(tr("Start"));
    start_->setToolTip(tr("Train a new model with these settings"));
    pause_->setText(controller_->phase() == TrainController::Phase::Pausing ? tr("Pausing…")
                                                                            : tr("Pause"));
    pause_->setToolTip(tr("Finish the current epoch, keep its checkpoint and stop"));
    resume_->setText(tr("Resume"));
    resume_->setToolTip(tr("Continue the selected paused or cancelled run from its checkpoint"));
    cancel_->setText(tr("Cancel"));
    analyze_->setText(tr("Analyze scans with this model"));
    labelNext_->setText(tr("Choose images to label next"));
    labelNext_->setToolTip(tr("Rank the unlabelled images of this dataset by how unsure this "
                              "model is about them (Data pane)"));
    runsHeading_->setText(tr("Runs"));
    tabs_->setTabText(0, tr("Curves"));
    tabs_->setTabText(1, tr("Results"));
    setup_->retranslateUi();
    preview_->retranslateUi();
    runs_->retranslateUi();
    const QString idle = tr("Curves appear here while a model trains.");
    if (!controller_->isRunning() &&
        (counters_->text().isEmpty() || counters_->text() == idleText_))
        counters_->setText(idle);
    idleText_ = idle;
    if (const ProjectRun* r = findRun(statusRun_); r && !controller_->isRunning())
        showRunStatus(*r, false);
    showCounters();
    updateButtons();
}

void TrainPane::setProjectSession(ProjectSession* session)
{
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    controller_->setProjectSession(session);
    if (session) {
        connect(session, &ProjectSession::projectChanged, this, [this] {
            refreshProject();
            showNewestRun();
        });
        connect(session, &ProjectSession::contentChanged, this, &TrainPane::refreshProject);
    }
    refreshProject();
}

void TrainPane::setTelemetrySource(TelemetrySource source)
{
    telemetry_ = std::move(source);
}

void TrainPane::setMachine(const MachineInfo& machine)
{
    machine_ = machine;
    haveMachine_ = true;
    // GPUs train together over NCCL: without it in this build the box stays hidden, as with one.
    const bool nccl = machine.distributedBackends.find("nccl") != std::string::npos;
    setup_->setGpuCount(machine.cudaUsable && nccl ? int(machine.gpus.size()) : 0);
    refreshPolicy();
}

bool TrainPane::isTraining() const
{
    return controller_->isRunning();
}

QString TrainPane::message() const
{
    return message_->text();
}

const ProjectRun* TrainPane::findRun(const QString& id) const
{
    if (!session_ || !session_->hasProject() || id.isEmpty())
        return nullptr;
    return session_->project().findRun(id.toStdString());
}

void TrainPane::refreshProject()
{
    const bool open = session_ && session_->hasProject();
    setup_->datasetPicker()->setDatasets(open ? session_->project().datasets()
                                              : std::vector<ProjectDataset>{});
    runs_->setRuns(open ? session_->project().runs() : std::vector<ProjectRun>{},
                   open ? session_->project().datasets() : std::vector<ProjectDataset>{});
    setup_->setProjectRuns(open ? session_->project().runs() : std::vector<ProjectRun>{});
    if (!open) {
        plot_->clear();
        results_->clear();
        shownRun_.clear();
    }
    updateButtons();
}

void TrainPane::showNewestRun()
{
    // A project just opened: show its newest run's curves and results, as it was left.
    if (!session_ || !session_->hasProject() || controller_->isRunning())
        return;
    const auto& runs = session_->project().runs();
    if (!runs.empty())
        runs_->select({QString::fromStdString(runs.back().id)});
}

void TrainPane::onDatasetChanged()
{
    DatasetPicker* picker = setup_->datasetPicker();
    if (picker->hasDataset()) {
        setup_->setTask(picker->datasetTask()); // the task the dataset was added for
        picker->rescan(setup_->task());
    }
    refreshPolicy();
    updateButtons();
}

void TrainPane::onFolderChosen(const QString& dir, TaskKind task)
{
    if (!session_ || !session_->hasProject()) {
        showMessage(tr("Open or create a project first (File menu); datasets belong to a "
                       "project."),
                    true);
        return;
    }
    std::string id;
    const Status s = session_->update(
        [&](Project& p) { id = p.addDataset(QDir::cleanPath(dir).toStdString(), task); });
    if (!s) {
        showMessage(tr("The dataset could not be added: %1").arg(errorMessage(s)), true);
        return;
    }
    setup_->datasetPicker()->selectDataset(QString::fromStdString(id));
}

void TrainPane::refreshPolicy()
{
    if (controller_->isRunning())
        return; // the running job's own policy is shown
    if (!haveMachine_) {
        preview_->setDetecting();
        return;
    }
    const PolicyRequest request = setup_->policyRequest();
    ExecutionPolicy policy = choosePolicy(machine_, request);
    if (policy.useCuda && setup_->ranks() >= 2) {
        const std::string n = std::to_string(setup_->ranks());
        policy.choices.push_back(
            {"data_parallel", n, n + " GPUs train together, one process each", "dp_processes", n});
    }
    preview_->setPolicy(policy, request.batchSize <= 0, false);
    setup_->setPolicyBatch(policy.batchSize);
}

void TrainPane::updateButtons()
{
    const auto phase = controller_->phase();
    const bool idle = phase == TrainController::Phase::Idle;
    const bool open = session_ && session_->hasProject();
    start_->setEnabled(idle && open && setup_->datasetPicker()->hasDataset());
    pause_->setEnabled(phase == TrainController::Phase::Running);
    pause_->setText(phase == TrainController::Phase::Pausing ? tr("Pausing…") : tr("Pause"));
    const QStringList sel = runs_->selectedIds();
    const ProjectRun* r = sel.size() == 1 ? findRun(sel.front()) : nullptr;
    // A paused run can be ended too (the button was disabled there, with no reason).
    const bool pausedRun = idle && r && r->state == RunState::Paused;
    cancel_->setEnabled(phase == TrainController::Phase::Running ||
                        phase == TrainController::Phase::Pausing || pausedRun);
    cancel_->setToolTip(pausedRun ? tr("End this paused run: it is marked cancelled; its "
                                       "checkpoint and best model are kept")
                                  : tr("Stop now; the best model so far is kept"));
    resume_->setEnabled(idle && r && TrainController::canResume(*r));
    setup_->setEnabled(idle);
    const ProjectRun* shown = findRun(shownRun_);
    analyze_->setEnabled(shown && hasModel(*shown));
    labelNext_->setVisible(shown && shown->task == TaskKind::Segment && hasModel(*shown));
    // Hints about what is missing; cleared once it is there (a project opened later).
    const QString noProject = tr("Open or create a project (File menu) to train a model.");
    const QString noDataset = tr("Add a dataset: a folder of images, with masks for segmentation.");
    if (!open && idle)
        showMessage(noProject);
    else if (open && idle && !setup_->datasetPicker()->hasDataset())
        showMessage(noDataset);
    else if (message_->text() == noProject || message_->text() == noDataset)
        showMessage(QString());
}

void TrainPane::showMessage(const QString& text, bool error)
{
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    messageIsError_ = error && !text.isEmpty();
}

bool TrainPane::startTraining()
{
    if (controller_->isRunning())
        return false;
    if (!session_ || !session_->hasProject()) {
        showMessage(tr("Open or create a project (File menu) to train a model."), true);
        return false;
    }
    DatasetPicker* picker = setup_->datasetPicker();
    if (!picker->hasDataset()) {
        showMessage(tr("Add a dataset: a folder of images, with masks for segmentation."), true);
        return false;
    }
    const TrainOptions options = setup_->options();
    if (!QFileInfo(QString::fromStdString(options.dataDir)).isDir()) {
        const Status missing(ErrorCode::NotFound, options.dataDir);
        showMessage(tr("Training cannot start: %1\n%2")
                        .arg(errorMessage(missing), TrainLog::failureHint(missing.code())),
                    true);
        return false;
    }
    controller_->setRanks(setup_->ranks());
    const Status s = controller_->start(options, picker->datasetId());
    if (!s) {
        showMessage(tr("Training cannot start: %1\n%2")
                        .arg(errorMessage(s), TrainLog::failureHint(s.code())),
                    true);
        return false;
    }
    return true;
}

void TrainPane::pauseTraining()
{
    controller_->pause();
    if (controller_->phase() == TrainController::Phase::Pausing)
        showMessage(tr("Pausing after this epoch…"));
}

void TrainPane::saveState(QSettings& s) const
{
    const TrainOptions o = setup_->options();
    s.setValue(QStringLiteral("train/width"), o.model.width);
    s.setValue(QStringLiteral("train/depth"), o.model.depth);
    s.setValue(QStringLiteral("train/epochs"), o.epochs);
    saveSplitters(s, this, QStringLiteral("train/splitters"));
}

void TrainPane::restoreState(QSettings& s)
{
    if (s.contains(QStringLiteral("train/width")))
        setup_->setModelShape(s.value(QStringLiteral("train/width")).toInt(),
                              s.value(QStringLiteral("train/depth")).toInt());
    if (s.contains(QStringLiteral("train/epochs")))
        setup_->setEpochs(s.value(QStringLiteral("train/epochs")).toInt());
    restoreSplitters(s, this, QStringLiteral("train/splitters"));
}

QString TrainPane::runningWork() const
{
    return controller_->isRunning() ? tr("A model is training.") : QString();
}

void TrainPane::stopWork()
{
    controller_->cancel();
}

void TrainPane::onRunStarted(const QString& runId, bool resumed)
{
    const ProjectRun* run = findRun(runId);
    liveTask_ = run ? run->task : setup_->task();
    liveEpochs_ = 0;
    if (run)
        if (auto o = trainOptionsFromJson(run->optionsJson))
            liveEpochs_ = o->epochs;
    std::vector<EpochMetrics> earlier;
    double offset = 0;
    if (resumed && run) {
        earlier = run->history;
        for (const EpochMetrics& m : earlier)
            offset += m.seconds;
    }
    plot_->beginLive(liveTask_, offset, earlier);
    log_->clear();
    log_->addLine(
        [resumed] { return resumed ? tr("Resuming the run.") : tr("Starting a new run."); });
    evaluator_->cancel();
    shownRun_ = runId;
    results_->clear();
    results_->setBusy(tr("Results appear when training ends."));
    runs_->setActiveRun(runId);
    runs_->select({runId}, false);
    tabs_->setCurrentIndex(0);
    progress_->setValue(0);
    haveBatch_ = false;
    statusRun_.clear();
    counters_->setText(tr("Preparing the data and the model…"));
    showMessage(resumed ? tr("Resumed.") : tr("Training…"));
    telemetryTimer_->start();
    updateButtons();
}

void TrainPane::onBatch(const BatchProgress& b)
{
    plot_->addBatch(b);
    lastBatch_ = b;
    haveBatch_ = true;
    showCounters();
    const double done =
        b.epochs > 0 && b.batches > 0
            ? (double(b.epoch) + double(b.batch) / double(b.batches)) / double(b.epochs)
            : 0.0;
    progress_->setValue(int(std::clamp(done, 0.0, 1.0) * 1000));
}

void TrainPane::onEpoch(const EpochMetrics& m)
{
    plot_->addEpoch(m);
    log_->addEpoch(liveTask_, m, liveEpochs_);
}

void TrainPane::onFinished(const QString& runId, const Status& status)
{
    runs_->setActiveRun(QString());
    haveBatch_ = false; // the last batch's line (and its ETA) is over
    pollTelemetry();
    telemetryTimer_->stop();
    plot_->endLive();
    const ProjectRun* run = findRun(runId);
    const QLocale loc;
    if (!status) {
        showMessage(tr("Training failed: %1\n%2")
                        .arg(errorMessage(status), TrainLog::failureHint(status.code())),
                    true);
        log_->addLine([status] { return tr("Training failed: %1").arg(errorMessage(status)); });
    } else if (run && run->state == RunState::Paused) {
        showMessage(tr("Paused after epoch %1. Resume continues from the checkpoint.")
                        .arg(loc.toString(int(run->history.size()))));
    } else if (run && run->state == RunState::Cancelled) {
        showMessage(tr("Cancelled. The best model so far is kept; Resume continues from the last "
                       "completed epoch."));
    } else if (run) {
        showMessage(
            tr("Training finished: best score %1 at epoch %2.")
                .arg(loc.toString(run->bestScore, 'f', 3), loc.toString(run->bestEpoch + 1)));
    }
    if (run)
        showRunStatus(*run, false); // the live log stays, with its clock times
    else
        counters_->clear();
    updateButtons();
    if (run && hasModel(*run))
        evaluateRun(runId);
    if (run && run->state == RunState::Finished)
        tabs_->setCurrentIndex(1); // the results of a finished run come first
    else
        results_->setBusy(tr("This run has no model yet."));
    Q_EMIT runFinished(runId);
}

void TrainPane::pollTelemetry()
{
    if (!telemetry_ || !plot_->isLive())
        return;
    plot_->setTelemetry(telemetry_(plot_->now() + 5.0));
}

} // namespace fisura::ui
