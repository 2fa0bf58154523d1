#include "label/labelgeojsonbox.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>

#include <algorithm>
#include <memory>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "common/screenfit.h"
#include "fisura/labelgeojson.h"
#include "fisura/labels.h"
#include "label/labelsession.h"

namespace fisura::ui
{

namespace
{

// Whole labels are read into memory for GeoJSON: as many pixels as readImage takes.
constexpr quint64 kMaxPixels = 64ull << 20;

QString fileName(const QString& path)
{
    return QFileInfo(path).fileName();
}

Status checkSize(const LabelLayer& l)
{
    if (quint64(l.width()) * quint64(l.height()) <= kMaxPixels)
        return {};
    return Status(ErrorCode::TooLarge, "the label is " + std::to_string(l.width()) + " x " +
                                           std::to_string(l.height()) +
                                           " px; GeoJSON takes labels of up to 64 Mpx");
}

} // namespace

LabelGeoJsonBox::LabelGeoJsonBox(QWidget* parent)
    : QWidget(parent), runner_(new JobRunner(this)), import_(new QAction(this)),
      export_(new QAction(this)), shapesLabel_(new QLabel(this)), shapes_(new QComboBox(this))
{
    setObjectName(QStringLiteral("labelGeoJsonBox"));
    import_->setObjectName(QStringLiteral("labelImportGeoJsonAction"));
    export_->setObjectName(QStringLiteral("labelExportGeoJsonAction"));
    shapes_->setObjectName(QStringLiteral("labelGeoJsonShapes"));
    connect(runner_, &JobRunner::finished, this, &LabelGeoJsonBox::updateState);
    connect(import_, &QAction::triggered, this, [this] {
        const QString path = choose(false);
        if (!path.isEmpty())
            importFile(path);
    });
    connect(export_, &QAction::triggered, this, [this] {
        const QString path = choose(true);
        if (!path.isEmpty())
            exportFile(path);
    });
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(2);
    grid->addWidget(narrowTextButton(import_, this), 0, 0);
    grid->addWidget(narrowTextButton(export_, this), 0, 1);
    grid->addWidget(shapesLabel_, 1, 0);
    grid->addWidget(shapes_, 1, 1);
    retranslateUi();
}

void LabelGeoJsonBox::setSession(LabelSession* session)
{
    // An import still reading for the image left behind is dropped when it ends (finishImport).
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    if (session_)
        connect(session_, &LabelSession::busyChanged, this, &LabelGeoJsonBox::updateState);
    updateState();
}

void LabelGeoJsonBox::updateState()
{
    const bool idle = session_ && !session_->isBusy() && !runner_->isRunning();
    import_->setEnabled(idle);
    export_->setEnabled(idle);
    shapes_->setEnabled(bool(session_));
}

bool LabelGeoJsonBox::isRunning() const
{
    return runner_->isRunning();
}

QString LabelGeoJsonBox::choose(bool save) const
{
    if (!session_)
        return {};
    // Beside the image, named after it: where QuPath's exports of it would sit too.
    const QFileInfo image(session_->imagePath());
    const QString start =
        image.dir().filePath(image.completeBaseName() + QStringLiteral(".geojson"));
    if (chooser_)
        return chooser_(save, start);
    auto* parent = const_cast<LabelGeoJsonBox*>(this);
    const QString filter = tr("GeoJSON files") + QStringLiteral(" (*.geojson *.json);;") +
                           tr("All files") + QStringLiteral(" (*)");
    return save
               ? QFileDialog::getSaveFileName(parent, tr("Export labels as GeoJSON"), start, filter)
               : QFileDialog::getOpenFileName(parent, tr("Import labels from GeoJSON"),
                                              image.absolutePath(), filter);
}

bool LabelGeoJsonBox::importFile(const QString& path)
{
    if (!session_ || session_->isBusy() || runner_->isRunning())
        return false;
    const LabelLayer& layer = *session_->layer();
    if (Status s = checkSize(layer); !s) {
        reportImportFailure(path, session_->imagePath(), s);
        return false;
    }
    const std::string file = path.toStdString();
    const int w = layer.width(), h = layer.height();
    QPointer<LabelSession> target = session_;
    runner_->start<Image>(
        [file, w, h](const CancelToken&, ProgressSink*) { return readLabelGeoJson(file, w, h); },
        [this, target, path](Result<Image> mask) { finishImport(target, path, std::move(mask)); });
    updateState();
    Q_EMIT statusMessage(tr("Importing %1…").arg(fileName(path)), 0);
    return true;
}

void LabelGeoJsonBox::finishImport(LabelSession* target, const QString& path, Result<Image> mask)
{
    if (!target || target != session_)
        return;
    if (!mask) {
        if (mask.status().code() != ErrorCode::Cancelled)
            reportImportFailure(path, target->imagePath(), mask.status());
        return;
    }
    LabelLayer* layer = target->layer();
    if (!target->apply(layer->replaceRegion({0, 0, layer->width(), layer->height()}, *mask),
                       tr("Import GeoJSON")))
        return; // the session reported why
    Q_EMIT statusMessage(
        tr("Imported the labels of %1 from %2.").arg(fileName(target->imagePath()), fileName(path)),
        5000);
    Q_EMIT imported(path);
}

void LabelGeoJsonBox::reportImportFailure(const QString& path, const QString& image,
                                          const Status& e)
{
    // What Fisura reads, translated; the core's detail names the feature.
    const QString detail = QStringLiteral("\n") + QString::fromStdString(e.detail());
    QString reason;
    if (e.code() == ErrorCode::Corrupt)
        reason = tr("The file is not GeoJSON that Fisura can read.") + detail;
    else if (e.code() == ErrorCode::InvalidArgument)
        reason = tr("Fisura reads Polygon, MultiPolygon, LineString and MultiLineString "
                    "features inside the image, with line widths above 0 and up to %1 px.")
                     .arg(QLocale().toString(kMaxLabelLineWidthPx)) +
                 detail;
    else
        reason = errorMessage(e);
    Q_EMIT failed(
        tr("Could not import %1 into the labels of %2.").arg(fileName(path), fileName(image)) +
        QLatin1Char(' ') + reason);
}

bool LabelGeoJsonBox::exportFile(const QString& path)
{
    if (!session_ || session_->isBusy() || runner_->isRunning())
        return false;
    const LabelLayer& layer = *session_->layer();
    LabelGeoJsonOptions o;
    o.shapes = shapes_->currentIndex() == 1   ? LabelShapes::Lines
               : shapes_->currentIndex() == 2 ? LabelShapes::Both
                                              : LabelShapes::Polygons;
    const QString image = session_->imagePath();
    const auto fail = [this, image, path](const Status& s) {
        Q_EMIT failed(
            tr("Could not export the labels of %1 to %2.").arg(fileName(image), fileName(path)) +
            QLatin1Char(' ') + errorMessage(s));
    };
    Status s = checkSize(layer);
    // The layer is read here (it belongs to the GUI thread); tracing and writing run off it.
    auto mask = s ? layer.readRegion({0, 0, layer.width(), layer.height()}) : Result<Image>(s);
    if (!mask) {
        fail(mask.status());
        return false;
    }
    auto pixels = std::make_shared<Image>(std::move(*mask));
    const std::string file = path.toStdString();
    runner_->start<bool>(
        [pixels, file, o](const CancelToken&, ProgressSink*) -> Result<bool> {
            if (Status w = writeLabelGeoJson(*pixels, file, o); !w)
                return w;
            return true;
        },
        [this, fail, image, path](Result<bool> done) {
            if (!done) {
                if (done.status().code() != ErrorCode::Cancelled)
                    fail(done.status());
                return;
            }
            Q_EMIT statusMessage(
                tr("Exported the labels of %1 to %2.").arg(fileName(image), fileName(path)), 5000);
            Q_EMIT exported(path);
        });
    updateState();
    Q_EMIT statusMessage(tr("Exporting the labels of %1…").arg(fileName(image)), 0);
    return true;
}

void LabelGeoJsonBox::retranslateUi()
{
    import_->setText(tr("Import GeoJSON…"));
    import_->setToolTip(tr("Replace the labels of this image with the polygons and lines of a "
                           "GeoJSON file (QuPath annotations); Undo takes them back"));
    export_->setText(tr("Export GeoJSON…"));
    export_->setToolTip(tr("Write the labels of this image as GeoJSON that QuPath and GIS read"));
    shapesLabel_->setText(tr("Export as"));
    const int i = shapes_->currentIndex();
    const QSignalBlocker block(shapes_);
    shapes_->clear();
    shapes_->addItems({tr("Outlines"), tr("Centre lines with width"), tr("Both")});
    shapes_->setItemData(0, tr("Polygons along the label's pixels: read back exactly"),
                         Qt::ToolTipRole);
    shapes_->setItemData(1,
                         tr("Each crack branch as a line with its width in px, as the "
                            "measurement finds it"),
                         Qt::ToolTipRole);
    shapes_->setCurrentIndex(std::max(0, i));
}

} // namespace fisura::ui
