// Crack change as JSON and CSV (C locale: a decimal point, whatever the user's language).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "fisura/change.h"
#include "util/atomic_file.h"

namespace fisura
{

namespace
{
using nlohmann::json;

std::string num(double v, int decimals = 3)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

/// The comparison's pixel size (mm), 0 when neither map has one.
double pixelSizeOf(const ChangeResult& r)
{
    return r.before.pixelSizeMm > 0 ? r.before.pixelSizeMm : std::max(0.0, r.after.pixelSizeMm);
}

/// A value in mm, null without a pixel size (-1 marks it unknown, but a change may be -1 mm).
json mmOrNull(const ChangeResult& r, double v)
{
    return pixelSizeOf(r) > 0 ? json(v) : json(nullptr);
}

json alignmentJson(const AlignResult& a)
{
    json regions = json::array();
    for (const auto& g : a.regions)
        regions.push_back({{"column", g.column},
                           {"row", g.row},
                           {"box", {g.box.x, g.box.y, g.box.width, g.box.height}},
                           {"count", g.count},
                           {"rms_px", g.rmsPx < 0 ? json(nullptr) : json(g.rmsPx)}});
    const CorrectionField& f = a.field;
    const auto px = [](double v) { return v < 0 ? json(nullptr) : json(v); };
    const json field{{"used", f.used},
                     {"nodes", f.nodes},
                     {"rejected", f.rejected},
                     {"max_correction_px", f.maxPx},
                     {"rms_before_px", px(f.rmsBeforePx)},
                     {"rms_after_px", px(f.rmsAfterPx)}};
    const json georeference{
        {"start", alignStartName(a.start)},
        {"offset_px", px(a.georeferenceOffsetPx)},
        {"offset_map_units", a.georeferenceOffsetPx < 0 || a.georeferenceUnitsPerPx <= 0
                                 ? json(nullptr)
                                 : json(a.georeferenceOffsetPx * a.georeferenceUnitsPerPx)}};
    return {{"model", alignModelName(a.model)},
            {"georeference", georeference},
            {"correction_field", field},
            {"matrix_after_to_before", a.matrix},
            {"before_size", {a.beforeWidth, a.beforeHeight}},
            {"after_size", {a.afterWidth, a.afterHeight}},
            {"matches", a.matches},
            {"inliers", a.inliers},
            {"coarse_rms_px", a.coarseRmsPx},
            {"windows", a.windows},
            {"windows_matched", a.refined},
            {"rms_px", a.rmsPx},
            {"regions", regions},
            {"overlap", a.overlap},
            {"scale", a.scale},
            {"rotation_deg", a.rotationDeg},
            {"coarse_seconds", a.coarseSeconds},
            {"refine_seconds", a.refineSeconds}};
}

/// Centre lines as arrays of [x, y] before-scan pixels (to 0.01 px: the lines' own precision is
/// a skeleton pixel).
json linesJson(const std::vector<std::vector<CentrePoint>>& lines)
{
    json out = json::array();
    for (const auto& line : lines) {
        json points = json::array();
        for (const CentrePoint& p : line)
            points.push_back({std::round(p.x * 100) / 100, std::round(p.y * 100) / 100});
        out.push_back(std::move(points));
    }
    return out;
}

json changeItem(const ChangeResult& r, const CrackChange& c)
{
    const auto& ids = r.before.options.classes.ids;
    return {{"change", changeKindName(c.kind)},
            {"after_id", c.afterId},
            {"after_ids", c.afterIds},
            {"before_ids", c.beforeIds},
            {"before_length_px", c.beforeLengthPx},
            {"after_length_px", c.afterLengthPx},
            {"length_gain_px", c.lengthGainPx},
            {"length_gain_mm", mmOrNull(r, c.lengthGainMm)},
            {"before_width_px", c.beforeWidthPx},
            {"after_width_px", c.afterWidthPx},
            {"width_change_px", c.widthChangePx},
            {"width_change_mm", mmOrNull(r, c.widthChangeMm)},
            {"after_max_width_px", c.afterMaxWidthPx},
            {"after_max_width_mm", mmOrNull(r, c.afterMaxWidthMm)},
            {"width_class",
             c.widthClass >= 0 && size_t(c.widthClass) < ids.size() && !r.before.classes.empty()
                 ? json(ids[size_t(c.widthClass)])
                 : json(nullptr)},
            {"box", {c.box.x, c.box.y, c.box.width, c.box.height}},
            {"lines", linesJson(c.lines)},
            {"grown_lines", linesJson(c.grownLines)}};
}
} // namespace

std::string changeJson(const ChangeResult& r, int indent)
{
    json totals = json::object();
    for (int k = 0; k < 5; ++k)
        totals[changeKindName(ChangeKind(k))] = {
            {"count", r.totals[size_t(k)].count},
            {"length_px", r.totals[size_t(k)].lengthPx},
            {"length_mm", mmOrNull(r, r.totals[size_t(k)].lengthMm)}};
    json byClass = json::array();
    for (size_t i = 0; i < r.byWidthClass.size(); ++i) {
        json row{{"class", r.before.options.classes.ids[i]}};
        for (int k = 0; k < 5; ++k)
            row[changeKindName(ChangeKind(k))] = r.byWidthClass[i][size_t(k)];
        byClass.push_back(row);
    }
    json changes = json::array();
    for (const auto& c : r.changes)
        changes.push_back(changeItem(r, c));
    const double px = pixelSizeOf(r);
    json j{{"alignment", alignmentJson(r.alignment)},
           {"before_map", r.before.mapPath},
           {"aligned_after_map", r.alignedMapPath},
           {"pixel_size_mm", px > 0 ? json(px) : json(nullptr)},
           {"totals", totals},
           {"by_width_class", byClass},
           {"class_note", kWidthClassNoteText},
           {"widest",
            r.widestIndex >= 0 ? changeItem(r, r.changes[size_t(r.widestIndex)]) : json(nullptr)},
           {"changes", changes},
           {"compare_seconds", r.compareSeconds}};
    return j.dump(indent);
}

std::string changeCsv(const ChangeResult& r)
{
    std::string out = "change,after_id,before_ids,before_length_px,after_length_px,"
                      "length_gain_px,length_gain_mm,before_width_px,after_width_px,"
                      "width_change_px,width_change_mm,after_max_width_px,width_class,x,y,"
                      "width,height\n";
    const auto& ids = r.before.options.classes.ids;
    for (const auto& c : r.changes) {
        std::string before;
        for (int id : c.beforeIds)
            before += (before.empty() ? "" : " ") + std::to_string(id);
        const bool mm = pixelSizeOf(r) > 0; // a change may be -1 mm: not "unknown"
        out += std::string(changeKindName(c.kind)) + "," + std::to_string(c.afterId) + "," +
               before + "," + num(c.beforeLengthPx) + "," + num(c.afterLengthPx) + "," +
               num(c.lengthGainPx) + "," + (mm ? num(c.lengthGainMm, 4) : "") + "," +
               num(c.beforeWidthPx) + "," + num(c.afterWidthPx) + "," + num(c.widthChangePx) + "," +
               (mm ? num(c.widthChangeMm, 4) : "") + "," + num(c.afterMaxWidthPx) + "," +
               (c.widthClass >= 0 && size_t(c.widthClass) < ids.size() && !r.before.classes.empty()
                    ? ids[size_t(c.widthClass)]
                    : "") +
               "," + std::to_string(c.box.x) + "," + std::to_string(c.box.y) + "," +
               std::to_string(c.box.width) + "," + std::to_string(c.box.height) + "\n";
    }
    return out;
}

Status writeChangeJson(const ChangeResult& r, const std::string& path)
{
    return writeFileAtomic(path, changeJson(r) + "\n");
}

Status writeChangeCsv(const ChangeResult& r, const std::string& path)
{
    return writeFileAtomic(path, changeCsv(r));
}

} // namespace fisura
