#include "train/trainstatus.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

#include "common/errortext.h"
#include "train/trainplot.h"

namespace fisura::ui
{

QString TrainStatus::batchLine(const BatchProgress& b, Live live)
{
    const QLocale loc;
    QString text =
        tr("Epoch %1 of %2 · batch %3 of %4 · %5 images/s")
            .arg(loc.toString(b.epoch + 1), loc.toString(b.epochs), loc.toString(b.batch),
                 loc.toString(b.batches), loc.toString(b.imagesPerSecond, 'f', 1));
    QString tail;
    switch (live) {
    case Live::Running:
        tail = formatEta(b.etaSeconds); // the whole job's: wrong once it stops early
        break;
    case Live::Pausing:
        tail = tr("pausing after this epoch");
        break;
    case Live::Cancelling:
        tail = tr("cancelling…");
        break;
    }
    if (!tail.isEmpty())
        text += QStringLiteral(" · ") + tail;
    return text;
}

int TrainStatus::plannedEpochs(const ProjectRun& run)
{
    auto o = trainOptionsFromJson(run.optionsJson);
    return o ? o->epochs : 0;
}

double TrainStatus::completed(const ProjectRun& run)
{
    if (run.state == RunState::Finished)
        return 1.0;
    const int planned = plannedEpochs(run);
    return planned > 0 ? std::clamp(double(run.history.size()) / planned, 0.0, 1.0) : 0.0;
}

QString TrainStatus::duration(double seconds)
{
    const QLocale loc;
    const long s = std::lround(std::max(0.0, seconds));
    if (s < 90)
        return tr("%1 s").arg(loc.toString(qint64(s)));
    if (s < 5400)
        return tr("%1 min").arg(loc.toString(qint64(std::lround(s / 60.0))));
    return tr("%1 h %2 min")
        .arg(loc.toString(qint64(s / 3600)), loc.toString(qint64(s % 3600 / 60)));
}

QString TrainStatus::runSummary(const ProjectRun& run)
{
    const QLocale loc;
    const int done = int(run.history.size());
    const QString planned = loc.toString(plannedEpochs(run));
    QString text;
    switch (run.state) {
    case RunState::Finished:
        text = tr("Finished: %n epoch(s) in %1", nullptr, done).arg(duration(run.seconds));
        break;
    case RunState::Paused:
        text = tr("Paused after epoch %1 of %2").arg(loc.toString(done), planned);
        break;
    case RunState::Cancelled:
        text = tr("Cancelled after %1 of %2 epochs").arg(loc.toString(done), planned);
        break;
    case RunState::Failed:
        text = tr("Failed after %1 of %2 epochs").arg(loc.toString(done), planned);
        break;
    case RunState::Running:
        text = tr("Interrupted after %1 of %2 epochs").arg(loc.toString(done), planned);
        break;
    }
    // The task's metric at the best epoch, as the curves plot it (the score early stopping
    // maximises is not always a number to show).
    for (const EpochMetrics& m : run.history)
        if (m.epoch == run.bestEpoch)
            if (const double v = TrainPlot::taskMetric(run.task, m); v >= 0)
                text += QStringLiteral("; ") + tr("best %1 %2 at epoch %3")
                                                   .arg(TrainPlot::metricName(run.task),
                                                        loc.toString(v, 'f', 3),
                                                        loc.toString(run.bestEpoch + 1));
    return text + QLatin1Char('.');
}

} // namespace fisura::ui
