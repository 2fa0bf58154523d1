// What the Train pane's status line and progress bar say, kept honest: the batch line carries an
// ETA only while the run goes on (not while it pauses after this epoch or is being cancelled),
// and a run that ended — or one picked in the list — is summed up from its record (how far it got,
// how it ended, how long it trained) instead of the last batch's words.
#pragma once

#include <QCoreApplication>
#include <QString>

#include "fisura/project.h"
#include "fisura/train.h"

namespace fisura::ui
{

class TrainStatus
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::TrainStatus)
public:
    enum class Live { Running, Pausing, Cancelling };

    /// "Epoch 3 of 20 · batch 12 of 40 · 88.0 images/s · about 4 min left" (running), or with
    /// "pausing after this epoch" / "cancelling…" in place of the ETA.
    static QString batchLine(const BatchProgress& b, Live live);
    /// One line about a run from its record: "Finished: 20 epochs in 3 min; best F1 0.812 at
    /// epoch 17", "Paused after epoch 3 of 20", ...
    static QString runSummary(const ProjectRun& run);
    /// The share of the run's epochs completed (1 for a finished run, 0 without a record).
    static double completed(const ProjectRun& run);
    /// The epochs the run was set up for (0 when its options cannot be read).
    static int plannedEpochs(const ProjectRun& run);
    /// "45 s", "3 min", "1 h 20 min".
    static QString duration(double seconds);
};

} // namespace fisura::ui
