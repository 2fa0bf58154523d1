#include "data/labelstatuspanel.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <memory>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "data/labelstatusmodel.h"

namespace fisura::ui
{

namespace
{
/// Filter box entries: all images, then each state (the item data is the state, or -1).
constexpr int kAll = -1;
} // namespace

LabelStatusPanel::LabelStatusPanel(QWidget* parent)
    : QWidget(parent), model_(new LabelStatusModel(this)), summary_(new QLabel(this)),
      filterLabel_(new QLabel(this)), filterBox_(new QComboBox(this)), view_(new QTreeView(this)),
      label_(new QPushButton(this)), rank_(new QPushButton(this)),
      watcher_(new QFileSystemWatcher(this)), debounce_(new QTimer(this)), job_(new JobRunner(this))
{
    summary_->setObjectName(QStringLiteral("labelSummary"));
    summary_->setWordWrap(true);
    filterBox_->setObjectName(QStringLiteral("labelFilter"));
    view_->setObjectName(QStringLiteral("labelList"));
    label_->setObjectName(QStringLiteral("labelButton"));
    rank_->setObjectName(QStringLiteral("rankButton"));
    filterLabel_->setBuddy(filterBox_);
    for (int v :
         {kAll, int(LabelState::Labelled), int(LabelState::Proposed), int(LabelState::Unlabelled)})
        filterBox_->addItem(QString(), v);

    view_->setModel(model_);
    view_->setRootIsDecorated(false);
    view_->setUniformRowHeights(true); // thousands of rows stay fast
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(LabelStatusModel::ImageColumn, QHeaderView::Stretch);
    view_->header()->setSectionResizeMode(LabelStatusModel::StateColumn,
                                          QHeaderView::ResizeToContents);

    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(filterLabel_);
    filterRow->addWidget(filterBox_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(label_);
    buttons->addStretch(1);
    buttons->addWidget(rank_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addLayout(filterRow);
    layout->addWidget(view_, 1);
    layout->addLayout(buttons);

    connect(filterBox_, &QComboBox::currentIndexChanged, this, [this] {
        const int v = filterBox_->currentData().toInt();
        model_->setFilter(v == kAll ? std::nullopt : std::optional<LabelState>(LabelState(v)));
        updateButtons();
    });
    connect(view_, &QTreeView::doubleClicked, this,
            [this](const QModelIndex& idx) { labelRow(idx.row()); });
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& idx) {
                if (idx.isValid())
                    Q_EMIT imageSelected(model_->imageAt(idx.row()));
            });
    connect(label_, &QPushButton::clicked, this, [this] {
        const QModelIndex cur = view_->currentIndex();
        labelRow(cur.isValid() ? cur.row() : 0);
    });
    connect(rank_, &QPushButton::clicked, this, &LabelStatusPanel::rankRequested);
    // Saving a mask touches the folder several times (temporary file, rename): scan once after.
    debounce_->setSingleShot(true);
    debounce_->setInterval(250);
    connect(debounce_, &QTimer::timeout, this, &LabelStatusPanel::refresh);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, debounce_,
            qOverload<>(&QTimer::start));
    retranslateUi();
}

LabelStatusPanel::~LabelStatusPanel() = default;

void LabelStatusPanel::retranslateUi()
{
    filterLabel_->setText(tr("&Show:"));
    filterBox_->setItemText(0, tr("All images"));
    filterBox_->setItemText(1, tr("Labelled"));
    filterBox_->setItemText(2, tr("Proposed"));
    filterBox_->setItemText(3, tr("Unlabelled"));
    label_->setText(tr("Label…"));
    label_->setToolTip(tr("Open the selected image for labelling; the images after it in this "
                          "list follow"));
    rank_->setText(tr("Rank unlabelled images…"));
    rank_->setToolTip(tr("Let a trained model say which unlabelled images it is least sure "
                         "about: labelling those first helps it most"));
    model_->retranslate();
    summary_->setText(summaryText());
}

void LabelStatusPanel::setDatasetDir(const QString& dir)
{
    const QString abs = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    if (abs == dir_)
        return;
    dir_ = abs;
    haveStatus_ = false;
    error_.clear();
    model_->setEntries({});
    watchFolders();
    refresh();
}

void LabelStatusPanel::watchFolders()
{
    if (!watcher_->directories().isEmpty())
        watcher_->removePaths(watcher_->directories());
    if (dir_.isEmpty())
        return;
    // The root too: masks/ or proposals/ may be created after the dataset was opened.
    QStringList paths{dir_};
    for (const QString& sub :
         {QStringLiteral("images"), QStringLiteral("masks"), QStringLiteral("proposals")})
        if (QFileInfo(dir_ + QLatin1Char('/') + sub).isDir())
            paths << dir_ + QLatin1Char('/') + sub;
    watcher_->addPaths(paths);
}

bool LabelStatusPanel::isScanning() const
{
    return job_->isRunning();
}

void LabelStatusPanel::refresh()
{
    if (dir_.isEmpty()) {
        updateButtons();
        summary_->setText(summaryText());
        return;
    }
    if (job_->isRunning()) { // the newest request wins: scan again when this one ends
        rescanPending_ = true;
        return;
    }
    rescanPending_ = false;
    watchFolders(); // folders that appeared since
    if (!QFileInfo(dir_ + QStringLiteral("/images")).isDir()) {
        haveStatus_ = false;
        error_ = tr("This folder has no images/ subfolder. A segmentation dataset keeps its "
                    "images in images/ and their masks, with the same names, in masks/.");
        model_->setEntries({});
        showStatus();
        return;
    }
    if (!haveStatus_)
        summary_->setText(tr("Looking at the labels…"));
    const std::string dir = dir_.toStdString();
    const QString scanned = dir_;
    job_->start<std::vector<LabelStatusEntry>>(
        [dir](const CancelToken&, ProgressSink*) { return labelStatus(dir); },
        [this, scanned](Result<std::vector<LabelStatusEntry>> result) {
            if (rescanPending_ || scanned != dir_) {
                refresh();
                return;
            }
            haveStatus_ = result.isOk();
            error_ = result ? QString()
                            : tr("The labels of this folder cannot be listed: %1")
                                  .arg(errorMessage(result.status()));
            // Keep the selection on the same image across the reload.
            const QString current = model_->imageAt(view_->currentIndex().row());
            model_->setEntries(result ? std::move(*result) : std::vector<LabelStatusEntry>{});
            const int row = model_->rowOf(current);
            if (row >= 0)
                view_->setCurrentIndex(model_->index(row, 0));
            showStatus();
        });
}

void LabelStatusPanel::showStatus()
{
    summary_->setText(summaryText());
    updateButtons();
    Q_EMIT statusChanged();
}

QString LabelStatusPanel::summaryText() const
{
    if (dir_.isEmpty())
        return tr("Open a segmentation dataset (a folder with images/ and masks/) to see which "
                  "images are labelled.");
    if (!error_.isEmpty())
        return error_;
    if (!haveStatus_)
        return tr("Looking at the labels…");
    if (model_->entries().empty())
        return tr("The images/ folder holds no images.");
    return tr("%Ln labelled", nullptr, model_->count(LabelState::Labelled)) +
           QStringLiteral(" · ") +
           tr("%Ln proposed", nullptr, model_->count(LabelState::Proposed)) +
           QStringLiteral(" · ") +
           tr("%Ln unlabelled", nullptr, model_->count(LabelState::Unlabelled));
}

void LabelStatusPanel::setFilter(std::optional<LabelState> state)
{
    filterBox_->setCurrentIndex(filterBox_->findData(state ? int(*state) : kAll));
}

std::optional<LabelState> LabelStatusPanel::filter() const
{
    return model_->filter();
}

QStringList LabelStatusPanel::images(LabelState state) const
{
    return model_->images(state);
}

void LabelStatusPanel::labelRow(int row)
{
    const QString image = model_->imageAt(row);
    if (image.isEmpty())
        return;
    QStringList queue;
    for (int r = row + 1; r < model_->rowCount(); ++r)
        queue << model_->imageAt(r);
    Q_EMIT labelRequested(image, queue);
}

void LabelStatusPanel::updateButtons()
{
    label_->setEnabled(model_->rowCount() > 0);
    rank_->setEnabled(haveStatus_ && model_->count(LabelState::Unlabelled) > 0);
}

} // namespace fisura::ui
