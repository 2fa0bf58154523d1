// The inspection report as PDF (QPdfWriter + QTextDocument), in the language in force: scan
// and model facts, an overview picture with the cracks, totals by width class with the note on
// class limits, the two plots, the crack table and the settings used. Numbers and dates follow
// QLocale(). Reading the overview picture is thread-safe (QImage only); writing the PDF and
// rendering the plots belong on the GUI thread and take well under a second.
#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QImage>
#include <QString>

#include <memory>

#include "fisura/job.h"
#include "fisura/measure.h"
#include "fisura/status.h"

namespace fisura::ui
{

struct ReportInput {
    std::shared_ptr<const MeasureResult> result;
    QString scanPath;  ///< may be empty (the overview then shows the map)
    QString modelName; ///< may be empty ("not recorded")
    QImage overview;   ///< overviewPicture()
    QImage histogram;  ///< renderPlots()
    QImage classPlot;
    QDateTime date = QDateTime::currentDateTime();
};

class MeasureReport
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::MeasureReport)
public:
    /// The scan (or the map, without a scan) at most `maxSide` px a side, the map's crack pixels
    /// (at the measurement threshold, max-pooled so thin cracks stay visible) in red, and each
    /// crack's box in its class colour with its number. Reads the smallest pyramid level that
    /// is sharp enough, band by band. Cancelled between bands.
    static Result<QImage> overviewPicture(const QString& scanPath, const MeasureResult& result,
                                          int maxSide = 1400, const CancelToken& cancel = {});
    /// The scan (any raster measure reads) at most `maxSide` px a side, from the smallest
    /// pyramid level that is sharp enough. Cancelled between bands.
    static Result<QImage> scanPicture(const QString& scanPath, int maxSide = 1400,
                                      const CancelToken& cancel = {});
    /// The file name of the model that made the map at `mapPath`, from the project whose
    /// maps/ folder holds it (its scan record) or from the `fisura-cli infer` manifests beside
    /// it; empty when no record names it.
    static QString modelFor(const QString& mapPath);
    /// Fills in.histogram and in.classPlot from in.result (GUI thread).
    static void renderPlots(ReportInput& in);
    /// The report as HTML (QTextDocument's subset), images as "fisura:" resources. `layout`
    /// (0..kLayouts-1) is how the crack table is set: from a page of its own with roomy rows (0)
    /// to tight rows right after the settings; writePdf() takes the first that leaves no last
    /// page with only a few lines.
    static QString html(const ReportInput& in, int layout = 0);
    /// Writes the PDF atomically (A4); IoError when the file cannot be written.
    static Status writePdf(const QString& path, const ReportInput& in);
    /// Most crack rows in the PDF table (the CSV has them all).
    static constexpr int kMaxRows = 400;
    static constexpr int kLayouts = 6;

private:
    static QString crackTable(const ReportInput& in, int layout);
    static QString settings(const ReportInput& in);
    /// The standard in force with its tolerable width and the cracks over it; empty without.
    static QString standard(const MeasureResult& r);
};

} // namespace fisura::ui
