// MeasurePanel's exports: CSV, JSON, GIS / CAD vectors, the crack overlay GeoTIFF and the PDF
// report, and the file dialog that picks among them.
#include "inspect/measurepanel.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QProgressBar>

#include "common/errortext.h"
#include "common/jobrunner.h"
#include "fisura/vectorexport.h"
#include "inspect/report.h"
#include "viewer/tiledviewer.h"

namespace fisura::ui
{

Status MeasurePanel::exportCsv(const QString& path) const
{
    if (!result_)
        return Status(ErrorCode::InvalidArgument, "nothing measured yet");
    return writeMeasureCsv(*result_, path.toStdString());
}

Status MeasurePanel::exportJson(const QString& path) const
{
    if (!result_)
        return Status(ErrorCode::InvalidArgument, "nothing measured yet");
    return writeMeasureJson(*result_, path.toStdString());
}

Status MeasurePanel::exportVectors(const QString& path) const
{
    if (!result_)
        return Status(ErrorCode::InvalidArgument, "nothing measured yet");
    VectorExportOptions o;
    o.model = MeasureReport::modelFor(mapPath_).toStdString();
    auto written = exportCrackVectors(*result_, path.toStdString(), o);
    return written ? Status::ok() : written.status();
}

Status MeasurePanel::exportOverlay(const QString& path)
{
    if (!result_)
        return Status(ErrorCode::InvalidArgument, "nothing measured yet");
    if (overlayWriter_->isRunning())
        return Status(ErrorCode::InvalidArgument, "an overlay is being written");
    const auto result = result_;
    VectorExportOptions o;
    o.model = MeasureReport::modelFor(mapPath_).toStdString();
    const std::string out = path.toStdString();
    overlayWriter_->start([=](const CancelToken& cancel, ProgressSink* sink) {
        return writeCrackOverlayOfMap(*result, out, o, cancel, sink);
    });
    overlayPath_ = path;
    progress_->setValue(0);
    showMessage(tr("Writing the crack overlay…"));
    updateEnabled();
    return Status::ok();
}

void MeasurePanel::onOverlayWritten(const Status& s)
{
    if (s)
        Q_EMIT statusMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(overlayPath_)), 5000);
    showMessage(!s && s.code() != ErrorCode::Cancelled
                    ? tr("The export failed: %1").arg(errorMessage(s))
                    : QString());
    updateEnabled();
    Q_EMIT overlayWritten(s, overlayPath_);
}

Status MeasurePanel::writeReport(const QString& path)
{
    if (!result_)
        return Status(ErrorCode::InvalidArgument, "nothing measured yet");
    if (reporter_->isRunning())
        return Status(ErrorCode::InvalidArgument, "a report is being written");
    reportPath_ = path;
    const auto result = result_;
    const QString scan = viewer_->imagePath();
    reporter_->start<QImage>(
        [=](const CancelToken& cancel, ProgressSink*) {
            return MeasureReport::overviewPicture(scan, *result, 1400, cancel);
        },
        [this](Result<QImage> picture) { onReportPictures(std::move(picture)); });
    showMessage(tr("Writing the report…"));
    updateEnabled();
    return {};
}

void MeasurePanel::onReportPictures(Result<QImage> picture)
{
    Status out = picture.status();
    if (picture && result_) {
        ReportInput in;
        in.result = result_;
        in.scanPath = viewer_->imagePath();
        in.modelName = MeasureReport::modelFor(mapPath_);
        in.overview = std::move(*picture);
        MeasureReport::renderPlots(in);
        out = MeasureReport::writePdf(reportPath_, in);
    }
    showMessage(out ? QString() : tr("The report could not be written: %1").arg(errorMessage(out)));
    if (out)
        Q_EMIT statusMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(reportPath_)), 5000);
    updateEnabled();
    Q_EMIT reportWritten(out, reportPath_);
}

void MeasurePanel::chooseExport(int kind)
{
    if (!result_)
        return;
    const QFileInfo map(mapPath_);
    const QString suffix = kind == 0   ? QStringLiteral("_cracks.csv")
                           : kind == 1 ? QStringLiteral("_cracks.json")
                           : kind == 3 ? QStringLiteral("_cracks.gpkg")
                                       : QStringLiteral("_report.pdf");
    const QString vectors = tr("GeoPackage") + QStringLiteral(" (*.gpkg);;") + tr("GeoJSON") +
                            QStringLiteral(" (*.geojson);;") + tr("Shapefile") +
                            QStringLiteral(" (*.shp);;") + tr("DXF drawing") +
                            QStringLiteral(" (*.dxf);;") + tr("Crack overlay, RGBA GeoTIFF") +
                            QStringLiteral(" (*.tif *.tiff)");
    const QString filter = kind == 0   ? tr("CSV files") + QStringLiteral(" (*.csv)")
                           : kind == 1 ? tr("JSON files") + QStringLiteral(" (*.json)")
                           : kind == 3 ? vectors
                                       : tr("PDF files") + QStringLiteral(" (*.pdf)");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export measurement"),
                                     map.dir().filePath(map.completeBaseName() + suffix), filter);
    if (path.isEmpty())
        return;
    // The overlay raster is a job of its own (it measures the map again, into a width layer).
    const bool raster =
        kind == 3 && QFileInfo(path).suffix().toLower().startsWith(QStringLiteral("tif"));
    const Status s = kind == 0   ? exportCsv(path)
                     : kind == 1 ? exportJson(path)
                     : raster    ? exportOverlay(path)
                     : kind == 3 ? exportVectors(path)
                                 : writeReport(path);
    if (!s)
        showMessage(tr("The export failed: %1").arg(errorMessage(s)));
    else if (kind != 2 && !raster)
        Q_EMIT statusMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace fisura::ui
