#include "inspect/inspectpane.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "common/errortext.h"
#include "common/preference.h"
#include "common/screenfit.h"
#include "common/thresholdtext.h"
#include "inspect/compare/comparedates.h"
#include "inspect/measurepanel.h"
#include "inspect/truthpanel.h"
#include "label/labelmodecontroller.h"
#include "label/labelpanel.h"
#include "project/projectsession.h"
#include "viewer/overviewmap.h"
#include "viewer/tiledviewer.h"
#include "viewer/viewerruler.h"

namespace fisura::ui
{

namespace
{
const Preference<QString> kLastDir(QStringLiteral("inspect/lastFolder"), QString());

const QString kTiffFilter = QStringLiteral(" (*.tif *.tiff *.TIF *.TIFF)");
} // namespace

InspectPane::InspectPane(QWidget* parent)
    : Pane(parent), viewer_(new TiledViewer(this)),
      second_(new TiledViewer(this, viewer_->tileCache())),
      overview_(new OverviewMap(viewer_, this)), truth_(new TruthPanel(viewer_, this)),
      measure_(new MeasurePanel(viewer_, this)), dates_(new CompareDatesPanel(viewer_, this)),
      ruler_(new ViewerRuler(viewer_)),
      labelMode_(new LabelModeController(viewer_, this,
                                         [this](const QString& path) { return openScan(path); })),
      toolbar_(new QToolBar(this)), fileLabel_(new QLabel(this)), layersBox_(new QGroupBox(this)),
      layers_(new QListWidget(this)), upButton_(new QToolButton(this)),
      downButton_(new QToolButton(this)), removeButton_(new QToolButton(this)),
      colorMapLabel_(new QLabel(this)), colorMap_(new QComboBox(this)),
      opacityLabel_(new QLabel(this)), opacity_(new QSlider(Qt::Horizontal, this)),
      thresholdLabel_(new QLabel(this)), threshold_(new QSlider(Qt::Horizontal, this)),
      thresholdValue_(new QLabel(this)), outline_(new QCheckBox(this)),
      compareBox_(new QGroupBox(this)), modeLabel_(new QLabel(this)), modeBox_(new QComboBox(this)),
      leftLabel_(new QLabel(this)), left_(new QComboBox(this)), rightLabel_(new QLabel(this)),
      right_(new QComboBox(this)), overviewProgress_(new QProgressBar(this)),
      overviewLabel_(new QLabel(this))
{
    viewer_->setOverviewCacheDir(
        QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
            .filePath(QStringLiteral("overviews")));

    QStyle* st = style();
    openAction_ = toolbar_->addAction(st->standardIcon(QStyle::SP_DialogOpenButton), QString(),
                                      this, &InspectPane::chooseScan);
    openAction_->setObjectName(QStringLiteral("openScanAction"));
    overlayAction_ = toolbar_->addAction(st->standardIcon(QStyle::SP_FileDialogNewFolder),
                                         QString(), this, &InspectPane::chooseOverlay);
    overlayAction_->setObjectName(QStringLiteral("addOverlayAction"));
    toolbar_->addSeparator();
    fitAction_ = toolbar_->addAction(QString(), viewer_, &TiledViewer::fitToWindow);
    fitAction_->setObjectName(QStringLiteral("fitAction"));
    actualAction_ = toolbar_->addAction(QString(), viewer_, &TiledViewer::actualSize);
    actualAction_->setObjectName(QStringLiteral("actualSizeAction"));
    compareAction_ = toolbar_->addAction(QString());
    compareAction_->setObjectName(QStringLiteral("compareAction"));
    compareAction_->setCheckable(true);
    connect(compareAction_, &QAction::toggled, this, &InspectPane::updateCompare);
    measureAction_ = toolbar_->addAction(QString(), this, &InspectPane::measureCracks);
    measureAction_->setObjectName(QStringLiteral("measureAction"));
    datesAction_ = toolbar_->addAction(QString(), this, &InspectPane::startCompareDates);
    datesAction_->setObjectName(QStringLiteral("compareDatesAction"));
    rulerAction_ = toolbar_->addAction(QString(), ruler_, &ViewerRuler::setActive);
    rulerAction_->setObjectName(QStringLiteral("rulerAction"));
    rulerAction_->setCheckable(true);
    toolbar_->addSeparator();
    snapshotAction_ = toolbar_->addAction(st->standardIcon(QStyle::SP_DialogSaveButton), QString(),
                                          this, &InspectPane::chooseSnapshot);
    snapshotAction_->setObjectName(QStringLiteral("snapshotAction"));
    toolbar_->insertAction(snapshotAction_, labelMode_->action());
    toolbar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar_->addSeparator();
    toolbar_->addWidget(fileLabel_);

    buildLayerControls();

    left_->setObjectName(QStringLiteral("compareLeft"));
    right_->setObjectName(QStringLiteral("compareRight"));
    connect(left_, &QComboBox::currentIndexChanged, this, &InspectPane::updateCompare);
    connect(right_, &QComboBox::currentIndexChanged, this, &InspectPane::updateCompare);
    modeBox_->setObjectName(QStringLiteral("compareMode"));
    connect(modeBox_, &QComboBox::currentIndexChanged, this, &InspectPane::updateCompare);
    auto* cf = new QFormLayout(compareBox_);
    cf->addRow(modeLabel_, modeBox_);
    cf->addRow(leftLabel_, left_);
    cf->addRow(rightLabel_, right_);
    compareBox_->setVisible(false);

    overviewProgress_->setRange(0, 1000);
    overviewProgress_->setVisible(false);
    overviewLabel_->setVisible(false);

    auto* side = new QWidget(this);
    auto* sl = new QVBoxLayout(side);
    sl->setContentsMargins(4, 4, 4, 4);
    sl->addWidget(overview_);
    sl->addWidget(overviewLabel_);
    sl->addWidget(overviewProgress_);
    sl->addWidget(labelMode_->panel());
    sl->addWidget(layersBox_, 1);
    sl->addWidget(dates_);
    sl->addWidget(truth_);
    sl->addWidget(measure_);
    sl->addWidget(compareBox_);
    // As wide as its panels need in the language shown; scrolls when the window is low.
    QScrollArea* sideScroll = scrollingPanel(side, this);
    connect(truth_, &TruthPanel::compareRequested, this, &InspectPane::compareWithMap);
    connect(truth_, &TruthPanel::thresholdChanged, this, &InspectPane::onComparisonThreshold);
    connect(truth_, &TruthPanel::statusMessage, this, &Pane::statusMessage);
    connect(measure_, &MeasurePanel::statusMessage, this, &Pane::statusMessage);
    connect(measure_, &MeasurePanel::measureRequested, this, &InspectPane::measureCracks);
    // One threshold: the map layer's. The measurement field shows it and edits it.
    connect(measure_->thresholdBox(), &QDoubleSpinBox::valueChanged, this,
            &InspectPane::onMeasureThreshold);
    connect(dates_, &CompareDatesPanel::statusMessage, this, &Pane::statusMessage);
    connect(dates_, &CompareDatesPanel::swipeRequested, this, &InspectPane::swipeDates);
    connect(labelMode_, &LabelModeController::statusMessage, this, &Pane::statusMessage);
    connect(labelMode_, &LabelModeController::busyChanged, this, &Pane::busyChanged);

    auto* split = new QSplitter(this);
    split->setObjectName(QStringLiteral("inspectSplitter"));
    // Side by side: both views follow each other (centre and zoom).
    second_->setObjectName(QStringLiteral("secondViewer"));
    second_->hide();
    auto* views = new QSplitter(this);
    views->setObjectName(QStringLiteral("inspectViewsSplitter"));
    views->addWidget(viewer_);
    views->addWidget(second_);
    connect(viewer_, &TiledViewer::viewChanged, this, [this] { followView(viewer_, second_); });
    connect(second_, &TiledViewer::viewChanged, this, [this] { followView(second_, viewer_); });
    // The crack table and plots below the views, once something is measured.
    auto* viewsAndResults = new QSplitter(Qt::Vertical, this);
    viewsAndResults->setObjectName(QStringLiteral("inspectResultsSplitter"));
    viewsAndResults->addWidget(views);
    viewsAndResults->addWidget(measure_->resultsView());
    viewsAndResults->addWidget(dates_->resultsView());
    viewsAndResults->setStretchFactor(0, 3);
    viewsAndResults->setStretchFactor(1, 2);
    split->addWidget(viewsAndResults);
    split->addWidget(sideScroll);
    split->setStretchFactor(0, 1);
    split->setSizes({700, 440});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar_);
    layout->addWidget(split, 1);

    connect(viewer_, &TiledViewer::overlaysChanged, this, &InspectPane::refreshLayers);
    connect(viewer_, &TiledViewer::imageOpened, this, &InspectPane::updateViewTools);
    connect(viewer_, &TiledViewer::cursorInfo, this, &InspectPane::showReadout);
    connect(second_, &TiledViewer::cursorInfo, this, &InspectPane::showReadout);
    connect(viewer_, &TiledViewer::overviewProgress, this, [this](double f) {
        const bool busy = f < 1.0;
        overviewProgress_->setVisible(busy);
        overviewLabel_->setVisible(busy);
        overviewProgress_->setValue(int(f * 1000));
    });
    retranslateUi();
    refreshLayers();
}

// The layer list, bottom to top as drawn, with its order buttons and style controls.
void InspectPane::buildLayerControls()
{
    layers_->setObjectName(QStringLiteral("layerList"));
    upButton_->setArrowType(Qt::UpArrow);
    downButton_->setArrowType(Qt::DownArrow);
    removeButton_->setIcon(style()->standardIcon(QStyle::SP_DialogDiscardButton));
    connect(upButton_, &QToolButton::clicked, this, [this] { moveLayer(+1); });
    connect(downButton_, &QToolButton::clicked, this, [this] { moveLayer(-1); });
    connect(removeButton_, &QToolButton::clicked, this,
            [this] { viewer_->removeOverlay(currentLayer()); });
    connect(layers_, &QListWidget::currentRowChanged, this, &InspectPane::showLayerControls);
    connect(layers_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (updating_)
            return;
        const int i = layers_->row(item);
        OverlayStyle s = viewer_->overlayStyle(i);
        s.visible = item->checkState() == Qt::Checked;
        viewer_->setOverlayStyle(i, s);
        if (second_->isVisible())
            second_->setOverlayStyle(i, s);
    });
    colorMap_->setObjectName(QStringLiteral("colorMapBox"));
    opacity_->setObjectName(QStringLiteral("opacitySlider"));
    opacity_->setRange(0, 100);
    threshold_->setObjectName(QStringLiteral("thresholdSlider"));
    threshold_->setRange(0, 255);
    outline_->setObjectName(QStringLiteral("outlineBox"));
    thresholdValue_->setMinimumWidth(30);
    connect(colorMap_, &QComboBox::currentIndexChanged, this, &InspectPane::applyLayerControls);
    connect(opacity_, &QSlider::valueChanged, this, &InspectPane::applyLayerControls);
    connect(threshold_, &QSlider::valueChanged, this, &InspectPane::applyLayerControls);
    connect(outline_, &QCheckBox::toggled, this, &InspectPane::applyLayerControls);

    auto* order = new QHBoxLayout;
    order->addWidget(upButton_);
    order->addWidget(downButton_);
    order->addStretch(1);
    order->addWidget(removeButton_);
    auto* form = new QFormLayout;
    form->addRow(colorMapLabel_, colorMap_);
    form->addRow(opacityLabel_, opacity_);
    auto* thr = new QHBoxLayout;
    thr->addWidget(threshold_, 1);
    thr->addWidget(thresholdValue_);
    form->addRow(thresholdLabel_, thr);
    form->addRow(QString(), outline_);
    auto* ll = new QVBoxLayout(layersBox_);
    ll->addWidget(layers_, 1);
    ll->addLayout(order);
    ll->addLayout(form);
}

InspectPane::~InspectPane() = default;

QString InspectPane::title() const
{
    return tr("Inspect");
}

QIcon InspectPane::icon() const
{
    return style()->standardIcon(QStyle::SP_FileDialogDetailedView);
}

void InspectPane::saveState(QSettings& s) const
{
    if (!lastDir_.isEmpty())
        s.setValue(kLastDir.key(), lastDir_);
    truth_->saveState(s);
    measure_->saveState(s);
    saveSplitters(s, this, QStringLiteral("inspect/splitters"));
}

void InspectPane::restoreState(QSettings& s)
{
    lastDir_ = s.value(kLastDir.key()).toString();
    truth_->restoreState(s);
    measure_->restoreState(s);
    restoreSplitters(s, this, QStringLiteral("inspect/splitters"));
}

void InspectPane::retranslateUi()
{
    openAction_->setText(tr("Open scan…"));
    openAction_->setToolTip(tr("Open a TIFF scan of any size"));
    overlayAction_->setText(tr("Add overlay…"));
    overlayAction_->setToolTip(tr("Lay a probability map or mask of the same size over the scan"));
    fitAction_->setText(tr("Fit"));
    fitAction_->setToolTip(tr("Show the whole scan (Home)"));
    actualAction_->setText(tr("1:1"));
    actualAction_->setToolTip(tr("One scan pixel per screen pixel (1)"));
    compareAction_->setText(tr("Compare"));
    measureAction_->setText(tr("Measure cracks"));
    measureAction_->setToolTip(tr("Count and measure the cracks of the selected map layer"));
    datesAction_->setText(tr("Compare dates…"));
    datesAction_->setToolTip(tr("Align a later scan of this surface and show how its cracks "
                                "changed"));
    rulerAction_->setText(tr("Ruler"));
    updateViewTools();
    snapshotAction_->setText(tr("Snapshot…"));
    snapshotAction_->setToolTip(tr("Save the view with its overlays and scale bar as PNG"));
    fileLabel_->setText(viewer_->hasImage() ? tr("%1 · %2 × %3 px")
                                                  .arg(QFileInfo(viewer_->imagePath()).fileName())
                                                  .arg(viewer_->imageSize().width())
                                                  .arg(viewer_->imageSize().height())
                                            : tr("No scan open"));
    layersBox_->setTitle(tr("Layers (bottom to top)"));
    upButton_->setToolTip(tr("Draw this layer higher"));
    downButton_->setToolTip(tr("Draw this layer lower"));
    removeButton_->setToolTip(tr("Remove this layer"));
    colorMapLabel_->setText(tr("Colours"));
    opacityLabel_->setText(tr("Opacity"));
    thresholdLabel_->setText(tr("Threshold"));
    outline_->setText(tr("Outline only"));
    compareBox_->setTitle(tr("Compare"));
    leftLabel_->setText(tr("Left of divider"));
    rightLabel_->setText(tr("Right of divider"));
    overviewLabel_->setText(tr("Building overview…"));
    modeLabel_->setText(tr("Mode"));
    {
        const QSignalBlocker blockMode(modeBox_);
        const int mode = modeBox_->currentIndex();
        modeBox_->clear();
        modeBox_->addItems({tr("Swipe divider"), tr("Side by side")});
        modeBox_->setCurrentIndex(std::max(0, mode));
    }
    const QSignalBlocker block(colorMap_);
    const int cm = colorMap_->currentIndex();
    colorMap_->clear();
    colorMap_->addItems({tr("Red"), tr("Green"), tr("Blue"), tr("Yellow"), tr("Magenta"),
                         tr("Heat (black–red–yellow–white)"), tr("Custom colour"),
                         tr("Width classes"), tr("Grey (a scan)")});
    colorMap_->setCurrentIndex(std::max(0, cm));
    labelMode_->retranslateUi();
}

void InspectPane::setProjectSession(ProjectSession* session)
{
    session_ = session;
    labelMode_->setProjectSession(session);
}

Status InspectPane::openScan(const QString& path)
{
    // Unsaved labels of the image open now: save, discard or stay.
    if (!labelMode_->leaveImage())
        return Status(ErrorCode::Cancelled, path.toStdString());
    const Status s = viewer_->openImage(path);
    if (!s)
        return s;
    lastDir_ = QFileInfo(path).absolutePath();
    const QFileInfo fi(path);
    const QString mask =
        fi.dir().filePath(fi.completeBaseName() + QStringLiteral("_mask.") + fi.suffix());
    truth_->reset();
    dates_->reset();
    if (QFileInfo::exists(mask))
        truth_->attachTruth(mask); // a mask of another size is not the scan's: left out
    retranslateUi();
    Q_EMIT statusMessage(tr("Opened %1.").arg(fi.fileName()), 5000);
    return {};
}

Status InspectPane::addOverlay(const QString& path)
{
    const Status s = viewer_->addOverlay(path, QFileInfo(path).completeBaseName());
    if (s) {
        lastDir_ = QFileInfo(path).absolutePath();
        layers_->setCurrentRow(viewer_->overlayCount() - 1);
    }
    return s;
}

Status InspectPane::saveSnapshot(const QString& path)
{
    return viewer_->saveSnapshot(path);
}

Status InspectPane::attachTruth(const QString& path)
{
    const Status s = truth_->attachTruth(path);
    if (!s)
        Q_EMIT statusMessage(truth_->message(), 0);
    return s;
}

const ScoreCurve* InspectPane::comparison() const
{
    return truth_->comparison();
}

int InspectPane::mapLayer() const
{
    const auto candidate = [this](int i) {
        return i >= 0 && i < viewer_->overlayCount() && !truth_->isTruthLayer(i) &&
               !truth_->isComparisonLayer(i) && !dates_->isDateLayer(i);
    };
    if (candidate(currentLayer()))
        return currentLayer();
    for (int i = 0; i < viewer_->overlayCount(); ++i)
        if (candidate(i))
            return i;
    return -1;
}

void InspectPane::compareWithMap()
{
    const int i = mapLayer();
    truth_->compare(i >= 0 ? viewer_->overlayPath(i) : QString());
}

void InspectPane::measureCracks()
{
    const int i = mapLayer();
    measure_->measure(i >= 0 ? viewer_->overlayPath(i) : QString(),
                      i >= 0 ? viewer_->overlayStyle(i).threshold : -1);
}

void InspectPane::reportError(const Status& s)
{
    Q_EMIT statusMessage(errorMessage(s).section(QLatin1Char('\n'), 0, 0), 0);
    QMessageBox::warning(this, tr("Inspect"), errorMessage(s));
}

void InspectPane::chooseScan()
{
    const QString start = ProjectSession::dialogFolder(session_, lastDir_);
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open scan"), start, tr("TIFF images") + kTiffFilter);
    if (path.isEmpty())
        return;
    if (const Status s = openScan(path); !s && s.code() != ErrorCode::Cancelled)
        reportError(s);
}

void InspectPane::chooseOverlay()
{
    if (!viewer_->hasImage()) {
        Q_EMIT statusMessage(tr("Open a scan first."), 5000);
        return;
    }
    // A scan's maps are in the project's maps/ folder; without a project beside the scan.
    const bool project = session_ && session_->hasProject();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add overlay"),
        ProjectSession::dialogFolder(session_, project ? QString() : lastDir_,
                                     QStringLiteral("maps")),
        tr("TIFF images") + kTiffFilter);
    if (path.isEmpty())
        return;
    if (const Status s = addOverlay(path); !s)
        reportError(s);
}

void InspectPane::chooseSnapshot()
{
    if (!viewer_->hasImage())
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save snapshot"),
        QDir(lastDir_).filePath(QFileInfo(viewer_->imagePath()).completeBaseName() +
                                QStringLiteral("_view.png")),
        tr("PNG images") + QStringLiteral(" (*.png)"));
    if (path.isEmpty())
        return;
    if (const Status s = saveSnapshot(path); !s)
        reportError(s);
    else
        Q_EMIT statusMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)), 5000);
}

int InspectPane::currentLayer() const
{
    return layers_->currentRow();
}

void InspectPane::refreshLayers()
{
    updating_ = true;
    const int keep = std::min(std::max(0, layers_->currentRow()), viewer_->overlayCount() - 1);
    layers_->clear();
    left_->clear();
    right_->clear();
    for (int i = 0; i < viewer_->overlayCount(); ++i) {
        auto* item = new QListWidgetItem(viewer_->overlayName(i), layers_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(viewer_->overlayStyle(i).visible ? Qt::Checked : Qt::Unchecked);
        left_->addItem(viewer_->overlayName(i));
        right_->addItem(viewer_->overlayName(i));
    }
    right_->setCurrentIndex(std::min(1, right_->count() - 1));
    updating_ = false;
    layers_->setCurrentRow(keep);
    showLayerControls();
    updateCompare();
    overlayAction_->setEnabled(viewer_->hasImage());
    measureAction_->setEnabled(viewer_->hasImage());
    datesAction_->setEnabled(viewer_->hasImage());
    snapshotAction_->setEnabled(viewer_->hasImage());
    updateViewTools();
}

void InspectPane::updateViewTools()
{
    // Compare and Ruler work on a scan: without one they are off and say why (they toggled
    // with nothing to show before).
    const bool scan = viewer_->hasImage();
    const bool two = viewer_->overlayCount() >= 2;
    compareAction_->setEnabled(scan && two);
    if (!compareAction_->isEnabled() && compareAction_->isChecked())
        compareAction_->setChecked(false);
    compareAction_->setToolTip(!scan  ? tr("Open a scan first: Compare swipes between two of its "
                                            "layers.")
                               : !two ? tr("Add a second layer (a map or a mask) to compare two "
                                           "layers.")
                                      : tr("Swipe between two layers with a divider"));
    rulerAction_->setEnabled(scan);
    if (!scan && rulerAction_->isChecked()) {
        rulerAction_->setChecked(false);
        ruler_->setActive(false);
    }
    rulerAction_->setToolTip(scan ? tr("Drag on the scan to measure a distance in millimetres")
                                  : tr("Open a scan first: the ruler measures distances on it."));
}

void InspectPane::showLayerControls()
{
    const int i = currentLayer();
    const bool has = i >= 0 && i < viewer_->overlayCount();
    for (QWidget* w : std::initializer_list<QWidget*>{colorMap_, opacity_, threshold_, outline_,
                                                      upButton_, downButton_, removeButton_})
        w->setEnabled(has);
    if (!has)
        return;
    // Comparison layers follow the comparison threshold of the Ground truth section.
    threshold_->setEnabled(!truth_->isComparisonLayer(i));
    const OverlayStyle s = viewer_->overlayStyle(i);
    updating_ = true;
    colorMap_->setCurrentIndex(int(s.colorMap));
    opacity_->setValue(int(std::lround(s.opacity * 100)));
    threshold_->setValue(s.threshold);
    thresholdValue_->setText(mapByteText(s.threshold));
    outline_->setChecked(s.outline);
    updating_ = false;
    syncMeasureThreshold();
}

void InspectPane::applyLayerControls()
{
    thresholdValue_->setText(mapByteText(threshold_->value()));
    if (updating_)
        return;
    const int i = currentLayer();
    if (i < 0 || i >= viewer_->overlayCount())
        return;
    OverlayStyle s = viewer_->overlayStyle(i);
    s.colorMap = ColorMap(std::max(0, colorMap_->currentIndex()));
    s.opacity = opacity_->value() / 100.0;
    s.threshold = threshold_->value();
    s.outline = outline_->isChecked();
    viewer_->setOverlayStyle(i, s);
    if (second_->isVisible())
        second_->setOverlayStyle(i, s);
    if (!truth_->comparedMap().isEmpty() && viewer_->overlayPath(i) == truth_->comparedMap())
        truth_->setThreshold(s.threshold);
    syncMeasureThreshold();
}

void InspectPane::moveLayer(int delta)
{
    const int i = currentLayer();
    const int to = i + delta;
    if (i < 0 || to < 0 || to >= viewer_->overlayCount())
        return;
    viewer_->moveOverlay(i, to);
    layers_->setCurrentRow(to);
}

} // namespace fisura::ui
