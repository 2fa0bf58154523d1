#include "train/runslist.h"

#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "project/runname.h"

namespace fisura::ui
{

RunsList::RunsList(QWidget* parent) : QWidget(parent), tree_(new QTreeWidget(this))
{
    tree_->setObjectName(QStringLiteral("runsTree"));
    tree_->setColumnCount(ColumnCount);
    tree_->setRootIsDecorated(false);
    tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree_->setAlternatingRowColors(true);
    // Every column in the view's width (no sideways scroll in a narrow window): fitColumns()
    // sizes them on every resize; the name and the dataset elide, their full text in the tool tip.
    tree_->setTextElideMode(Qt::ElideRight);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(QHeaderView::Fixed);
    tree_->viewport()->installEventFilter(this);
    connect(tree_, &QTreeWidget::itemSelectionChanged, this, [this] {
        if (!quiet_)
            Q_EMIT selectionChanged(selectedIds());
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tree_);
    retranslateUi();
}

bool RunsList::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == tree_->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void RunsList::fitColumns()
{
    // A task column only when the runs differ in task (one value for every row says nothing).
    bool oneTask = true;
    for (const ProjectRun& r : runs_)
        oneTask = oneTask && r.task == runs_.front().task;
    tree_->setColumnHidden(Task, oneTask);
    QHeaderView* h = tree_->header();
    const int margin = 2 * h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h) + 8;
    auto title = [&](int c) {
        return h->fontMetrics().horizontalAdvance(tree_->headerItem()->text(c)) + margin;
    };
    const QAbstractItemView* view = tree_; // sizeHintForColumn is public there
    auto want = [&](int c) { return std::max(title(c), view->sizeHintForColumn(c)); };
    // The short columns as wide as their values; the name and the dataset share the rest in
    // proportion to what they want, never narrower than their titles.
    int rest = tree_->viewport()->width();
    for (int c : {Task, Score, State})
        if (!tree_->isColumnHidden(c)) {
            h->resizeSection(c, want(c));
            rest -= want(c);
        }
    // Each at least its title; what is left beyond the titles goes to each in proportion to
    // what its values still want.
    const int minName = title(Name), minData = title(Dataset);
    const int moreName = std::max(want(Name) - minName, 0);
    const int moreData = std::max(want(Dataset) - minData, 0);
    const int spare = std::max(rest - minName - minData, 0);
    const int nameW =
        minName +
        (moreName + moreData > 0 ? int(double(spare) * moreName / (moreName + moreData)) : 0);
    h->resizeSection(Name, std::min(nameW, minName + moreName));
    h->resizeSection(Dataset, std::max(minData, rest - std::min(nameW, minName + moreName)));
}

QString RunsList::taskText(TaskKind task)
{
    switch (task) {
    case TaskKind::Segment:
        return tr("segment");
    case TaskKind::Classify:
        return tr("classify");
    case TaskKind::Anomaly:
        return tr("anomaly");
    }
    return {};
}

QString RunsList::stateText(RunState state)
{
    switch (state) {
    case RunState::Running:
        return tr("running");
    case RunState::Finished:
        return tr("finished");
    case RunState::Cancelled:
        return tr("cancelled");
    case RunState::Paused:
        return tr("paused");
    case RunState::Failed:
        return tr("failed");
    }
    return {};
}

void RunsList::retranslateUi()
{
    tree_->setHeaderLabels({tr("Run"), tr("Dataset"), tr("Task"), tr("Best score"), tr("State")});
    fill();
}

void RunsList::setRuns(const std::vector<ProjectRun>& runs,
                       const std::vector<ProjectDataset>& datasets)
{
    runs_ = runs;
    datasets_ = datasets;
    // Newest first, in the order RunName numbers them (runs started in the same second by id).
    std::sort(runs_.begin(), runs_.end(), [](const ProjectRun& a, const ProjectRun& b) {
        return a.startedAt > b.startedAt || (a.startedAt == b.startedAt && a.id > b.id);
    });
    fill();
}

void RunsList::setActiveRun(const QString& runId)
{
    activeRun_ = runId.toStdString();
    fill();
}

void RunsList::fill()
{
    const QStringList keep = selectedIds();
    quiet_ = true;
    tree_->clear();
    const QLocale loc;
    for (const ProjectRun& r : runs_) {
        auto* it = new QTreeWidgetItem(tree_);
        const QString id = QString::fromStdString(r.id);
        it->setData(0, Qt::UserRole, id);
        it->setText(Name, RunName::of(runs_, r));
        QString dataset = QFileInfo(QString::fromStdString(r.datasetPath)).fileName();
        for (const ProjectDataset& d : datasets_)
            if (d.id == r.datasetId && !d.name.empty())
                dataset = QString::fromStdString(d.name);
        it->setText(Dataset, dataset);
        const QString path = QString::fromStdString(r.datasetPath);
        it->setToolTip(Dataset, path.endsWith(dataset) ? path : dataset + QLatin1Char('\n') + path);
        it->setText(Task, taskText(r.task));
        it->setText(Score, r.bestScore >= 0 ? loc.toString(r.bestScore, 'f', 3) : QString());
        // "running" in the file but not here: the process that trained it stopped (crash,
        // kill, power cut); it resumes from its checkpoint like a cancelled run.
        const bool interrupted = r.state == RunState::Running && r.id != activeRun_;
        it->setText(State, interrupted ? tr("interrupted") : stateText(r.state));
        it->setToolTip(Name, it->text(Name) + QLatin1Char('\n') + id);
        if (keep.contains(id))
            it->setSelected(true);
    }
    quiet_ = false;
    fitColumns();
    if (selectedIds() != keep)
        Q_EMIT selectionChanged(selectedIds());
}

QStringList RunsList::selectedIds() const
{
    QStringList ids;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        if (tree_->topLevelItem(i)->isSelected())
            ids << tree_->topLevelItem(i)->data(0, Qt::UserRole).toString();
    return ids;
}

void RunsList::select(const QStringList& ids, bool notify)
{
    const bool wasQuiet = quiet_;
    quiet_ = true;
    tree_->clearSelection();
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* it = tree_->topLevelItem(i);
        if (ids.contains(it->data(0, Qt::UserRole).toString())) {
            it->setSelected(true);
            tree_->setCurrentItem(it, 0, QItemSelectionModel::NoUpdate);
        }
    }
    quiet_ = wasQuiet;
    if (notify)
        Q_EMIT selectionChanged(selectedIds());
}

} // namespace fisura::ui
