#include "train/datasetpicker.h"

#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "common/errortext.h"
#include "common/jobrunner.h"

namespace fisura::ui
{

namespace
{

QString localDir(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).isDir())
            return url.toLocalFile();
    return {};
}

} // namespace

DatasetPicker::DatasetPicker(QWidget* parent)
    : QWidget(parent), label_(new QLabel(this)), box_(new QComboBox(this)),
      add_(new QPushButton(this)), summary_(new QLabel(this)), problems_(new QListWidget(this)),
      labelStates_(new QLabel(this)), job_(new JobRunner(this))
{
    setAcceptDrops(true);
    box_->setObjectName(QStringLiteral("datasetBox"));
    add_->setObjectName(QStringLiteral("addDatasetButton"));
    summary_->setObjectName(QStringLiteral("datasetSummary"));
    problems_->setObjectName(QStringLiteral("datasetProblems"));
    summary_->setWordWrap(true);
    problems_->setMaximumHeight(90);
    problems_->hide();
    labelStates_->setObjectName(QStringLiteral("datasetLabelStates"));
    labelStates_->setWordWrap(true);
    labelStates_->setTextFormat(Qt::RichText);
    labelStates_->hide();
    connect(labelStates_, &QLabel::linkActivated, this,
            [this] { Q_EMIT showLabelsRequested(datasetPath()); });
    box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box_->setMinimumContentsLength(12);
    connect(box_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT datasetChanged(); });
    connect(add_, &QPushButton::clicked, this, &DatasetPicker::chooseFolder);

    auto* row = new QHBoxLayout;
    row->addWidget(box_, 1);
    row->addWidget(add_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addLayout(row);
    layout->addWidget(summary_);
    layout->addWidget(labelStates_);
    layout->addWidget(problems_);
    retranslateUi();
}

void DatasetPicker::retranslateUi()
{
    label_->setText(tr("Dataset"));
    add_->setText(tr("Add folder…"));
    add_->setToolTip(tr("Add a folder of images to the project (or drop one here)"));
    if (box_->count() == 0)
        summary_->setText(tr("No dataset yet: add a folder of images, or drop one here."));
    else if (lastScan_)
        showScan(*lastScan_);
    showLabelStates();
}

void DatasetPicker::setDatasets(const std::vector<ProjectDataset>& datasets)
{
    const QString keep = datasetId();
    // Newest first: the dataset added last is the one the analyst most likely means (ties in
    // the same second: the later entry of the project first).
    datasets_.assign(datasets.rbegin(), datasets.rend());
    std::stable_sort(
        datasets_.begin(), datasets_.end(),
        [](const ProjectDataset& a, const ProjectDataset& b) { return a.addedAt > b.addedAt; });
    {
        const QSignalBlocker block(box_);
        box_->clear();
        for (const ProjectDataset& d : datasets_)
            box_->addItem(QString::fromStdString(d.name.empty() ? d.path : d.name),
                          QString::fromStdString(d.id));
        const int i = box_->findData(keep);
        box_->setCurrentIndex(i >= 0 ? i : (box_->count() > 0 ? 0 : -1));
    }
    for (int i = 0; i < box_->count(); ++i)
        box_->setItemData(i, QString::fromStdString(datasets_[size_t(i)].path), Qt::ToolTipRole);
    if (box_->count() == 0) {
        lastScan_.reset();
        lastLabels_.reset();
        usable_ = -1;
        problems_->hide();
        retranslateUi();
    }
    if (datasetId() != keep)
        Q_EMIT datasetChanged();
}

void DatasetPicker::selectDataset(const QString& id)
{
    const int i = box_->findData(id);
    if (i >= 0)
        box_->setCurrentIndex(i);
}

QString DatasetPicker::datasetId() const
{
    return box_->currentData().toString();
}

bool DatasetPicker::hasDataset() const
{
    return box_->currentIndex() >= 0;
}

QString DatasetPicker::datasetPath() const
{
    const int i = box_->currentIndex();
    return i >= 0 ? QString::fromStdString(datasets_[size_t(i)].path) : QString();
}

TaskKind DatasetPicker::datasetTask() const
{
    const int i = box_->currentIndex();
    return i >= 0 ? datasets_[size_t(i)].task : TaskKind::Segment;
}

bool DatasetPicker::isScanning() const
{
    return job_->isRunning();
}

void DatasetPicker::rescan(TaskKind task)
{
    if (!hasDataset())
        return;
    if (job_->isRunning()) { // the newest request wins: finish the old scan first
        rescanPending_ = true;
        pendingTask_ = task;
        job_->cancel();
        return;
    }
    rescanPending_ = false;
    usable_ = -1;
    summary_->setText(tr("Looking at the images…"));
    problems_->hide();
    lastLabels_.reset();
    showLabelStates();
    const std::string dir = datasetPath().toStdString();
    job_->start<Scan>(
        [dir, task](const CancelToken& cancel, ProgressSink* progress) -> Result<Scan> {
            ScanOptions o;
            // Decode every file once: unreadable files are listed now, not mid-run.
            o.verify = true;
            Result<Dataset> d = scanDataset(dir, task, o, cancel, progress);
            if (!d)
                return d.status();
            Scan scan{std::move(*d), std::nullopt};
            if (task == TaskKind::Segment) // which images are labelled, proposed or not
                scan.labels.emplace(labelStatus(dir));
            return scan;
        },
        [this](Result<Scan> scan) {
            if (rescanPending_) {
                rescan(pendingTask_);
                return;
            }
            lastScan_.emplace(scan ? Result<Dataset>(std::move(scan->dataset))
                                   : Result<Dataset>(scan.status()));
            if (scan && scan->labels && *scan->labels)
                lastLabels_ = std::move(scan->labels);
            showScan(*lastScan_);
            showLabelStates();
            Q_EMIT scanned();
        });
}

void DatasetPicker::showScan(const Result<Dataset>& result)
{
    problems_->clear();
    if (!result) {
        usable_ = -1;
        summary_->setText(tr("This folder cannot be used: %1").arg(errorMessage(result.status())));
        problems_->hide();
        return;
    }
    const Dataset& d = *result;
    const QLocale loc;
    usable_ = int(d.items.size());
    QStringList parts;
    if (d.task == TaskKind::Classify) {
        for (size_t i = 0; i < d.classes.size() && i < d.classCounts.size(); ++i)
            parts << tr("%1: %2").arg(QString::fromStdString(d.classes[i]),
                                      loc.toString(d.classCounts[i]));
    } else if (d.task == TaskKind::Segment) {
        parts << tr("%n image(s) with masks", nullptr, usable_);
    } else {
        parts << tr("%n crack-free image(s)", nullptr, usable_);
    }
    // With the label states known, an image without a mask is not a problem: it is proposed or
    // unlabelled, and the sentence under the summary counts it.
    const bool labelsShown = lastLabels_ && *lastLabels_;
    std::vector<const DatasetProblem*> shown;
    for (const DatasetProblem& p : d.problems)
        if (!labelsShown || p.reason != "image without mask")
            shown.push_back(&p);
    if (!shown.empty())
        parts << tr("%n file(s) cannot be used", nullptr, int(shown.size()));
    summary_->setText(parts.join(QStringLiteral(" · ")));
    for (const DatasetProblem* p : shown) {
        const QString name = QFileInfo(QString::fromStdString(p->path)).fileName();
        auto* item = new QListWidgetItem(tr("%1 — %2").arg(name, problemText(p->reason)));
        item->setToolTip(QString::fromStdString(p->path));
        problems_->addItem(item);
    }
    problems_->setVisible(!shown.empty());
}

QString DatasetPicker::labelSummary() const
{
    if (!lastLabels_ || !*lastLabels_)
        return {};
    int counts[3] = {0, 0, 0};
    for (const LabelStatusEntry& e : **lastLabels_)
        ++counts[int(e.state)];
    const int labelled = counts[int(LabelState::Labelled)];
    const int proposed = counts[int(LabelState::Proposed)];
    const int unlabelled = counts[int(LabelState::Unlabelled)];
    if (proposed == 0 && unlabelled == 0)
        return tr("All %Ln image(s) are labelled and used for training.", nullptr, labelled);
    const QLocale loc;
    return tr("%Ln labelled image(s) are used for training (%1 proposed and %2 unlabelled are "
              "not).",
              nullptr, labelled)
        .arg(loc.toString(proposed), loc.toString(unlabelled));
}

void DatasetPicker::showLabelStates()
{
    const QString text = labelSummary();
    labelStates_->setVisible(!text.isEmpty());
    if (text.isEmpty())
        return;
    labelStates_->setText(text.toHtmlEscaped() + QStringLiteral(" <a href=\"labels\">") +
                          tr("Show the label of each image").toHtmlEscaped() +
                          QStringLiteral("</a>"));
}

QString DatasetPicker::problemText(const std::string& reason)
{
    const QString r = QString::fromStdString(reason);
    auto with = [&r](const QString& text, const QString& prefix) {
        const QString detail = r.mid(prefix.size()).trimmed();
        return detail.isEmpty() ? text : text + QStringLiteral(" (") + detail + QStringLiteral(")");
    };
    if (r == QStringLiteral("image without mask"))
        return tr("image without a mask");
    if (r == QStringLiteral("mask without image"))
        return tr("mask without an image");
    if (r == QStringLiteral("duplicate image stem"))
        return tr("another image has the same name");
    if (r == QStringLiteral("duplicate mask stem"))
        return tr("another mask has the same name");
    if (r == QStringLiteral("no class folder rule matches"))
        return tr("not in a class folder");
    if (r.startsWith(QStringLiteral("unreadable mask:")))
        return with(tr("the mask cannot be read"), QStringLiteral("unreadable mask:"));
    if (r.startsWith(QStringLiteral("unreadable:")))
        return with(tr("the image cannot be read"), QStringLiteral("unreadable:"));
    if (r.startsWith(QStringLiteral("mask size")))
        return tr("the mask and the image differ in size");
    return r;
}

TaskKind DatasetPicker::guessTask(const QString& dir)
{
    const QDir d(dir);
    if (d.exists(QStringLiteral("images")) && d.exists(QStringLiteral("masks")))
        return TaskKind::Segment;
    if (!d.entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty())
        return TaskKind::Classify;
    return TaskKind::Anomaly;
}

void DatasetPicker::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add a dataset folder"));
    if (!dir.isEmpty())
        Q_EMIT folderChosen(dir, guessTask(dir));
}

void DatasetPicker::dragEnterEvent(QDragEnterEvent* e)
{
    if (!localDir(e->mimeData()).isEmpty())
        e->acceptProposedAction();
}

void DatasetPicker::dropEvent(QDropEvent* e)
{
    const QString dir = localDir(e->mimeData());
    if (dir.isEmpty())
        return;
    e->acceptProposedAction();
    Q_EMIT folderChosen(dir, guessTask(dir));
}

} // namespace fisura::ui
