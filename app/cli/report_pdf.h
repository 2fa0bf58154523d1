// `fisura-cli measure --pdf FILE [--lang es|en]` and `fisura-cli compare --pdf FILE`: the PDF
// reports are written by the GUI
// executable in its headless report mode (`fisura --report-pdf ...`), because the report
// needs Qt and fisura-cli links core only.
#pragma once

#include <string>
#include <vector>

namespace fisura::cli
{

struct ReportPdfArgs {
    std::string pdf, map, scan, lang = "en", model;
    double pixelSize = 0;              ///< 0: from the files
    double threshold = 0.5;            ///< crack probability
    std::vector<double> classLimitsMm; ///< empty: the defaults
    std::string classes;               ///< a width-class preset id; empty: the defaults
};

/// `fisura-cli compare --pdf FILE`: the report of the changes between two inspections.
struct ChangeReportPdfArgs {
    std::string pdf, before, beforeMap, after, afterMap, lang = "en";
    std::string beforeDate, afterDate; ///< YYYY-MM-DD; empty: the scan files' dates
    double pixelSize = 0;              ///< 0: from the files
    double threshold = 0.5;            ///< crack probability
    double tolerancePx = 6;
    int closingRadiusPx = 1, minAreaPx = 20;
    std::string classBy = "median", model = "auto"; ///< the measurement's; the alignment model
    std::vector<double> classLimitsMm;              ///< empty: the preset's
    std::string classes; ///< a width-class preset id; empty: the defaults
};

/// The `fisura` executable beside this one (installed layout), in the build tree's app/gui,
/// or on PATH; empty when there is none.
std::string findGuiExecutable();

/// Runs `fisura --report-pdf ...` and waits; returns its exit status, or 1 with a message on
/// stderr when `fisura` cannot be found or started.
int writeReportPdf(const ReportPdfArgs& args);
/// Runs `fisura --change-report-pdf ...` and waits, as writeReportPdf.
int writeChangeReportPdf(const ChangeReportPdfArgs& args);

} // namespace fisura::cli
