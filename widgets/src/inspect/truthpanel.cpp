#include "inspect/truthpanel.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <utility>

#include "common/errortext.h"
#include "common/imageprobe.h"
#include "common/jobrunner.h"
#include "common/thresholdtext.h"
#include "fisura/image.h"
#include "fisura/raster.h"
#include "fisura/tiledimage.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

namespace
{

constexpr double kLayerOpacity = 0.85;

QString cacheRoot()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
        .filePath(QStringLiteral("comparison"));
}

// Identifies a file's contents cheaply: path, size and modification time.
void addFileKey(QCryptographicHash& h, const QString& path)
{
    const QFileInfo fi(path);
    h.addData(fi.absoluteFilePath().toUtf8());
    h.addData(QByteArray::number(fi.size()));
    h.addData(QByteArray::number(fi.lastModified().toMSecsSinceEpoch()));
}

} // namespace

TruthPanel::TruthPanel(TiledViewer* viewer, QWidget* parent)
    : QGroupBox(parent), viewer_(viewer), runner_(new JobRunner(this)),
      converter_(new JobRunner(this)), truthLabel_(new QLabel(this)),
      attachButton_(new QPushButton(this)), toleranceLabel_(new QLabel(this)),
      tolerance_(new QSpinBox(this)), compareButton_(new QPushButton(this)),
      cancelButton_(new QPushButton(this)), showButton_(new QPushButton(this)),
      progress_(new QProgressBar(this)), message_(new QLabel(this)),
      thresholdLabel_(new QLabel(this)), threshold_(new QSlider(Qt::Horizontal, this)),
      summary_(new ComparisonSummary(this))
{
    setObjectName(QStringLiteral("truthPanel"));
    truthLabel_->setObjectName(QStringLiteral("truthLabel"));
    truthLabel_->setWordWrap(true);
    attachButton_->setObjectName(QStringLiteral("attachTruthButton"));
    tolerance_->setObjectName(QStringLiteral("toleranceSpin"));
    tolerance_->setRange(0, 32);
    tolerance_->setValue(2);
    compareButton_->setObjectName(QStringLiteral("compareButton"));
    cancelButton_->setObjectName(QStringLiteral("cancelComparisonButton"));
    showButton_->setObjectName(QStringLiteral("showComparisonButton"));
    showButton_->setCheckable(true);
    progress_->setObjectName(QStringLiteral("comparisonProgress"));
    progress_->setRange(0, 1000);
    message_->setObjectName(QStringLiteral("truthMessage"));
    message_->setWordWrap(true);
    threshold_->setObjectName(QStringLiteral("comparisonThresholdSlider"));
    threshold_->setRange(1, 255);
    threshold_->setValue(128);
    auto* tol = new QHBoxLayout;
    tol->addWidget(toleranceLabel_);
    tol->addWidget(tolerance_);
    tol->addStretch(1);
    auto* run = new QHBoxLayout;
    run->addWidget(compareButton_, 1);
    run->addWidget(cancelButton_);
    auto* thr = new QHBoxLayout;
    thr->addWidget(thresholdLabel_);
    thr->addWidget(threshold_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(truthLabel_);
    layout->addWidget(attachButton_);
    layout->addLayout(tol);
    layout->addLayout(run);
    layout->addWidget(progress_);
    layout->addWidget(message_);
    layout->addWidget(showButton_);
    layout->addLayout(thr);
    layout->addWidget(summary_);

    connect(attachButton_, &QPushButton::clicked, this, &TruthPanel::chooseTruth);
    connect(compareButton_, &QPushButton::clicked, this, &TruthPanel::compareRequested);
    connect(cancelButton_, &QPushButton::clicked, this, &TruthPanel::cancel);
    connect(showButton_, &QPushButton::toggled, this, &TruthPanel::setComparisonShown);
    connect(threshold_, &QSlider::valueChanged, this, [this](int t) {
        applyThreshold();
        showNumbers();
        Q_EMIT thresholdChanged(t);
    });
    connect(tolerance_, &QSpinBox::valueChanged, this, [this] {
        if (curve_ && curve_->tolerance != tolerance_->value())
            showMessage(tr("The tolerance changed: compare again to update the layers and the "
                           "numbers."));
    });
    connect(runner_, &JobRunner::progress, this,
            [this](double f, const QString&, double) { progress_->setValue(int(f * 1000)); });
    // A discarded comparison ends here too: start the one asked for meanwhile.
    connect(runner_, &JobRunner::finished, this, [this] {
        if (!queuedMap_.isEmpty())
            compare(std::exchange(queuedMap_, QString()));
        updateEnabled();
    });
    connect(summary_, &ComparisonSummary::colourChanged, this, &TruthPanel::recolourLayer);
    connect(converter_, &JobRunner::finished, this, &TruthPanel::onCopyFinished);
    retranslateUi();
    updateEnabled();
}

TruthPanel::~TruthPanel() = default;

void TruthPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(e);
}

void TruthPanel::retranslateUi()
{
    setTitle(tr("Ground truth"));
    truthLabel_->setText(truthPath_.isEmpty()
                             ? tr("No ground truth attached.")
                             : tr("Attached: %1").arg(QFileInfo(truthPath_).fileName()));
    truthLabel_->setToolTip(QDir::toNativeSeparators(truthPath_));
    attachButton_->setText(tr("Attach ground truth…"));
    attachButton_->setToolTip(tr("A crack mask (TIFF or PNG) of the scan's size"));
    toleranceLabel_->setText(tr("Tolerance"));
    tolerance_->setSuffix(tr(" px"));
    tolerance_->setToolTip(tr("A prediction this close to a crack of the ground truth counts as "
                              "correct, and a crack this close to a prediction counts as found"));
    compareButton_->setText(tr("Compare with the map"));
    compareButton_->setToolTip(
        tr("Score the selected probability map against the ground truth, pixel by pixel"));
    cancelButton_->setText(tr("Cancel"));
    showButton_->setText(tr("Show the comparison"));
    showButton_->setToolTip(tr("Colour true positives, false positives and missed cracks instead "
                               "of the map; click again to see the map"));
    thresholdLabel_->setText(tr("Threshold"));
    threshold_->setToolTip(tr("The crack probability from which a pixel counts as predicted"));
    showNumbers();
    renameLayers();
}

void TruthPanel::renameLayers()
{
    // The layers this panel added carry translated names: name them again in the new language.
    if (const int i = overlayIndexOf(truthLayer_); !truthLayer_.isEmpty() && i >= 0)
        viewer_->setOverlayName(i, tr("Ground truth"));
    if (!curve_)
        return;
    const std::array<std::string, 3> paths = {curve_->tpPath, curve_->fpPath, curve_->fnPath};
    for (int k = 0; k < 3; ++k)
        if (const int i = overlayIndexOf(QString::fromStdString(paths[size_t(k)])); i >= 0)
            viewer_->setOverlayName(i, summary_->kindName(Kind(k)));
}

void TruthPanel::saveState(QSettings& s) const
{
    for (int k = 0; k < 3; ++k)
        s.setValue(QStringLiteral("inspect/truthColour/") +
                       QString::fromLatin1(ComparisonSummary::kindKey(ComparisonSummary::Kind(k))),
                   colour(Kind(k)).name());
    s.setValue(QStringLiteral("inspect/truthTolerance"), tolerance_->value());
}

void TruthPanel::restoreState(QSettings& s)
{
    for (int k = 0; k < 3; ++k) {
        const QColor c(
            s.value(QStringLiteral("inspect/truthColour/") +
                    QString::fromLatin1(ComparisonSummary::kindKey(ComparisonSummary::Kind(k))))
                .toString());
        if (c.isValid())
            setColour(Kind(k), c);
    }
    tolerance_->setValue(s.value(QStringLiteral("inspect/truthTolerance"), 2).toInt());
}

void TruthPanel::reset()
{
    runner_->discard(); // a late result belongs to the previous scan
    queuedMap_.clear();
    copyWanted_.clear();
    discardComparison();
    truthPath_.clear();
    truthLayer_.clear();
    mapPath_.clear();
    showMessage(QString());
    retranslateUi();
    updateEnabled();
}

int TruthPanel::overlayIndexOf(const QString& path) const
{
    if (path.isEmpty())
        return -1;
    for (int i = 0; i < viewer_->overlayCount(); ++i)
        if (viewer_->overlayPath(i) == path)
            return i;
    return -1;
}

Status TruthPanel::checkSize(const QString& path)
{
    if (!viewer_->hasImage()) {
        showMessage(tr("Open a scan first."));
        return Status(ErrorCode::InvalidArgument, "no scan is open");
    }
    if (!QFileInfo(path).isFile()) {
        showMessage(tr("The ground truth %1 does not exist.").arg(QFileInfo(path).fileName()));
        return Status(ErrorCode::NotFound, path.toStdString());
    }
    const auto probed = probeImageFile(path);
    if (!probed) {
        showMessage(tr("The ground truth cannot be read: %1").arg(errorMessage(probed.status())));
        return probed.status();
    }
    const QSize size(probed->width, probed->height);
    const QSize scan = viewer_->imageSize();
    if (size != scan) {
        const QLocale l;
        showMessage(tr("The ground truth is %1 × %2 px but the scan is %3 × %4 px: a "
                       "ground-truth mask must have the scan's size.")
                        .arg(l.toString(size.width()), l.toString(size.height()),
                             l.toString(scan.width()), l.toString(scan.height())));
        return Status(ErrorCode::InvalidArgument,
                      path.toStdString() + ": " + std::to_string(size.width()) + "x" +
                          std::to_string(size.height()) + " differs from the scan's " +
                          std::to_string(scan.width()) + "x" + std::to_string(scan.height()));
    }
    return {};
}

Status TruthPanel::attachTruth(const QString& path)
{
    if (const Status s = checkSize(path); !s)
        return s;
    runner_->discard();
    queuedMap_.clear();
    discardComparison();
    if (const int old = overlayIndexOf(truthLayer_); old >= 0 && truthLayer_ != path)
        viewer_->removeOverlay(old);
    truthPath_ = path;
    truthLayer_.clear();
    showMessage({});
    showTruthLayer(path);
    retranslateUi();
    updateEnabled();
    return {};
}

void TruthPanel::showTruthLayer(const QString& path)
{
    OverlayStyle style;
    style.colorMap = ColorMap::Green;
    style.opacity = 0.5;
    style.threshold = 1;
    if (rasterFormatOf(path.toStdString()) == RasterFormat::Tiff) {
        truthLayer_ = path;
        if (overlayIndexOf(path) < 0)
            viewer_->addOverlay(path, tr("Ground truth"), style);
        return;
    }
    // The viewer reads TIFF only: another mask is shown through a TIFF copy (decoded off the GUI
    // thread; masks small enough for PNG are small enough to decode whole).
    QCryptographicHash h(QCryptographicHash::Sha1);
    addFileKey(h, path);
    const QString copy = QDir(cacheRoot())
                             .filePath(QString::fromLatin1(h.result().toHex().left(16)) +
                                       QStringLiteral("-truth.tif"));
    if (QFileInfo::exists(copy)) {
        truthLayer_ = copy;
        if (overlayIndexOf(copy) < 0)
            viewer_->addOverlay(copy, tr("Ground truth"), style);
        return;
    }
    copyWanted_ = copy;
    startCopy();
}

void TruthPanel::startCopy()
{
    if (converter_->isRunning() || copyWanted_.isEmpty())
        return;
    QDir().mkpath(cacheRoot());
    copyRunning_ = copyWanted_;
    converter_->start([src = truthPath_.toStdString(), dst = copyRunning_.toStdString()](
                          const CancelToken&, ProgressSink*) -> Status {
        auto img = readImage(src);
        if (!img)
            return img.status();
        return writeTiff(dst, *img);
    });
}

void TruthPanel::onCopyFinished(const Status& s)
{
    const QString done = std::exchange(copyRunning_, QString());
    if (done != copyWanted_) { // another truth was attached meanwhile
        startCopy();
        return;
    }
    copyWanted_.clear();
    if (!s) {
        showMessage(tr("The ground truth cannot be shown: %1").arg(errorMessage(s)));
        return;
    }
    OverlayStyle style;
    style.colorMap = ColorMap::Green;
    style.opacity = 0.5;
    style.threshold = 1;
    truthLayer_ = done;
    viewer_->addOverlay(done, tr("Ground truth"), style);
}

void TruthPanel::chooseTruth()
{
    const QString start =
        viewer_->hasImage() ? QFileInfo(viewer_->imagePath()).absolutePath() : QString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Attach ground truth"), start,
        tr("Masks") + QStringLiteral(" (*.tif *.tiff *.png *.TIF *.TIFF *.PNG)"));
    if (path.isEmpty())
        return;
    if (!attachTruth(path))
        QMessageBox::warning(this, tr("Ground truth"), message());
}

bool TruthPanel::isTruthLayer(int i) const
{
    return i >= 0 && !truthLayer_.isEmpty() && i == overlayIndexOf(truthLayer_);
}

bool TruthPanel::isComparisonLayer(int i) const
{
    for (int k = 0; k < 3; ++k)
        if (i >= 0 && i == layerIndex(Kind(k)))
            return true;
    return false;
}

int TruthPanel::layerIndex(Kind kind) const
{
    if (!curve_)
        return -1;
    const std::array<const std::string*, 3> paths = {&curve_->tpPath, &curve_->fpPath,
                                                     &curve_->fnPath};
    const std::string& p = *paths[size_t(kind)];
    return overlayIndexOf(QString::fromStdString(p));
}

QString TruthPanel::cacheFolder(const QString& mapPath) const
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    addFileKey(h, mapPath);
    addFileKey(h, truthPath_);
    h.addData(QByteArray::number(tolerance_->value()));
    return QDir(cacheRoot()).filePath(QString::fromLatin1(h.result().toHex().left(16)));
}

Status TruthPanel::compare(const QString& mapPath, bool show)
{
    showWhenDone_ = show;
    if (truthPath_.isEmpty()) {
        showMessage(tr("Attach a ground truth first."));
        return Status(ErrorCode::InvalidArgument, "no ground truth attached");
    }
    if (mapPath.isEmpty()) {
        showMessage(tr("Add a probability map as a layer to compare it with the ground truth."));
        return Status(ErrorCode::InvalidArgument, "no map to compare");
    }
    discardComparison();
    mapPath_ = mapPath;
    if (runner_->isRunning()) {
        // Restart with the new inputs once the running comparison has stopped.
        runner_->discard();
        queuedMap_ = mapPath;
        updateEnabled();
        return {};
    }
    ScoreOptions o;
    o.tolerance = tolerance_->value();
    o.layersPrefix = QDir(cacheFolder(mapPath)).filePath(QStringLiteral("layer")).toStdString();
    const std::string map = mapPath.toStdString(), truth = truthPath_.toStdString();
    runner_->start<ScoreCurve>(
        [=](const CancelToken& cancel, ProgressSink* sink) {
            return scoreMap(map, truth, o, cancel, sink);
        },
        [this](Result<ScoreCurve> result) { onComparisonFinished(std::move(result)); });
    progress_->setValue(0);
    showMessage(tr("Comparing %1 with the ground truth…").arg(QFileInfo(mapPath).fileName()));
    updateEnabled();
    showNumbers();
    return {};
}

bool TruthPanel::isRunning() const
{
    return runner_->isRunning();
}

void TruthPanel::cancel()
{
    runner_->cancel();
}

void TruthPanel::onComparisonFinished(Result<ScoreCurve> result)
{
    const Status s = result.status();
    if (result) {
        curve_ = std::make_unique<ScoreCurve>(std::move(*result));
        addComparisonLayers(showWhenDone_);
        const ScoreCounts c = curve_->at(threshold());
        showMessage({});
        Q_EMIT statusMessage(tr("Compared with the ground truth: F1 %1 at threshold %2.")
                                 .arg(QLocale().toString(c.f1, 'f', 3), mapByteText(threshold())),
                             5000);
    } else if (s.code() == ErrorCode::Cancelled) {
        showMessage(tr("The comparison was cancelled."));
    } else {
        showMessage(tr("The comparison failed: %1").arg(errorMessage(s)));
    }
    updateEnabled();
    showNumbers();
    Q_EMIT comparisonFinished(s);
}

void TruthPanel::addComparisonLayers(bool visible)
{
    const std::array<std::string, 3> paths = {curve_->tpPath, curve_->fpPath, curve_->fnPath};
    for (int k = 0; k < 3; ++k) {
        OverlayStyle st;
        st.visible = false; // setComparisonShown() decides what is in view
        st.colorMap = ColorMap::Custom;
        st.color = colour(Kind(k));
        st.opacity = kLayerOpacity;
        st.threshold = k == ComparisonSummary::FalseNegative ? 256 - threshold() : threshold();
        const Status s = viewer_->addOverlay(QString::fromStdString(paths[size_t(k)]),
                                             summary_->kindName(Kind(k)), st);
        if (!s)
            showMessage(errorMessage(s));
    }
    setComparisonShown(visible);
}

void TruthPanel::setComparisonShown(bool shown)
{
    shown = shown && curve_; // nothing to show before a comparison has finished
    if (showButton_->isChecked() != shown) {
        showButton_->setChecked(shown); // comes back here through toggled()
        return;
    }
    if (!curve_)
        return;
    const auto setVisible = [this](int i, bool on) {
        if (i < 0 || viewer_->overlayStyle(i).visible == on)
            return;
        OverlayStyle st = viewer_->overlayStyle(i);
        st.visible = on;
        viewer_->setOverlayStyle(i, st);
    };
    // The map and the truth are what the three layers are made of: hidden while the colours are
    // in view so those read alone; the map comes back when the comparison goes.
    setVisible(overlayIndexOf(mapPath_), !shown);
    if (shown)
        setVisible(overlayIndexOf(truthLayer_), false);
    for (int k = 0; k < 3; ++k)
        setVisible(layerIndex(Kind(k)), shown);
}

bool TruthPanel::isComparisonShown() const
{
    return curve_ && showButton_->isChecked();
}

void TruthPanel::discardComparison()
{
    // Only the current comparison's layers are kept in the cache: a scan's layers are as large
    // as its map.
    if (!curve_)
        return;
    for (int k = 0; k < 3; ++k)
        if (const int i = layerIndex(Kind(k)); i >= 0)
            viewer_->removeOverlay(i);
    const QString folder = QFileInfo(QString::fromStdString(curve_->tpPath)).absolutePath();
    curve_.reset();
    if (!folder.isEmpty() && folder.startsWith(cacheRoot()))
        QDir(folder).removeRecursively();
}

int TruthPanel::threshold() const
{
    return threshold_->value();
}

void TruthPanel::setThreshold(int threshold)
{
    threshold_->setValue(std::clamp(threshold, 1, 255));
}

int TruthPanel::tolerance() const
{
    return tolerance_->value();
}

void TruthPanel::setTolerance(int px)
{
    tolerance_->setValue(px);
}

void TruthPanel::recolourLayer(int kind, const QColor& colour)
{
    if (const int i = layerIndex(Kind(kind)); i >= 0) {
        OverlayStyle st = viewer_->overlayStyle(i);
        st.colorMap = ColorMap::Custom;
        st.color = colour;
        viewer_->setOverlayStyle(i, st);
    }
}

QString TruthPanel::message() const
{
    return messageText_;
}

void TruthPanel::applyThreshold()
{
    // TP and FP layers hold map values; the FN layer holds 255 - (best value nearby).
    const int t = threshold();
    for (int k = 0; k < 3; ++k)
        if (const int i = layerIndex(Kind(k)); i >= 0) {
            OverlayStyle st = viewer_->overlayStyle(i);
            st.threshold = k == ComparisonSummary::FalseNegative ? 256 - t : t;
            viewer_->setOverlayStyle(i, st);
        }
}

void TruthPanel::showNumbers()
{
    summary_->showCounts(curve_.get(), threshold(),
                         curve_ ? curve_->tolerance : tolerance_->value());
}

void TruthPanel::showMessage(const QString& text)
{
    messageText_ = text;
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

void TruthPanel::updateEnabled()
{
    const bool running = runner_->isRunning() || !queuedMap_.isEmpty();
    attachButton_->setEnabled(viewer_->hasImage() && !running);
    compareButton_->setEnabled(!truthPath_.isEmpty() && !running);
    tolerance_->setEnabled(!running);
    cancelButton_->setVisible(running);
    showButton_->setEnabled(curve_ != nullptr);
    if (!curve_)
        showButton_->setChecked(false);
    progress_->setVisible(running);
}

} // namespace fisura::ui
