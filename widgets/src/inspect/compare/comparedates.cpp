#include "inspect/compare/comparedates.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <utility>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "fisura/raster.h"
#include "inspect/compare/alignsettings.h"
#include "inspect/compare/changeoverlay.h"
#include "inspect/compare/changetable.h"
#include "inspect/compare/changetext.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

namespace
{
// One step of the comparison reports into its share [from, to) of the whole, named by a stage id
// that the panel translates (core's own messages are not for the screen).
class StageSink final : public ProgressSink
{
public:
    StageSink(ProgressSink* out, double from, double to, const char* stage)
        : out_(out), from_(from), to_(to), stage_(stage)
    {
        if (out_) {
            Progress p;
            p.fraction = from_;
            p.message = stage_;
            out_->report(p);
        }
    }
    void report(const Progress& p) override
    {
        if (!out_)
            return;
        Progress q = p;
        q.fraction = p.fraction < 0 ? from_ : from_ + (to_ - from_) * std::min(1.0, p.fraction);
        q.message = stage_;
        out_->report(q);
    }

private:
    ProgressSink* out_;
    double from_, to_;
    std::string stage_;
};

struct Job {
    std::string earlierScan, earlierMap, laterScan, laterMap, alignedMap, laterScanOut;
    CompareOptions options;
    AlignOptions align;
};

Result<ChangeResult> runComparison(const Job& j, const CancelToken& cancel, ProgressSink* sink)
{
    Result<AlignResult> al = [&] {
        StageSink s(sink, 0.0, 0.45, "align");
        return alignScans(j.earlierScan, j.laterScan, j.align, cancel, &s);
    }();
    if (!al)
        return al.status();
    WarpMapOptions wo;
    wo.pixelSizeMm = j.options.measure.pixelSizeMm;
    {
        StageSink s(sink, 0.45, 0.6, "warp_map");
        if (const Status w = warpMapToBefore(j.laterMap, *al, j.alignedMap, wo, cancel, &s); !w)
            return w;
    }
    {
        StageSink s(sink, 0.6, 0.75, "warp_scan");
        if (const Status w = warpMapToBefore(j.laterScan, *al, j.laterScanOut, wo, cancel, &s); !w)
            return w;
    }
    StageSink s(sink, 0.75, 1.0, "compare");
    return compareCrackMaps(j.earlierMap, j.alignedMap, *al, j.options, cancel, &s);
}
} // namespace

CompareDatesPanel::CompareDatesPanel(TiledViewer* viewer, QWidget* parent)
    : QGroupBox(parent), viewer_(viewer), runner_(new JobRunner(this)), message_(new QLabel(this)),
      progress_(new QProgressBar(this)), cancel_(new QPushButton(this)), summary_(new QLabel(this)),
      showChanges_(new QCheckBox(this)), swipe_(new QPushButton(this)), table_(new ChangeTable),
      overlay_(new ChangeOverlay(viewer)), align_(new AlignSettings(this))
{
    setObjectName(QStringLiteral("compareDatesPanel"));
    message_->setObjectName(QStringLiteral("compareDatesMessage"));
    message_->setWordWrap(true);
    progress_->setObjectName(QStringLiteral("compareDatesProgress"));
    progress_->setRange(0, 1000);
    cancel_->setObjectName(QStringLiteral("compareDatesCancel"));
    summary_->setObjectName(QStringLiteral("compareDatesSummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    showChanges_->setObjectName(QStringLiteral("showChangesBox"));
    showChanges_->setChecked(true);
    swipe_->setObjectName(QStringLiteral("swipeDatesButton"));
    table_->hide();
    connect(cancel_, &QPushButton::clicked, this, &CompareDatesPanel::cancel);
    connect(showChanges_, &QCheckBox::toggled, overlay_, &ChangeOverlay::setShown);
    connect(swipe_, &QPushButton::clicked, this, &CompareDatesPanel::requestSwipe);
    connect(table_, &ChangeTable::changeSelected, overlay_, &ChangeOverlay::zoomTo);
    connect(runner_, &JobRunner::progress, this, &CompareDatesPanel::onProgress);
    connect(align_, &AlignSettings::compareAgain, this, [this] {
        if (const Status s = compareAgain(); !s && s.code() != ErrorCode::InvalidArgument)
            showMessage(ChangeText::failure(s));
    });

    auto* busy = new QHBoxLayout;
    busy->addWidget(progress_, 1);
    busy->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(message_);
    layout->addLayout(busy);
    layout->addWidget(summary_);
    layout->addWidget(showChanges_);
    layout->addWidget(swipe_);
    layout->addWidget(align_);
    retranslateUi();
    updateEnabled();
    hide(); // shown once a comparison starts
}

CompareDatesPanel::~CompareDatesPanel()
{
    runner_->discard();
    runner_->wait();
    removeFiles();         // the cache keeps nothing of a comparison nobody shows
    if (!table_->parent()) // never placed in a layout
        delete table_;
}

QString CompareDatesPanel::cacheFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
        .filePath(QStringLiteral("comparisons"));
}

QWidget* CompareDatesPanel::resultsView() const
{
    return table_;
}

bool CompareDatesPanel::isRunning() const
{
    return runner_->isRunning();
}

QString CompareDatesPanel::message() const
{
    return message_->text();
}

Status CompareDatesPanel::chooseAndCompare(const QString& earlierMap, const MeasureOptions& measure)
{
    const QString folder = QFileInfo(viewer_->imagePath()).absolutePath();
    const auto choose = [&](bool map, const QString& start) {
        if (chooser_)
            return chooser_(map, start);
        const QString filter = tr("TIFF images") + QStringLiteral(" (*.tif *.tiff *.TIF *.TIFF)");
        return QFileDialog::getOpenFileName(
            this, map ? tr("Crack map of the later scan") : tr("Later scan of this surface"), start,
            filter);
    };
    const QString scan = choose(false, folder);
    if (scan.isEmpty())
        return Status(ErrorCode::Cancelled, "no later scan chosen");
    const QString map = choose(true, QFileInfo(scan).absolutePath());
    if (map.isEmpty())
        return Status(ErrorCode::Cancelled, "no later map chosen");
    return start(earlierMap, scan, map, measure);
}

QString CompareDatesPanel::inputProblem(const QString& earlierMap, const QString& laterScan,
                                        const QString& laterMap) const
{
    if (earlierMap.isEmpty())
        return tr("Add the crack map of this scan first.");
    for (const auto& [scan, map] :
         {std::pair(viewer_->imagePath(), earlierMap), std::pair(laterScan, laterMap)}) {
        const auto s = probeRaster(scan.toStdString());
        if (!s)
            return errorMessage(s.status());
        const auto m = probeRaster(map.toStdString());
        if (!m)
            return errorMessage(m.status());
        if (s->width == m->width && s->height == m->height)
            continue;
        const QLocale l;
        return tr("The crack map %1 is %2 × %3 px, its scan %4 is %5 × %6 px: choose the "
                  "map made from that scan.")
            .arg(QFileInfo(map).fileName(), l.toString(m->width), l.toString(m->height),
                 QFileInfo(scan).fileName(), l.toString(s->width), l.toString(s->height));
    }
    return {};
}

Status CompareDatesPanel::start(const QString& earlierMap, const QString& laterScan,
                                const QString& laterMap, const MeasureOptions& measure)
{
    if (runner_->isRunning())
        return Status(ErrorCode::InvalidArgument, "a comparison is running");
    show();
    if (const QString problem = inputProblem(earlierMap, laterScan, laterMap); !problem.isEmpty()) {
        lastStatus_ = Status(ErrorCode::InvalidArgument, problem.toStdString());
        showMessage(problem);
        return lastStatus_;
    }
    reset();
    show();
    QDir().mkpath(cacheFolder());
    const QString stamp = QString::number(QDateTime::currentMSecsSinceEpoch());
    const QString base = QFileInfo(laterScan).completeBaseName();
    alignedMapPath_ =
        QDir(cacheFolder())
            .filePath(base + QStringLiteral("_map_aligned_") + stamp + QStringLiteral(".tif"));
    const QString laterOut =
        QDir(cacheFolder())
            .filePath(base + QStringLiteral("_aligned_") + stamp + QStringLiteral(".tif"));
    earlierMap_ = earlierMap;
    Job job{viewer_->imagePath().toStdString(),
            earlierMap.toStdString(),
            laterScan.toStdString(),
            laterMap.toStdString(),
            alignedMapPath_.toStdString(),
            laterOut.toStdString(),
            {},
            align_->options()};
    job.options.measure = measure;
    laterScanIn_ = laterScan;
    laterMapIn_ = laterMap;
    measure_ = measure;
    laterScanPath_ = laterOut;
    cancelled_ = false;
    runner_->start<ChangeResult>(
        [job](const CancelToken& cancel, ProgressSink* sink) {
            return runComparison(job, cancel, sink);
        },
        [this](Result<ChangeResult> r) { onFinished(std::move(r)); });
    progress_->setValue(0);
    showMessage(tr("Aligning the later scan…"));
    updateEnabled();
    return {};
}

Status CompareDatesPanel::compareAgain()
{
    if (runner_->isRunning())
        return Status(ErrorCode::InvalidArgument, "a comparison is running");
    if (laterScanIn_.isEmpty())
        return Status(ErrorCode::InvalidArgument, "nothing compared yet");
    // Copies: start() resets the panel, which forgets them.
    const QString earlier = earlierMap_, scan = laterScanIn_, map = laterMapIn_;
    const MeasureOptions measure = measure_;
    return start(earlier, scan, map, measure);
}

void CompareDatesPanel::onProgress(double fraction, const QString& stage, double eta)
{
    if (cancelled_)
        return;
    progress_->setValue(int(fraction * 1000));
    const QString what = stage == QLatin1String("align")      ? tr("Aligning the later scan…")
                         : stage == QLatin1String("warp_map") ? tr("Warping the later crack map…")
                         : stage == QLatin1String("warp_scan") ? tr("Warping the later scan…")
                                                               : tr("Comparing the cracks…");
    const QString left = formatEta(eta);
    showMessage(left.isEmpty() ? what : tr("%1 (%2 left)").arg(what, left));
}

void CompareDatesPanel::cancel()
{
    if (!runner_->isRunning())
        return;
    cancelled_ = true;
    runner_->cancel();
    lastStatus_ = Status(ErrorCode::Cancelled, "cancelled");
    showMessage(ChangeText::failure(lastStatus_));
    updateEnabled();
}

void CompareDatesPanel::onFinished(Result<ChangeResult> r)
{
    // Cancel answers at once: a result that arrives after it is dropped too.
    if (!r || cancelled_) {
        removeFiles();
        lastStatus_ = cancelled_ ? Status(ErrorCode::Cancelled, "cancelled") : r.status();
        showMessage(ChangeText::failure(lastStatus_));
        updateEnabled();
        Q_EMIT statusMessage(message(), 5000);
        Q_EMIT finished(lastStatus_);
        return;
    }
    lastStatus_ = Status::ok();
    result_ = std::make_shared<const ChangeResult>(std::move(*r));
    OverlayStyle grey;
    grey.colorMap = ColorMap::Grey;
    grey.threshold = 0;
    grey.opacity = 1.0;
    grey.visible = false; // it would hide the earlier scan: shown by the swipe
    if (const Status s =
            viewer_->addOverlay(laterScanPath_, tr("Later scan (aligned, grey)"), grey);
        !s) {
        removeFiles();
        result_.reset();
        lastStatus_ = s;
        showMessage(errorMessage(s));
        updateEnabled();
        Q_EMIT finished(s);
        return;
    }
    showResult();
    Q_EMIT finished(lastStatus_);
}

void CompareDatesPanel::showResult()
{
    overlay_->setResult(result_);
    overlay_->setShown(showChanges_->isChecked());
    table_->setResult(result_);
    table_->show();
    const QLocale l;
    showMessage(
        tr("%1 changes since the earlier date.").arg(l.toString(int(result_->changes.size()))));
    summary_->setText(ChangeText::summary(*result_));
    updateEnabled();
}

void CompareDatesPanel::showMessage(const QString& text)
{
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

int CompareDatesPanel::laterScanLayer() const
{
    for (int i = 0; !laterScanPath_.isEmpty() && i < viewer_->overlayCount(); ++i)
        if (viewer_->overlayPath(i) == laterScanPath_)
            return i;
    return -1;
}

bool CompareDatesPanel::isDateLayer(int overlay) const
{
    return overlay >= 0 && overlay == laterScanLayer();
}

void CompareDatesPanel::requestSwipe()
{
    int left = -1;
    for (int i = 0; i < viewer_->overlayCount(); ++i)
        if (viewer_->overlayPath(i) == earlierMap_)
            left = i;
    const int right = laterScanLayer();
    if (left < 0 || right < 0)
        return;
    OverlayStyle style = viewer_->overlayStyle(right);
    style.visible = true;
    viewer_->setOverlayStyle(right, style);
    Q_EMIT swipeRequested(left, right);
}

void CompareDatesPanel::removeFiles()
{
    for (const QString& f : {alignedMapPath_, laterScanPath_})
        if (!f.isEmpty())
            QFile::remove(f);
    alignedMapPath_.clear();
    laterScanPath_.clear();
}

void CompareDatesPanel::reset()
{
    if (runner_->isRunning()) {
        runner_->discard();
        runner_->wait();
    }
    if (const int i = laterScanLayer(); i >= 0)
        viewer_->removeOverlay(i);
    removeFiles();
    laterScanIn_.clear();
    laterMapIn_.clear();
    result_.reset();
    overlay_->setResult(nullptr);
    table_->setResult(nullptr);
    table_->hide();
    summary_->clear();
    lastStatus_ = Status::ok();
    showMessage(QString());
    updateEnabled();
    hide();
}

void CompareDatesPanel::updateEnabled()
{
    const bool running = runner_->isRunning() && !cancelled_;
    progress_->setVisible(running);
    cancel_->setVisible(running);
    summary_->setVisible(bool(result_));
    showChanges_->setVisible(bool(result_));
    swipe_->setVisible(bool(result_));
    align_->setVisible(!running);
    align_->againButton()->setEnabled(!running && !laterScanIn_.isEmpty());
}

void CompareDatesPanel::retranslateUi()
{
    setTitle(tr("Compare dates"));
    cancel_->setText(tr("Cancel"));
    showChanges_->setText(tr("Show changes on the scan"));
    swipe_->setText(tr("Swipe between dates"));
    swipe_->setToolTip(tr("Swipe between the earlier scan with its cracks and the later scan "
                          "aligned onto it (shown in grey: the brightest channel)"));
    if (const int later = laterScanLayer(); later >= 0)
        viewer_->setOverlayName(later, tr("Later scan (aligned, grey)"));
    if (result_) {
        showResult();
    } else if (!lastStatus_.isOk()) {
        // InvalidArgument: inputProblem()'s own sentence, translated when it was shown.
        showMessage(lastStatus_.code() == ErrorCode::InvalidArgument
                        ? message_->text()
                        : ChangeText::failure(lastStatus_));
    }
}

void CompareDatesPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(e);
}

} // namespace fisura::ui
