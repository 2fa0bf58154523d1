#include "train/runevaluator.h"

#include "common/jobrunner.h"

namespace fisura::ui
{

RunEvaluator::RunEvaluator(QObject* parent) : QObject(parent), job_(new JobRunner(this))
{
    qRegisterMetaType<fisura::EvaluationReport>();
}

bool RunEvaluator::isBusy() const
{
    return job_->isRunning() || pending_;
}

void RunEvaluator::evaluate(const ProjectRun& run)
{
    runId_ = QString::fromStdString(run.id);
    model_ = run.modelPath;
    data_ = run.datasetPath;
    split_.clear();
    if (auto o = trainOptionsFromJson(run.optionsJson))
        split_ = o->splitPath;
    ++generation_;
    pending_ = true;
    if (job_->isRunning()) {
        job_->cancel(); // launch() follows when it has stopped
        return;
    }
    launch();
}

void RunEvaluator::cancel()
{
    ++generation_;
    pending_ = false;
    job_->cancel();
}

void RunEvaluator::launch()
{
    pending_ = false;
    const std::string model = model_, data = data_, split = split_;
    const uint64_t generation = generation_;
    const QString id = runId_;
    job_->start<EvaluationReport>(
        [model, data, split](const CancelToken& cancel, ProgressSink* progress) {
            EvaluateOptions o;
            o.splitPath = split;
            o.maxItems = 1000; // enough for the curves; keeps a click on a big run responsive
            return evaluateModel(model, data, o, cancel, progress);
        },
        [this, generation, id](Result<EvaluationReport> report) {
            if (pending_) {
                launch();
                return;
            }
            if (generation != generation_)
                return;
            if (report)
                Q_EMIT reportReady(id, *report);
            else
                Q_EMIT failed(id, report.status());
        });
}

} // namespace fisura::ui
