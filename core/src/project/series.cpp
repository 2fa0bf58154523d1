// measureSeries: a structure's scans in date order, each map measured (see fisura/series.h).
#include "fisura/series.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "util/atomic_file.h"
#include "util/json_bounded.h"

namespace fisura
{

namespace
{

/// Totals of one measurement as a point of the series.
SeriesPoint pointOf(const ProjectScan& s, const MeasureResult& r)
{
    SeriesPoint p;
    p.scanId = s.id;
    p.inspectedOn = s.inspectedOn;
    p.input = s.input;
    p.mapPath = s.mapPath;
    p.cracks = r.totals.cracks;
    p.lengthPx = r.totals.lengthPx;
    p.lengthMm = r.totals.lengthMm;
    p.areaPx = r.totals.areaPx;
    p.areaMm2 = r.totals.areaMm2;
    for (const Crack& c : r.cracks)
        if (c.width.maxPx > p.widestPx) {
            p.widestPx = c.width.maxPx;
            p.widestMm = c.width.maxMm;
            p.widestCrack = c.id;
        }
    return p;
}

nlohmann::json orNull(double v)
{
    return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string csvNumber(double v, int decimals)
{
    if (v < 0)
        return {};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace

std::vector<std::string> projectStructures(const Project& project)
{
    std::set<std::string> names;
    for (const ProjectScan& s : project.scans())
        if (!s.structure.empty())
            names.insert(s.structure);
    return {names.begin(), names.end()};
}

Result<Series> measureSeries(const Project& project, const std::string& structure,
                             const MeasureOptions& options, const CancelToken& cancel,
                             ProgressSink* progress)
{
    Series series;
    series.structure = structure;
    std::vector<const ProjectScan*> dated;
    bool named = false;
    for (const ProjectScan& s : project.scans()) {
        if (s.structure != structure)
            continue;
        named = true;
        if (s.inspectedOn.empty() || s.mapPath.empty())
            series.skipped.push_back(s.id + (s.inspectedOn.empty() ? ": no date" : ": no map"));
        else
            dated.push_back(&s);
    }
    if (!named)
        return Status(ErrorCode::NotFound, "no scan of the project shows " + structure);
    if (dated.empty())
        return Status(ErrorCode::InvalidArgument,
                      "no scan of " + structure + " has both a date and a crack map");
    std::stable_sort(dated.begin(), dated.end(), [](const ProjectScan* a, const ProjectScan* b) {
        return a->inspectedOn < b->inspectedOn; // ISO dates sort as text
    });
    ProgressTracker tracker(progress, double(dated.size()));
    for (size_t i = 0; i < dated.size(); ++i) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "series cancelled");
        const ProjectScan& s = *dated[i];
        MeasureOptions o = options;
        // The scan for its pixel size, while it is where the project says (a map carries
        // the scan's resolution tags as well).
        std::error_code ec;
        if (!s.input.empty() && std::filesystem::exists(s.input, ec))
            o.scanPath = s.input;
        auto r = measureCracks(s.mapPath, o, cancel);
        if (!r)
            return Status(r.status().code(),
                          s.id + " (" + s.inspectedOn + "): " + r.status().detail());
        series.points.push_back(pointOf(s, *r));
        tracker.update(double(i + 1), s.inspectedOn);
    }
    return series;
}

std::string toJson(const Series& series, int indent)
{
    using nlohmann::json;
    json points = json::array();
    for (const SeriesPoint& p : series.points)
        points.push_back({{"scan_id", p.scanId},
                          {"inspected_on", p.inspectedOn},
                          {"input", p.input},
                          {"map", p.mapPath},
                          {"cracks", p.cracks},
                          {"length_px", p.lengthPx},
                          {"length_mm", orNull(p.lengthMm)},
                          {"area_px", p.areaPx},
                          {"area_mm2", orNull(p.areaMm2)},
                          {"widest_px", p.widestPx},
                          {"widest_mm", orNull(p.widestMm)},
                          {"widest_crack", p.widestCrack}});
    const json j{{"structure", series.structure}, {"points", points}, {"skipped", series.skipped}};
    return util::dumpJson(j, indent);
}

std::string seriesCsv(const Series& series)
{
    std::string csv = "inspected_on,scan_id,cracks,length_px,length_mm,area_px,area_mm2,"
                      "widest_px,widest_mm,widest_crack,map\n";
    for (const SeriesPoint& p : series.points)
        csv += p.inspectedOn + "," + csvField(p.scanId) + "," + std::to_string(p.cracks) + "," +
               csvNumber(p.lengthPx, 2) + "," + csvNumber(p.lengthMm, 3) + "," +
               std::to_string(p.areaPx) + "," + csvNumber(p.areaMm2, 3) + "," +
               csvNumber(p.widestPx, 2) + "," + csvNumber(p.widestMm, 4) + "," +
               std::to_string(p.widestCrack) + "," + csvField(p.mapPath) + "\n";
    return csv;
}

Status writeSeriesJson(const Series& series, const std::string& path)
{
    return writeFileAtomic(path, toJson(series) + "\n");
}

Status writeSeriesCsv(const Series& series, const std::string& path)
{
    return writeFileAtomic(path, seriesCsv(series));
}

} // namespace fisura
