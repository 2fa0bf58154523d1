#include "train/trainlog.h"

#include <QEvent>
#include <QFileInfo>
#include <QListWidget>
#include <QLocale>
#include <QRegularExpression>
#include <QTime>
#include <QVBoxLayout>

#include "train/datasetpicker.h"
#include "train/trainplot.h"

namespace fisura::ui
{

namespace
{

/// The whole numbers in an English trainer message, in order ("batch of 64; continue with 32").
QList<int> numbersIn(const QString& message)
{
    QList<int> out;
    static const QRegularExpression re(QStringLiteral("\\b(\\d+)\\b"));
    for (auto it = re.globalMatch(message); it.hasNext();)
        out << it.next().captured(1).toInt();
    return out;
}

} // namespace

TrainLog::TrainLog(QWidget* parent) : QWidget(parent), list_(new QListWidget(this))
{
    list_->setObjectName(QStringLiteral("trainLog"));
    list_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
}

void TrainLog::clear()
{
    list_->clear();
    entries_.clear();
}

void TrainLog::addLine(const QString& text)
{
    addLine([text] { return text; });
}

void TrainLog::addLine(std::function<QString()> text)
{
    entries_.push_back({QTime::currentTime(), std::move(text)});
    list_->addItem(render(entries_.back()));
    list_->scrollToBottom();
}

QString TrainLog::render(const Entry& e)
{
    if (!e.time.isValid())
        return e.text();
    return QLocale().toString(e.time, QLocale::ShortFormat) + QStringLiteral("  ") + e.text();
}

void TrainLog::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        for (int i = 0; i < list_->count() && size_t(i) < entries_.size(); ++i)
            list_->item(i)->setText(render(entries_[size_t(i)]));
    QWidget::changeEvent(e);
}

int TrainLog::lineCount() const
{
    return list_->count();
}

QString TrainLog::line(int i) const
{
    return i >= 0 && i < list_->count() ? list_->item(i)->text() : QString();
}

void TrainLog::addNotice(const QString& code, const QString& message)
{
    addLine([code, message] { return noticeText(code, message); });
}

void TrainLog::addUntimed(std::function<QString()> text)
{
    entries_.push_back({QTime(), std::move(text)}); // an invalid time: the line shows none
    list_->addItem(render(entries_.back()));
}

void TrainLog::showRun(const ProjectRun& run, int epochs)
{
    clear();
    // Notices about the data and the set-up come before the first epoch; the rest after.
    static const QStringList kBefore = {
        QStringLiteral("skipped_file"), QStringLiteral("batch_probed"),
        QStringLiteral("batch_probe_failed"), QStringLiteral("split_reused"),
        QStringLiteral("step_graph_failed")};
    std::vector<std::function<QString()>> before, after;
    for (const std::string& n : run.notices) {
        const QString line = QString::fromStdString(n);
        const int colon = int(line.indexOf(QStringLiteral(": ")));
        const QString code = colon > 0 ? line.left(colon) : line;
        const QString message = colon > 0 ? line.mid(colon + 2) : QString();
        (kBefore.contains(code) ? before : after).push_back([code, message] {
            return noticeText(code, message);
        });
    }
    for (auto& t : before)
        addUntimed(std::move(t));
    for (const EpochMetrics& m : run.history)
        addUntimed([task = run.task, m, epochs] { return epochText(task, m, epochs); });
    for (auto& t : after)
        addUntimed(std::move(t));
    list_->scrollToBottom();
}

void TrainLog::addEpoch(TaskKind task, const EpochMetrics& m, int epochs)
{
    addLine([task, m, epochs] { return epochText(task, m, epochs); });
}

QString TrainLog::epochText(TaskKind task, const EpochMetrics& m, int epochs)
{
    const QLocale loc;
    QString text = tr("Epoch %1 of %2: training loss %3")
                       .arg(loc.toString(m.epoch + 1), loc.toString(epochs),
                            loc.toString(m.trainLoss, 'f', 4));
    if (m.valLoss >= 0)
        text += tr(", validation loss %1").arg(loc.toString(m.valLoss, 'f', 4));
    const double metric = TrainPlot::taskMetric(task, m);
    if (metric >= 0)
        text += tr(", %1 %2").arg(TrainPlot::metricName(task), loc.toString(metric, 'f', 3));
    if (m.improved)
        text += tr(" (best so far, model saved)");
    return text;
}

QString TrainLog::noticeText(const QString& code, const QString& message)
{
    const QList<int> n = numbersIn(message);
    const QLocale loc;
    auto num = [&](int i) { return i < n.size() ? loc.toString(n[i]) : QStringLiteral("?"); };
    if (code == QStringLiteral("out_of_memory"))
        return tr("The GPU ran out of memory with batches of %1: its cache was released and "
                  "training continues with batches of %2.")
            .arg(num(0), num(1));
    if (code == QStringLiteral("early_stop"))
        return tr("No improvement for %n epoch(s): stopped early; the best model is kept.", nullptr,
                  n.isEmpty() ? 0 : n.front());
    if (code == QStringLiteral("resumed"))
        return tr("Resumed from the checkpoint after epoch %1.").arg(num(0));
    if (code == QStringLiteral("paused"))
        return tr("Paused after epoch %1; the checkpoint is kept for resuming.").arg(num(0));
    if (code == QStringLiteral("cancelled"))
        return tr("Cancelled during epoch %1; the checkpoint of the last completed epoch and the "
                  "best model are kept.")
            .arg(num(0));
    if (code == QStringLiteral("cpu_micro_batch"))
        return tr("Batches of %1 train on the processor in %2 parts of %3 with their gradients "
                  "added up (a whole batch needs about %4 MiB, over the budget of %5 MiB): "
                  "every step still learns from %1 images, but BatchNorm sees %3 at a time.")
            .arg(num(0), num(1), num(2), num(3), num(4));
    if (code == QStringLiteral("batch_probed"))
        return tr("The batch size was measured on the GPU.");
    if (code == QStringLiteral("batch_probe_failed"))
        return tr("The batch size could not be measured; the memory table's size is used.");
    if (code == QStringLiteral("step_graph_failed"))
        return tr("The training step could not be captured as a CUDA graph (%1); it runs op by "
                  "op, at a little less speed.")
            .arg(message);
    if (code == QStringLiteral("start_from")) {
        // "PATH: unet, width 16, depth 4 (...)": the file's name, not the folder it lives in.
        static const QRegularExpression re(QStringLiteral(": \\w+, width (\\d+), depth (\\d+)"));
        const QRegularExpressionMatch m = re.match(message);
        if (m.hasMatch())
            return tr("Starts from %1: its network is kept (width %2, depth %3).")
                .arg(QFileInfo(message.left(m.capturedStart())).fileName(),
                     loc.toString(m.captured(1).toInt()), loc.toString(m.captured(2).toInt()));
    }
    if (code == QStringLiteral("batchnorm_adapted"))
        return tr("The BatchNorm statistics of %1 layers were re-estimated on %2 training crops.")
            .arg(num(0), num(1));
    if (code == QStringLiteral("batch_rounded"))
        return tr("The checkpoint's batch of %1 does not divide among %2 processes: %3 each.")
            .arg(num(0), num(1), num(2));
    if (code == QStringLiteral("patch_memory"))
        return tr("The patch statistics are computed on the GPU: they fit in its free memory.");
    if (code == QStringLiteral("shrinkage"))
        return tr("The shrunk covariance is singular (a feature never varies): Ledoit-Wolf "
                  "shrinkage is used instead.");
    if (code == QStringLiteral("threshold_from_training"))
        return tr("No validation images: the threshold comes from the training images.");
    if (code == QStringLiteral("split_reused"))
        return tr("The run's saved split of training and validation images is used again.");
    if (code == QStringLiteral("skipped_file")) {
        const int colon = message.lastIndexOf(QStringLiteral(": "));
        const QString path = colon > 0 ? message.left(colon) : message;
        // Reasons can contain ": " themselves ("unreadable: corrupt: ..."): find the known start.
        QString reason = colon > 0 ? message.mid(colon + 2) : QString();
        for (const char* start : {"unreadable", "mask size", "image without", "mask without",
                                  "duplicate", "no class"}) {
            const int at = message.indexOf(QStringLiteral(": ") + QLatin1String(start));
            if (at > 0) {
                reason = message.mid(at + 2);
                return tr("Skipped %1: %2")
                    .arg(QFileInfo(message.left(at)).fileName(),
                         DatasetPicker::problemText(reason.toStdString()));
            }
        }
        return tr("Skipped %1: %2")
            .arg(QFileInfo(path).fileName(), DatasetPicker::problemText(reason.toStdString()));
    }
    return code + QStringLiteral(": ") + message;
}

QString TrainLog::failureHint(ErrorCode code)
{
    switch (code) {
    case ErrorCode::NotFound:
        return tr("Check that the dataset folder still exists (or add it again), then start "
                  "again.");
    case ErrorCode::InvalidArgument:
        return tr("Check the dataset and the settings under Advanced, then start again.");
    case ErrorCode::Corrupt:
        return tr("A file is damaged: remove or replace it in the dataset folder, then start "
                  "again.");
    case ErrorCode::OutOfMemory:
        return tr("Choose a smaller model size or batch size, or train on the processor "
                  "(Advanced).");
    case ErrorCode::DeviceError:
        return tr("Start again; if it keeps failing, train on the processor (Advanced).");
    case ErrorCode::IoError:
        return tr("Check that the project folder is writable and that the disk has free space.");
    default:
        return tr("Start again; if it keeps failing, please report it with the log below.");
    }
}

} // namespace fisura::ui
