// The report of two inspections of one surface as PDF: "Changes since <earlier date>" — the
// alignment and its quality, what changed (new, grown, unchanged, gone, outside the later scan)
// with lengths, per width class, the widest crack and its change, an overview of the earlier
// scan with each change's box in its kind's colour, the table of changes and the settings. In
// the language in force; numbers and dates follow QLocale().
#pragma once

#include <QCoreApplication>
#include <QDate>
#include <QDateTime>
#include <QImage>
#include <QString>

#include <memory>

#include "fisura/change.h"
#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura::ui
{

struct ChangeReportInput {
    std::shared_ptr<const ChangeResult> result;
    QString beforeScan, afterScan; ///< the two scans (the earlier one is the overview's)
    QDate beforeDate, afterDate;   ///< the inspections' dates; invalid: not stated
    QImage overview;               ///< overviewPicture()
    QDateTime date = QDateTime::currentDateTime();
};

class ChangeReport
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::ChangeReport)
public:
    /// The earlier scan at most `maxSide` px a side with each change's box in changeKindColour
    /// and its number in the table. Cancelled between bands.
    static Result<QImage> overviewPicture(const QString& beforeScan, const ChangeResult& result,
                                          int maxSide = 1400, const CancelToken& cancel = {});
    /// The report as HTML (QTextDocument's subset); `layout` 0 sets the table of changes right
    /// after the settings, 1 on a page of its own (writePdf takes 1 when 0 leaves a nearly
    /// empty last page).
    static QString html(const ChangeReportInput& in, int layout = 0);
    /// Writes the PDF atomically (A4); InvalidArgument without a result, IoError when the file
    /// cannot be written.
    static Status writePdf(const QString& path, const ChangeReportInput& in);
    /// Most rows in the PDF's table of changes (the CSV has them all).
    static constexpr int kMaxRows = 400;

private:
    static QString alignment(const ChangeResult& r);
    static QString totals(const ChangeResult& r);
    static QString changeTable(const ChangeResult& r, int layout);
    static QString settings(const ChangeResult& r);
};

} // namespace fisura::ui
