// Inspections over time: the scans of a project that show one structure, each with its date,
// form a series; its timeline is what each date's crack map measures — total crack length,
// cracked area and the widest crack — oldest first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fisura/job.h"
#include "fisura/measure.h"
#include "fisura/project.h"
#include "fisura/status.h"

namespace fisura
{

struct SeriesPoint {
    std::string scanId, inspectedOn, input, mapPath;
    int cracks = 0;
    double lengthPx = 0, lengthMm = -1; ///< total crack length (-1: no pixel size)
    uint64_t areaPx = 0;
    double areaMm2 = -1;                ///< cracked area
    double widestPx = 0, widestMm = -1; ///< the largest crack width (Crack::width.max*)
    int widestCrack = 0;                ///< its crack id (0: no crack)
};

struct Series {
    std::string structure;
    std::vector<SeriesPoint> points; ///< by date, oldest first
    /// Scans of the structure left out: no date or no map ("scan-3: no date").
    std::vector<std::string> skipped;
};

/// The structures the project's scans name, sorted, each once.
std::vector<std::string> projectStructures(const Project& project);

/// Measures the crack map of every scan of `structure` that has a date and a map, oldest first,
/// with `options` (each scan's own file as the options' scan, for its pixel size, when it is
/// still there). Errors:
/// NotFound when no scan names the structure; InvalidArgument when none of them has a date and a
/// map; measureCracks's, the detail naming the scan; Cancelled. Progress: one step per scan.
Result<Series> measureSeries(const Project& project, const std::string& structure,
                             const MeasureOptions& options = {}, const CancelToken& cancel = {},
                             ProgressSink* progress = nullptr);

/// {"structure", "points": [...], "skipped": [...]} (C locale; *_mm null without pixel size).
std::string toJson(const Series& series, int indent = 2);
/// CSV, one row per date (header first, C locale).
std::string seriesCsv(const Series& series);
/// Both written atomically (nothing is left on failure).
Status writeSeriesJson(const Series& series, const std::string& path);
Status writeSeriesCsv(const Series& series, const std::string& path);

} // namespace fisura
