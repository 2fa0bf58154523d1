#include "data/datapane.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include "analyze/modelchooser.h"
#include "common/errortext.h"
#include "common/imageconvert.h"
#include "common/jobrunner.h"
#include "common/screenfit.h"
#include "data/labelranking.h"
#include "data/labelstatusmodel.h"
#include "data/labelstatuspanel.h"
#include "data/projectcontents.h"
#include "data/welcomepage.h"
#include "fisura/synth.h"
#include "project/projectsession.h"

namespace fisura::ui
{

namespace
{

/// images/<stem>.* pairs with masks/<stem>.*: find the mask next to an image, if any.
QString maskFor(const QString& imagePath)
{
    const QFileInfo fi(imagePath);
    QDir dir = fi.dir();
    if (dir.dirName() != QStringLiteral("images") || !dir.cdUp() ||
        !dir.cd(QStringLiteral("masks")))
        return {};
    const QStringList hits =
        dir.entryList({fi.completeBaseName() + QStringLiteral(".*")}, QDir::Files);
    return hits.isEmpty() ? QString() : dir.filePath(hits.first());
}

} // namespace

DataPane::DataPane(QWidget* parent)
    : Pane(parent), toolbar_(new QToolBar(this)), folderLabel_(new QLabel(this)),
      model_(new QFileSystemModel(this)), tree_(new QTreeView(this)),
      body_(new QStackedWidget(this)), welcome_(new WelcomePage(this)), split_(new QSplitter(this)),
      leftTabs_(new QTabWidget(this)), contents_(new ProjectContents(this)),
      labels_(new LabelStatusPanel(this)), ranking_(new LabelRankingPanel(this)),
      preview_(new QLabel(this)), info_(new QLabel(this)), showMask_(new QCheckBox(this)),
      progress_(new QProgressBar(this)), progressText_(new QLabel(this)),
      cancel_(new QPushButton(this)), imageJob_(new JobRunner(this)), demoJob_(new JobRunner(this))
{
    openAction_ = toolbar_->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon), QString(),
                                      this, &DataPane::chooseFolder);
    openAction_->setObjectName(QStringLiteral("openFolderAction"));
    openAction_->setShortcut(QKeySequence::Open);
    demoAction_ = toolbar_->addAction(style()->standardIcon(QStyle::SP_FileDialogNewFolder),
                                      QString(), this, &DataPane::chooseDemoFolder);
    demoAction_->setObjectName(QStringLiteral("demoDataAction"));
    toolbar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar_->addSeparator();
    toolbar_->addWidget(folderLabel_);

    model_->setNameFilters(imageNameFilters());
    model_->setNameFilterDisables(false);
    model_->setReadOnly(true);
    tree_->setModel(model_);
    tree_->setObjectName(QStringLiteral("fileTree"));
    tree_->hideColumn(2); // type
    tree_->hideColumn(3); // date: name and size are what matter here
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->setEnabled(false);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& idx) {
                if (!idx.isValid() || model_->isDir(idx) || model_->filePath(idx) == imagePath_)
                    return;
                // An image of <dataset>/images: that dataset's labels are the ones shown.
                const QFileInfo fi(model_->filePath(idx));
                if (fi.dir().dirName() == QStringLiteral("images"))
                    labels_->setDatasetDir(QFileInfo(fi.absolutePath()).absolutePath());
                previewImage(model_->filePath(idx));
            });

    preview_->setObjectName(QStringLiteral("preview"));
    preview_->setAlignment(Qt::AlignCenter);
    preview_->setMinimumSize(240, 240);
    preview_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    info_->setObjectName(QStringLiteral("previewInfo"));
    info_->setWordWrap(true);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showMask_->setChecked(true);
    connect(showMask_, &QCheckBox::toggled, this, &DataPane::refreshPreview);

    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->addWidget(preview_, 1);
    rl->addWidget(showMask_);
    rl->addWidget(info_);

    split_->setObjectName(QStringLiteral("dataSplitter"));
    split_->addWidget(buildLeft());
    split_->addWidget(right);
    split_->setStretchFactor(1, 2);
    split_->setSizes({360, 640});
    body_->addWidget(welcome_);
    body_->addWidget(split_);

    auto* bottom = new QHBoxLayout;
    progress_->setRange(0, 1000);
    bottom->addWidget(progress_, 1);
    bottom->addWidget(progressText_);
    bottom->addWidget(cancel_);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    connect(cancel_, &QPushButton::clicked, demoJob_, &JobRunner::cancel);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar_);
    layout->addWidget(body_, 1);
    layout->addLayout(bottom);
    setBusy(false);
    updateBody();

    connect(demoJob_, &JobRunner::progress, this,
            [this](double fraction, const QString& message, double eta) {
                progress_->setValue(int(std::max(0.0, fraction) * 1000));
                progressText_->setText(formatEta(eta));
                Q_EMIT statusMessage(message);
            });
    connectLabels();
    connect(contents_, &ProjectContents::datasetSelected, this, [this](const QString& path) {
        setRootFolder(path);
        rootFromProject_ = true;
    });
    connect(contents_, &ProjectContents::scanActivated, this, &DataPane::openScanRequested);
    retranslateUi();
}

QWidget* DataPane::buildLeft()
{
    leftTabs_->setObjectName(QStringLiteral("dataTabs"));
    showWholeTabs(leftTabs_);
    leftTabs_->addTab(contents_, QString());
    leftTabs_->setTabVisible(0, false); // until a project is open
    leftTabs_->addTab(tree_, QString());
    leftTabs_->addTab(labels_, QString());
    leftTabs_->addTab(ranking_, QString());
    return leftTabs_;
}

void DataPane::connectLabels()
{
    connect(labels_, &LabelStatusPanel::labelRequested, this, &DataPane::labelRequested);
    connect(ranking_, &LabelRankingPanel::labelRequested, this, &DataPane::labelRequested);
    connect(labels_, &LabelStatusPanel::imageSelected, this, [this](const QString& path) {
        if (path != imagePath_)
            previewImage(path);
    });
    connect(labels_, &LabelStatusPanel::rankRequested, this,
            [this] { leftTabs_->setCurrentWidget(ranking_); });
    connect(labels_, &LabelStatusPanel::statusChanged, this, [this] {
        ranking_->setDataset(labels_->hasStatus() ? labels_->datasetDir() : QString(),
                             labels_->images(LabelState::Unlabelled));
        if (rankWhenReady_ && !labels_->isScanning()) {
            rankWhenReady_ = false;
            ranking_->startRanking(); // says itself why when it cannot
        }
    });
}

void DataPane::setProjectSession(ProjectSession* session)
{
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    ranking_->setProjectSession(session);
    contents_->setProjectSession(session);
    if (session) {
        connect(session, &ProjectSession::projectChanged, this, &DataPane::followProject);
        connect(session, &ProjectSession::contentChanged, this, &DataPane::followProject);
    }
    followProject();
}

void DataPane::followProject()
{
    const bool open = session_ && session_->hasProject();
    leftTabs_->setTabVisible(0, open);
    if (!open) {
        if (rootFromProject_)
            clearRootFolder();
        updateBody();
        return;
    }
    // The project's own dataset is what the pane shows, unless the folder browsed is one of them.
    const QStringList datasets = contents_->datasetPaths();
    bool inProject = false;
    for (const QString& d : datasets)
        inProject |= !root_.isEmpty() && QFileInfo(d).absoluteFilePath() == root_;
    if (!inProject) {
        // A segmentation dataset first: its images have masks to preview and labels to show.
        QString first;
        for (const QString& d : datasets)
            if (QFileInfo(d).isDir() && (first.isEmpty() || (!labelDatasetFor(d).isEmpty() &&
                                                             labelDatasetFor(first).isEmpty())))
                first = d;
        if (!first.isEmpty()) {
            setRootFolder(first);
            rootFromProject_ = true;
            leftTabs_->setCurrentWidget(contents_);
        }
    }
    contents_->selectDataset(root_);
    updateBody();
}

void DataPane::clearRootFolder()
{
    root_.clear();
    rootFromProject_ = false;
    tree_->setRootIndex(model_->setRootPath(QString()));
    tree_->setEnabled(false);
    labels_->setDatasetDir(QString());
    folderLabel_->setText(tr("No folder open"));
}

void DataPane::updateBody()
{
    const bool nothingOpen = (!session_ || !session_->hasProject()) && root_.isEmpty();
    body_->setCurrentWidget(nothingOpen ? static_cast<QWidget*>(welcome_) : split_);
}

bool DataPane::isWelcomeShown() const
{
    return body_->currentWidget() == welcome_;
}

QString DataPane::labelDatasetFor(const QString& folder)
{
    const QDir d(folder);
    if (folder.isEmpty() || !d.exists())
        return {};
    if (d.exists(QStringLiteral("images")))
        return d.absolutePath();
    for (const QString& sub : d.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QDir(d.filePath(sub)).exists(QStringLiteral("images")))
            return QDir(d.filePath(sub)).absolutePath();
    return {};
}

QString DataPane::labelDataset() const
{
    return labels_->datasetDir();
}

void DataPane::showLabels(const QString& datasetDir)
{
    setRootFolder(datasetDir);
    labels_->setDatasetDir(datasetDir); // also a folder without images/: it says why
    labels_->setFilter(std::nullopt);
    leftTabs_->setCurrentWidget(labels_);
}

void DataPane::rankImagesToLabel(const QString& runId, const QString& modelPath,
                                 const QString& datasetPath)
{
    if (runId.isEmpty() || !ranking_->modelChooser()->setModelFromRun(runId))
        ranking_->modelChooser()->setModelFile(modelPath);
    setRootFolder(datasetPath);
    labels_->setDatasetDir(datasetPath);
    leftTabs_->setCurrentWidget(ranking_);
    if (labels_->isScanning())
        rankWhenReady_ = true; // the unlabelled images are known once the scan ends
    else
        ranking_->startRanking();
}

DataPane::~DataPane() = default;

QString DataPane::title() const
{
    return tr("Data");
}

QIcon DataPane::icon() const
{
    return style()->standardIcon(QStyle::SP_DirHomeIcon);
}

void DataPane::retranslateUi()
{
    openAction_->setText(tr("Open folder…"));
    openAction_->setToolTip(tr("Choose a folder of images to browse"));
    demoAction_->setText(tr("Generate demo data…"));
    demoAction_->setToolTip(tr("Write a synthetic crack dataset with exact masks"));
    folderLabel_->setText(root_.isEmpty() ? tr("No folder open") : QDir::toNativeSeparators(root_));
    showMask_->setText(tr("Show crack mask"));
    cancel_->setText(tr("Cancel"));
    leftTabs_->setTabText(0, tr("Project"));
    leftTabs_->setTabText(1, tr("Files"));
    leftTabs_->setTabText(2, tr("Labels"));
    leftTabs_->setTabText(3, tr("Label next"));
    leftTabs_->setTabToolTip(0, tr("The datasets and scans of the open project"));
    leftTabs_->setTabToolTip(2, tr("Which images are labelled, proposed or unlabelled"));
    leftTabs_->setTabToolTip(3, tr("Which unlabelled images to label next, by the model's "
                                   "uncertainty"));
    welcome_->retranslateUi();
    contents_->retranslateUi();
    labels_->retranslateUi();
    ranking_->retranslateUi();
    if (image_.isNull())
        preview_->setText(tr("Select an image to preview it."));
    info_->setText(previewInfo());
}

QString DataPane::previewInfo() const
{
    if (!lastError_.isEmpty())
        return lastError_;
    if (image_.isNull())
        return {};
    QString text = tr("%1 × %2 px").arg(image_.width()).arg(image_.height());
    if (crackFraction_ >= 0)
        text += QStringLiteral(" · ") +
                tr("crack pixels: %1 %").arg(QLocale().toString(crackFraction_ * 100, 'f', 2));
    else
        text += QStringLiteral(" · ") + tr("no mask");
    return text;
}

void DataPane::setRootFolder(const QString& folder)
{
    if (!QFileInfo(folder).isDir())
        return;
    root_ = QFileInfo(folder).absoluteFilePath();
    rootFromProject_ = false;
    const QModelIndex idx = model_->setRootPath(root_);
    tree_->setRootIndex(idx);
    tree_->setEnabled(true);
    folderLabel_->setText(QDir::toNativeSeparators(root_));
    const QString labelled = labelDatasetFor(root_);
    if (!labelled.isEmpty())
        labels_->setDatasetDir(labelled);
    contents_->selectDataset(root_);
    updateBody();
}

void DataPane::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open image folder"), root_);
    if (!dir.isEmpty())
        setRootFolder(dir);
}

void DataPane::chooseDemoFolder()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Folder for the demo dataset (empty, or an earlier demo dataset)"), base);
    if (!dir.isEmpty())
        generateDemoData(dir);
}

void DataPane::cancelDemoData()
{
    demoJob_->cancel();
}

void DataPane::generateDemoData(const QString& folder, const synth::DemoDatasetOptions& options)
{
    const std::string dir = folder.toStdString();
    const bool ok = demoJob_->start([dir, options](const CancelToken& c, ProgressSink* sink) {
        return synth::writeDemoDataset(dir, options, c, sink).status();
    });
    if (!ok)
        return;
    setBusy(true);
    connect(
        demoJob_, &JobRunner::finished, this,
        [this, folder](const Status& s) {
            setBusy(false);
            if (s.isOk()) {
                setRootFolder(folder);
                Q_EMIT statusMessage(tr("Demo dataset ready."), 5000);
                Q_EMIT demoDataReady(folder);
            } else {
                Q_EMIT statusMessage(errorMessage(s).section(QLatin1Char('\n'), 0, 0), 0);
                lastError_ = errorMessage(s);
                info_->setText(lastError_);
                Q_EMIT demoDataFailed(s);
            }
        },
        Qt::SingleShotConnection);
}

void DataPane::previewImage(const QString& path)
{
    imagePath_ = path;
    maskPath_ = maskFor(path);
    if (!root_.isEmpty() && path.startsWith(root_)) {
        const QModelIndex idx = model_->index(path); // keep the browser in step
        tree_->setCurrentIndex(idx);
        tree_->scrollTo(idx);
    }
    if (imageJob_->isRunning()) {
        // Newest request wins: the running decode is dropped when it lands.
        imageJob_->cancel();
        return;
    }
    auto image = std::make_shared<QImage>();
    auto mask = std::make_shared<Image>();
    const std::string ip = path.toStdString(), mp = maskPath_.toStdString();
    imageJob_->start([=](const CancelToken&, ProgressSink*) -> Status {
        auto im = readImage(ip);
        if (!im)
            return im.status();
        *image = toQImage(*im);
        if (!mp.empty()) {
            auto m = readImage(mp);
            if (m && m->width == im->width && m->height == im->height)
                *mask = std::move(*m);
        }
        return Status::ok();
    });
    connect(
        imageJob_, &JobRunner::finished, this,
        [this, path, image, mask](const Status& s) {
            if (path != imagePath_) { // a newer selection arrived meanwhile
                previewImage(imagePath_);
                return;
            }
            lastError_.clear();
            if (!s.isOk()) {
                image_ = QImage();
                overlay_ = QImage();
                lastError_ = errorMessage(s);
                preview_->setPixmap({});
                preview_->setText(tr("Cannot show this image."));
            } else {
                image_ = *image;
                if (!mask->empty()) {
                    size_t n = 0;
                    for (size_t i = 0; i < mask->pixels.size(); i += mask->channels)
                        n += mask->pixels[i] != 0;
                    crackFraction_ = double(n) / (double(mask->width) * mask->height);
                    overlay_ = overlayMask(image_, *mask, QColor(255, 40, 40), 0.6);
                } else {
                    crackFraction_ = -1;
                    overlay_ = QImage();
                }
            }
            refreshPreview();
            Q_EMIT previewReady();
        },
        Qt::SingleShotConnection);
}

void DataPane::refreshPreview()
{
    showMask_->setEnabled(!overlay_.isNull());
    shown_ = (showMask_->isChecked() && !overlay_.isNull()) ? overlay_ : image_;
    info_->setText(previewInfo());
    if (shown_.isNull())
        return;
    // Nearest-neighbour when enlarging keeps thin cracks crisp; smooth when shrinking.
    const QSize target = preview_->size();
    const bool enlarge = shown_.width() < target.width() && shown_.height() < target.height();
    preview_->setPixmap(QPixmap::fromImage(shown_.scaled(
        target, Qt::KeepAspectRatio, enlarge ? Qt::FastTransformation : Qt::SmoothTransformation)));
}

void DataPane::resizeEvent(QResizeEvent* e)
{
    Pane::resizeEvent(e);
    refreshPreview();
}

void DataPane::setBusy(bool busy)
{
    progress_->setVisible(busy);
    progressText_->setVisible(busy);
    cancel_->setVisible(busy);
    demoAction_->setEnabled(!busy);
    if (busy)
        progress_->setValue(0);
}

bool DataPane::isBusy() const
{
    return demoJob_->isRunning() || imageJob_->isRunning();
}

void DataPane::saveState(QSettings& s) const
{
    s.setValue(QStringLiteral("data/folder"), root_);
    saveSplitters(s, this, QStringLiteral("data/splitters"));
}

void DataPane::restoreState(QSettings& s)
{
    restoreSplitters(s, this, QStringLiteral("data/splitters"));
    const QString f = s.value(QStringLiteral("data/folder")).toString();
    if (!f.isEmpty() && QFileInfo(f).isDir())
        setRootFolder(f);
}

} // namespace fisura::ui
