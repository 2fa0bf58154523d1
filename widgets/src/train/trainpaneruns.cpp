// The Train pane's runs side: what selecting runs shows (one run's curves and results, several
// runs overlaid), the status line of a run, the background evaluation of a run and the threshold
// the user chooses.
#include "train/trainpane.h"

#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTabWidget>

#include <filesystem>

#include "common/errortext.h"
#include "fisura/evaluate.h"
#include "project/projectsession.h"
#include "project/runname.h"
#include "train/resultsview.h"
#include "train/runevaluator.h"
#include "train/runslist.h"
#include "train/traincontroller.h"
#include "train/trainlog.h"
#include "train/trainplot.h"
#include "train/trainsetup.h"
#include "train/trainstatus.h"

namespace fisura::ui
{

bool TrainPane::hasModel(const ProjectRun& run)
{
    std::error_code ec;
    return !run.modelPath.empty() && std::filesystem::is_regular_file(run.modelPath, ec);
}

void TrainPane::onRunsSelected(const QStringList& ids)
{
    updateButtons();
    if (ids.isEmpty() || (controller_->isRunning() && ids == QStringList{controller_->runId()}))
        return; // the live curves stay
    if (controller_->isRunning())
        return; // keep the live view while a job runs; selection only picks runs to resume
    std::vector<TrainPlot::RunCurves> curves;
    for (const QString& id : ids)
        if (const ProjectRun* r = findRun(id))
            curves.push_back({RunName::of(session_->project().runs(), *r), r->task, r->history});
    plot_->showRuns(curves);
    // What the status line, the bar and the log show is the selection's, never a run that ended
    // before (a cancelled run's half-full bar beside a finished run's curves).
    statusRun_.clear();
    counters_->clear();
    progress_->setValue(0);
    log_->clear();
    if (!messageIsError_)
        showMessage(QString()); // "Training finished…" was about another run
    if (ids.size() > 1)
        counters_->setText(tr("%n run(s) compared, one colour each.", nullptr, int(ids.size())));
    else if (const ProjectRun* r = findRun(ids.front()))
        showRunStatus(*r, true);
    if (const ProjectRun* r = ids.size() == 1 ? findRun(ids.front()) : nullptr;
        r && r->state == RunState::Failed) {
        ErrorCode code = ErrorCode::Internal; // the record keeps the code's stable name
        for (int c = int(ErrorCode::Ok); c <= int(ErrorCode::Internal); ++c)
            if (r->errorCode == errorCodeName(ErrorCode(c)))
                code = ErrorCode(c);
        statusRun_.clear(); // the failure and what to do, not the summary
        counters_->setText(
            tr("This run failed: %1\n%2")
                .arg(errorMessage(Status(code, r->errorDetail)), TrainLog::failureHint(code)));
    }
    if (ids.size() == 1) {
        evaluateRun(ids.front());
    } else {
        evaluator_->cancel();
        shownRun_.clear();
        results_->clear();
        results_->setBusy(tr("Select one run to see its results."));
    }
    updateButtons();
}

void TrainPane::showCounters()
{
    if (!haveBatch_ || !controller_->isRunning())
        return;
    using Live = TrainStatus::Live;
    const auto phase = controller_->phase();
    const Live live = phase == TrainController::Phase::Pausing      ? Live::Pausing
                      : phase == TrainController::Phase::Cancelling ? Live::Cancelling
                                                                    : Live::Running;
    counters_->setText(TrainStatus::batchLine(lastBatch_, live));
}

void TrainPane::showRunStatus(const ProjectRun& run, bool withLog)
{
    statusRun_ = QString::fromStdString(run.id);
    counters_->setText(TrainStatus::runSummary(run));
    progress_->setValue(int(TrainStatus::completed(run) * 1000));
    if (withLog)
        log_->showRun(run, TrainStatus::plannedEpochs(run));
}

void TrainPane::cancelTraining()
{
    if (controller_->isRunning()) {
        controller_->cancel();
        return;
    }
    const QStringList sel = runs_->selectedIds();
    if (sel.size() == 1)
        cancelPausedRun(sel.front());
}

void TrainPane::cancelPausedRun(const QString& runId)
{
    const ProjectRun* run = findRun(runId);
    if (!run || run->state != RunState::Paused)
        return;
    const std::string id = run->id;
    const Status s = session_->update([&](Project& p) {
        if (ProjectRun* r = p.findRun(id)) {
            r->state = RunState::Cancelled;
            if (r->endedAt.empty())
                r->endedAt = utcNowIso();
        }
    });
    if (!s) {
        showMessage(tr("The run could not be cancelled: %1").arg(errorMessage(s)), true);
        return;
    }
    showMessage(tr("Cancelled. The best model so far is kept; Resume continues from the last "
                   "completed epoch."));
    if (const ProjectRun* r = findRun(runId))
        showRunStatus(*r, false);
    updateButtons();
}

void TrainPane::evaluateRun(const QString& runId)
{
    const ProjectRun* run = findRun(runId);
    shownRun_ = runId;
    if (!run)
        return;
    results_->clear();
    results_->setRun(*run);
    if (!hasModel(*run)) {
        results_->setBusy(tr("This run has no model yet."));
        Q_EMIT resultsShown(runId);
        return;
    }
    results_->setBusy(tr("Evaluating the model on the validation images…"));
    evaluator_->evaluate(*run);
}

void TrainPane::requestImagesToLabel()
{
    if (const ProjectRun* r = findRun(shownRun_); r && r->task == TaskKind::Segment)
        Q_EMIT chooseImagesToLabel(shownRun_, QString::fromStdString(r->modelPath),
                                   QString::fromStdString(r->datasetPath));
}

void TrainPane::onThresholdChosen(double threshold)
{
    const ProjectRun* run = findRun(shownRun_);
    if (!run || !session_)
        return;
    const Status s = setModelThreshold(run->modelPath, threshold);
    if (!s) {
        showMessage(tr("The threshold could not be saved: %1").arg(errorMessage(s)), true);
        return;
    }
    const std::string id = run->id;
    session_->update([&](Project& p) {
        if (ProjectRun* r = p.findRun(id))
            r->threshold = threshold;
    });
    Q_EMIT statusMessage(
        tr("The model now uses the threshold %1.").arg(QLocale().toString(threshold, 'f', 2)),
        5000);
}

bool TrainPane::resumeTraining()
{
    const QStringList sel = runs_->selectedIds();
    if (sel.size() != 1 || controller_->isRunning())
        return false;
    controller_->setRanks(setup_->ranks());
    const Status s = controller_->resume(sel.front());
    if (!s) {
        showMessage(tr("The run cannot be resumed: %1\n%2")
                        .arg(errorMessage(s), TrainLog::failureHint(s.code())),
                    true);
        return false;
    }
    return true;
}

} // namespace fisura::ui
