#include "inspect/measurepanel.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "common/optiontexts.h"
#include "fisura/measuremap.h"
#include "fisura/threshold.h"
#include "fisura/vectorexport.h"
#include "inspect/classpresetbox.h"
#include "inspect/crackoverlay.h"
#include "inspect/cracktable.h"
#include "inspect/measureplots.h"
#include "inspect/measuretext.h"
#include "inspect/report.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

MeasurePanel::MeasurePanel(TiledViewer* viewer, QWidget* parent)
    : QGroupBox(parent), viewer_(viewer), runner_(new JobRunner(this)),
      reporter_(new JobRunner(this)), classMapper_(new JobRunner(this)),
      overlayWriter_(new JobRunner(this)), mapLabel_(new QLabel(this)),
      pixelSizeLabel_(new QLabel(this)), pixelSize_(new QDoubleSpinBox(this)),
      thresholdLabel_(new QLabel(this)), threshold_(new QDoubleSpinBox(this)),
      presetLabel_(new QLabel(this)), presets_(new ClassPresetBox(this)),
      limitsLabel_(new QLabel(this)), note_(new QLabel(this)),
      measureButton_(new QPushButton(this)), cancelButton_(new QPushButton(this)),
      progress_(new QProgressBar(this)), message_(new QLabel(this)), summary_(new QLabel(this)),
      classLayer_(new QCheckBox(this)), csvButton_(new QPushButton(this)),
      jsonButton_(new QPushButton(this)), pdfButton_(new QPushButton(this)),
      vectorButton_(new QPushButton(this)), results_(new QTabWidget),
      table_(new CrackTable(results_)), plots_(new MeasurePlots(results_)),
      overlay_(new CrackOverlay(viewer))
{
    setObjectName(QStringLiteral("measurePanel"));
    results_->setObjectName(QStringLiteral("measureResults"));
    results_->addTab(table_, QString());
    results_->addTab(plots_, QString());
    results_->hide();
    buildForm();

    connect(measureButton_, &QPushButton::clicked, this, &MeasurePanel::measureRequested);
    connect(cancelButton_, &QPushButton::clicked, this, &MeasurePanel::cancel);
    for (JobRunner* job : {runner_, overlayWriter_})
        connect(job, &JobRunner::progress, this,
                [this](double f, const QString&, double) { progress_->setValue(int(f * 1000)); });
    // A discarded measurement ends here too: start the one asked for meanwhile.
    connect(runner_, &JobRunner::finished, this, [this] {
        if (!queuedMap_.isEmpty())
            measure(std::exchange(queuedMap_, QString()));
        updateEnabled();
    });
    connect(classMapper_, &JobRunner::finished, this, &MeasurePanel::onClassMap);
    connect(overlayWriter_, &JobRunner::finished, this, &MeasurePanel::onOverlayWritten);
    connect(presets_, &ClassPresetBox::presetChanged, this, &MeasurePanel::onPresetChanged);
    connect(classLayer_, &QCheckBox::toggled, this, &MeasurePanel::showClassLayer);
    connect(csvButton_, &QPushButton::clicked, this, [this] { chooseExport(0); });
    connect(jsonButton_, &QPushButton::clicked, this, [this] { chooseExport(1); });
    connect(vectorButton_, &QPushButton::clicked, this, [this] { chooseExport(3); });
    connect(pdfButton_, &QPushButton::clicked, this, [this] { chooseExport(2); });
    connect(table_, &CrackTable::crackSelected, this, &MeasurePanel::selectCrack);
    connect(overlay_, &CrackOverlay::crackHovered, table_, &CrackTable::highlightCrack);
    connect(viewer_, &TiledViewer::imageOpened, this, &MeasurePanel::reset);
    retranslateUi();
    updateEnabled();
}

MeasurePanel::~MeasurePanel()
{
    // The jobs stop before the panel goes.
    runner_->cancel();
    reporter_->cancel();
    classMapper_->cancel();
    overlayWriter_->cancel();
    if (results_ && !results_->parent()) // never placed (a panel on its own)
        delete results_;
}

void MeasurePanel::buildForm()
{
    mapLabel_->setObjectName(QStringLiteral("measureMapLabel"));
    mapLabel_->setWordWrap(true);
    // Ranges, defaults, units and tooltips from the option schema (OptionSet::Measure).
    pixelSize_->setObjectName(QStringLiteral("measurePixelSize"));
    pixelSize_->setDecimals(4);
    pixelSize_->setSingleStep(0.01);
    applyOption(pixelSize_, OptionSet::Measure, "pixel_size_mm");
    threshold_->setObjectName(QStringLiteral("measureThreshold"));
    threshold_->setDecimals(3); // every map byte has a probability of at most three places
    threshold_->setSingleStep(0.01);
    applyOption(threshold_, OptionSet::Measure, "threshold");
    auto* form = new QFormLayout;
    form->addRow(pixelSizeLabel_, pixelSize_);
    form->addRow(thresholdLabel_, threshold_);
    form->addRow(presetLabel_, presets_);
    form->addRow(limitsLabel_);
    for (size_t k = 0; k < limits_.size(); ++k) {
        limitLabels_[k] = new QLabel(this);
        limits_[k] = new QDoubleSpinBox(this);
        limits_[k]->setObjectName(QStringLiteral("classLimit%1").arg(k));
        limits_[k]->setDecimals(3);
        limits_[k]->setSingleStep(0.05);
        applyOptionItem(limits_[k], OptionSet::Measure, "classes.upper_limits_mm", int(k));
        // Editing Fisura's limits makes them custom ones.
        connect(limits_[k], &QDoubleSpinBox::valueChanged, this, [this] {
            if (presets_->presetId() == "default")
                presets_->setPresetId("custom");
        });
        form->addRow(limitLabels_[k], limits_[k]);
    }
    onPresetChanged();
    note_->setObjectName(QStringLiteral("measureClassNote"));
    note_->setWordWrap(true);
    note_->setStyleSheet(QStringLiteral("color: #8a5a00; font-style: italic;"));
    measureButton_->setObjectName(QStringLiteral("measureButton"));
    cancelButton_->setObjectName(QStringLiteral("cancelMeasureButton"));
    progress_->setObjectName(QStringLiteral("measureProgress"));
    progress_->setRange(0, 1000);
    message_->setObjectName(QStringLiteral("measureMessage"));
    message_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("measureSummary"));
    summary_->setTextFormat(Qt::RichText);
    classLayer_->setObjectName(QStringLiteral("classOverlayBox"));
    csvButton_->setObjectName(QStringLiteral("exportCsvButton"));
    jsonButton_->setObjectName(QStringLiteral("exportJsonButton"));
    pdfButton_->setObjectName(QStringLiteral("exportPdfButton"));
    vectorButton_->setObjectName(QStringLiteral("exportVectorButton"));
    auto* run = new QHBoxLayout;
    run->addWidget(measureButton_, 1);
    run->addWidget(cancelButton_);
    auto* exports = new QHBoxLayout;
    exports->addWidget(csvButton_);
    exports->addWidget(jsonButton_);
    exports->addWidget(vectorButton_);
    exports->addWidget(pdfButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(mapLabel_);
    layout->addLayout(form);
    layout->addWidget(note_);
    layout->addLayout(run);
    layout->addWidget(progress_);
    layout->addWidget(message_);
    layout->addWidget(summary_);
    layout->addWidget(classLayer_);
    layout->addLayout(exports);
}

void MeasurePanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(e);
}

void MeasurePanel::retranslateUi()
{
    setTitle(tr("Crack measurement"));
    mapLabel_->setText(mapPath_.isEmpty() ? tr("Measures the selected map layer.")
                                          : tr("Map: %1").arg(QFileInfo(mapPath_).fileName()));
    pixelSizeLabel_->setText(tr("Pixel size"));
    pixelSize_->setSpecialValueText(tr("from the files"));
    thresholdLabel_->setText(tr("Threshold"));
    retranslateOptions(this); // the fields' tooltips and units
    presetLabel_->setText(tr("Width classes"));
    limitsLabel_->setText(tr("Upper limits:"));
    const WidthClasses ids;
    for (size_t k = 0; k < limits_.size(); ++k)
        limitLabels_[k]->setText(tr("%1 below").arg(MeasureText::className(ids.ids[k])));
    note_->setText(MeasureText::classNote());
    measureButton_->setText(tr("Measure cracks"));
    measureButton_->setToolTip(tr("Count the cracks of the selected map and measure their length "
                                  "and width"));
    cancelButton_->setText(tr("Cancel"));
    classLayer_->setText(tr("Colour cracks by width class"));
    for (int i = 0; !classMapPath_.isEmpty() && i < viewer_->overlayCount(); ++i)
        if (viewer_->overlayPath(i) == classMapPath_)
            viewer_->setOverlayName(i, tr("Width classes")); // the layer's name, translated
    csvButton_->setText(tr("CSV…"));
    csvButton_->setToolTip(tr("Cracks, branches and totals as CSV"));
    jsonButton_->setText(tr("JSON…"));
    jsonButton_->setToolTip(tr("Everything measured as JSON"));
    vectorButton_->setText(tr("GIS / CAD…"));
    vectorButton_->setToolTip(tr("Crack centre lines with widths and width classes for GIS and "
                                 "CAD: GeoPackage, GeoJSON, Shapefile or DXF (georeferenced when "
                                 "the scan is a GeoTIFF)"));
    pdfButton_->setText(tr("PDF report…"));
    pdfButton_->setToolTip(tr("An inspection report in the language in force"));
    results_->setTabText(0, tr("Cracks"));
    results_->setTabText(1, tr("Plots"));
    showSummary();
}

void MeasurePanel::saveState(QSettings& s) const
{
    QVariantList limits;
    for (auto* b : limits_)
        limits << b->value();
    s.setValue(QStringLiteral("inspect/measure/classLimits"), limits);
    s.setValue(QStringLiteral("inspect/measure/classPreset"),
               QString::fromStdString(presets_->presetId()));
}

void MeasurePanel::restoreState(QSettings& s)
{
    const QVariantList limits = s.value(QStringLiteral("inspect/measure/classLimits")).toList();
    if (limits.size() == int(limits_.size()))
        for (size_t k = 0; k < limits_.size(); ++k)
            limits_[k]->setValue(limits[int(k)].toDouble());
    // Settings written before the presets: limits other than Fisura's have made them custom.
    const QString preset = s.value(QStringLiteral("inspect/measure/classPreset")).toString();
    if (!preset.isEmpty())
        presets_->setPresetId(preset.toStdString());
}

// The limit fields are the custom classes; a preset shows Fisura's limits or hides them (a
// standard has a single tolerable width, named under the list).
void MeasurePanel::onPresetChanged()
{
    const std::string id = presets_->presetId();
    const auto preset = widthClassPreset(id);
    const bool standard = preset && preset->classes.tolerableMm > 0;
    if (preset && !standard)
        for (size_t k = 0; k < limits_.size(); ++k) {
            const QSignalBlocker block(limits_[k]); // not an edit: stays Fisura's
            limits_[k]->setValue(preset->classes.upperLimitsMm[k]);
        }
    limitsLabel_->setVisible(!standard);
    for (size_t k = 0; k < limits_.size(); ++k) {
        limitLabels_[k]->setVisible(!standard);
        limits_[k]->setVisible(!standard);
    }
}

void MeasurePanel::reset()
{
    runner_->discard();
    classMapper_->cancel();
    queuedMap_.clear();
    result_.reset();
    mapPath_.clear();
    classMapPath_.clear();
    {
        const QSignalBlocker block(classLayer_);
        classLayer_->setChecked(false);
    }
    pixelSize_->setValue(viewer_->hasImage() ? viewer_->pixelSizeMm() : 0.0);
    table_->setResult(nullptr);
    plots_->setResult(nullptr);
    overlay_->setResult(nullptr);
    results_->hide();
    showMessage({});
    retranslateUi();
    updateEnabled();
}

MeasureOptions MeasurePanel::options() const
{
    MeasureOptions o;
    o.threshold = threshold_->value();
    o.pixelSizeMm = pixelSize_->value();
    if (viewer_->hasImage()) {
        o.scanPath = viewer_->imagePath().toStdString();
        // Still the scan's own value (as the field rounds it): core reads the tags in full and
        // says where the pixel size came from.
        const double tags = viewer_->pixelSizeMm();
        const double shown = std::round(tags * 1e4) / 1e4;
        if (tags > 0 && std::abs(o.pixelSizeMm - shown) < 1e-9)
            o.pixelSizeMm = 0;
    }
    const std::string id = presets_->presetId();
    if (const auto preset = widthClassPreset(id)) {
        o.classes = preset->classes;
        return o;
    }
    for (size_t k = 0; k < limits_.size(); ++k)
        o.classes.upperLimitsMm[k] = limits_[k]->value();
    o.classes.preset = id;
    return o;
}

Status MeasurePanel::measure(const QString& mapPath, int mapByte)
{
    if (mapPath.isEmpty()) {
        showMessage(tr("Add a probability map or mask as a layer first, and select it."));
        return Status(ErrorCode::InvalidArgument, "no map to measure");
    }
    if (mapByte >= 1)
        threshold_->setValue(probabilityOfMapByte(mapByte));
    const MeasureOptions o = options();
    if (const Status s = o.classes.validate(); !s) {
        showMessage(tr("The class limits must rise from one class to the next."));
        return s;
    }
    if (runner_->isRunning()) { // started once the running one has stopped
        queuedMap_ = mapPath;
        runner_->discard();
        return {};
    }
    const std::string map = mapPath.toStdString();
    if (!runner_->start<MeasureResult>(
            [=](const CancelToken& cancel, ProgressSink* sink) {
                return measureCracks(map, o, cancel, sink);
            },
            [this](Result<MeasureResult> result) { onFinished(std::move(result)); }))
        return Status(ErrorCode::Internal, "measurement already running");
    mapPath_ = mapPath;
    progress_->setValue(0);
    showMessage(tr("Measuring the cracks of %1…").arg(QFileInfo(mapPath).fileName()));
    retranslateUi();
    updateEnabled();
    return {};
}

bool MeasurePanel::isRunning() const
{
    return runner_->isRunning();
}

void MeasurePanel::cancel()
{
    runner_->cancel();
    overlayWriter_->cancel();
}

void MeasurePanel::onFinished(Result<MeasureResult> result)
{
    const Status s = result.status();
    if (result) {
        result_ = std::make_shared<const MeasureResult>(std::move(*result));
        table_->setResult(result_);
        plots_->setResult(result_);
        overlay_->setResult(result_);
        results_->show();
        // The pane keeps the results below the views in a splitter: give them room once.
        auto* split = qobject_cast<QSplitter*>(results_->parentWidget());
        if (split && split->count() == 2 && split->sizes().value(1) < 120)
            split->setSizes({split->height() * 3 / 5, split->height() * 2 / 5});
        if (const int i = classLayerIndex(); i >= 0)
            viewer_->removeOverlay(i); // the classes of the previous measurement
        classMapPath_.clear();
        showMessage({});
        Q_EMIT statusMessage(tr("Measured %n crack(s).", nullptr, result_->totals.cracks), 5000);
        if (classLayer_->isChecked())
            showClassLayer(true);
    } else if (s.code() == ErrorCode::Cancelled) {
        showMessage(tr("The measurement was cancelled."));
    } else {
        showMessage(tr("The measurement failed: %1").arg(errorMessage(s)));
    }
    showSummary();
    updateEnabled();
    Q_EMIT measured(s);
}

void MeasurePanel::showSummary()
{
    if (!result_) {
        summary_->clear();
        return;
    }
    const MeasureResult& r = *result_;
    const QLocale l;
    QString h = QStringLiteral("<b>%1</b> · %2<br>")
                    .arg(tr("%n crack(s)", nullptr, r.totals.cracks),
                         tr("total length %1")
                             .arg(MeasureText::length(r.totals.lengthPx, r.totals.lengthMm)));
    h += QStringLiteral("<table cellspacing='2'>");
    for (size_t k = 0; k < r.classes.size(); ++k) {
        const WidthClassTotals& c = r.classes[k];
        h += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2</td><td>%3</td>"
                            "<td align='right'>%4</td><td align='right'>%5</td></tr>")
                 .arg(MeasureText::classColour(r.options.classes, int(k)).name(),
                      MeasureText::className(c.id).toHtmlEscaped(),
                      MeasureText::classRange(c.fromMm, c.toMm).toHtmlEscaped(),
                      tr("%n crack(s)", nullptr, c.cracks),
                      MeasureText::length(c.lengthPx, c.lengthMm));
    }
    h += QStringLiteral("</table>");
    if (r.classes.empty())
        h += tr("No pixel size: lengths and widths in pixels, no width classes.").toHtmlEscaped();
    summary_->setText(h);
}

QString MeasurePanel::message() const
{
    return messageText_;
}

void MeasurePanel::showMessage(const QString& text)
{
    messageText_ = text;
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

void MeasurePanel::updateEnabled()
{
    const bool running = runner_->isRunning();
    const bool busy = running || overlayWriter_->isRunning(); // shows progress, can be cancelled
    measureButton_->setEnabled(viewer_->hasImage() && !running);
    cancelButton_->setEnabled(busy);
    progress_->setVisible(busy);
    const bool has = bool(result_);
    csvButton_->setEnabled(has);
    jsonButton_->setEnabled(has);
    vectorButton_->setEnabled(has && !overlayWriter_->isRunning());
    pdfButton_->setEnabled(has && !reporter_->isRunning());
    classLayer_->setEnabled(has && result_->pixelSizeMm > 0);
}

void MeasurePanel::selectCrack(int id)
{
    if (id > 0)
        overlay_->zoomTo(id);
    else
        overlay_->setSelected(-1);
}

int MeasurePanel::classLayerIndex() const
{
    for (int i = 0; !classMapPath_.isEmpty() && i < viewer_->overlayCount(); ++i)
        if (viewer_->overlayPath(i) == classMapPath_)
            return i;
    return -1;
}

void MeasurePanel::showClassLayer(bool on)
{
    if (!on) {
        if (const int i = classLayerIndex(); i >= 0)
            viewer_->removeOverlay(i);
        return;
    }
    if (!result_ || result_->pixelSizeMm <= 0 || classMapper_->isRunning() ||
        classLayerIndex() >= 0)
        return;
    // A class-coded copy of the cleaned mask, in the cache beside the other derived layers.
    const QString dir = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                            .filePath(QStringLiteral("classmaps"));
    QDir().mkpath(dir);
    classMapPath_ = QDir(dir).filePath(
        QFileInfo(mapPath_).completeBaseName() +
        QStringLiteral("_classes_%1.tif").arg(QDateTime::currentMSecsSinceEpoch()));
    const auto result = result_;
    const std::string out = classMapPath_.toStdString();
    classMapper_->start([=](const CancelToken& cancel, ProgressSink* sink) -> Status {
        return writeClassMap(*result, out, cancel, sink);
    });
    updateEnabled();
}

void MeasurePanel::onClassMap(const Status& s)
{
    if (s && classLayer_->isChecked()) {
        OverlayStyle style;
        style.colorMap = ColorMap::WidthClasses;
        for (int k = 0; result_ && k < int(result_->options.classes.ids.size()); ++k)
            style.classColours.push_back(
                MeasureText::classColour(result_->options.classes, k).rgb());
        style.threshold = 1;
        style.opacity = 0.9;
        if (const Status a = viewer_->addOverlay(classMapPath_, tr("Width classes"), style); !a)
            showMessage(errorMessage(a));
    } else if (!s && s.code() != ErrorCode::Cancelled) {
        showMessage(tr("The width classes could not be shown: %1").arg(errorMessage(s)));
        const QSignalBlocker block(classLayer_);
        classLayer_->setChecked(false);
    }
    updateEnabled();
}

} // namespace fisura::ui
