// Width classes and the CSV / JSON exports of a measurement.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fisura/measure.h"
#include "fisura/options.h"
#include "fisura/threshold.h"
#include "util/atomic_file.h"
#include "util/json_bounded.h"

namespace fisura
{

int WidthClasses::classOf(double widthMm) const
{
    if (widthMm < 0)
        return -1;
    for (size_t k = 0; k < upperLimitsMm.size(); ++k)
        if (widthMm < upperLimitsMm[k])
            return int(k);
    return int(upperLimitsMm.size());
}

Status WidthClasses::validate() const
{
    if (ids.size() != upperLimitsMm.size() + 1)
        return Status(ErrorCode::InvalidArgument, "width classes need one more name than limits (" +
                                                      std::to_string(ids.size()) + " names, " +
                                                      std::to_string(upperLimitsMm.size()) +
                                                      " limits)");
    if (!(tolerableMm >= 0) || !std::isfinite(tolerableMm))
        return Status(ErrorCode::InvalidArgument, "tolerable crack width must not be negative");
    for (size_t k = 0; k < upperLimitsMm.size(); ++k) {
        const double v = upperLimitsMm[k];
        if (!(v > 0) || !std::isfinite(v) || (k > 0 && !(v > upperLimitsMm[k - 1])))
            return Status(ErrorCode::InvalidArgument,
                          "width class limits must be positive and ascending (limit " +
                              std::to_string(k + 1) + ")");
    }
    return Status::ok();
}

namespace
{

std::string num(double v, int decimals = 3)
{
    if (v < 0 && v > -1.0001 && v < -0.9999)
        return ""; // -1: unknown (no pixel size)
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string classId(const MeasureResult& r, int k)
{
    return k >= 0 && size_t(k) < r.options.classes.ids.size() ? r.options.classes.ids[size_t(k)]
                                                              : "";
}

std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

nlohmann::json widthJson(const WidthStats& w)
{
    nlohmann::json j{{"mean_px", w.meanPx}, {"median_px", w.medianPx}, {"max_px", w.maxPx}};
    if (w.meanMm >= 0) {
        j["mean_mm"] = w.meanMm;
        j["median_mm"] = w.medianMm;
        j["max_mm"] = w.maxMm;
    }
    return j;
}

nlohmann::json boxJson(const PixelBox& b)
{
    return {{"x", b.x}, {"y", b.y}, {"width", b.width}, {"height", b.height}};
}

std::string siblingPath(const std::string& path, const std::string& suffix)
{
    namespace fs = std::filesystem;
    const fs::path p(path);
    return (p.parent_path() / (p.stem().string() + suffix)).string();
}

} // namespace

namespace
{

/// Rows gathered in a stream and handed on about every megabyte.
class CsvPieces
{
public:
    explicit CsvPieces(const ChunkSink& put) : put_(put) {}
    std::ostringstream& out() { return out_; }
    void rowDone()
    {
        if (out_.tellp() > (1 << 20))
            flush();
    }
    void flush()
    {
        const std::string s = out_.str();
        if (!s.empty())
            put_(s);
        out_.str({});
    }

private:
    const ChunkSink& put_;
    std::ostringstream out_;
};

void cracksCsvTo(const MeasureResult& r, const ChunkSink& put)
{
    CsvPieces pieces(put);
    std::ostringstream& out = pieces.out();
    out << "id,length_px,length_mm,mean_width_px,median_width_px,max_width_px,mean_width_mm,"
           "median_width_mm,max_width_mm,width_class,orientation_deg,box_x,box_y,box_width,"
           "box_height,centroid_x,centroid_y,area_px,area_mm2,branches,junctions,ends,exceeds_"
           "limit\n";
    for (const auto& c : r.cracks) {
        out << c.id << ',' << num(c.lengthPx, 2) << ',' << num(c.lengthMm) << ','
            << num(c.width.meanPx, 2) << ',' << num(c.width.medianPx, 2) << ','
            << num(c.width.maxPx, 2) << ',' << num(c.width.meanMm, 4) << ','
            << num(c.width.medianMm, 4) << ',' << num(c.width.maxMm, 4) << ','
            << classId(r, c.widthClass) << ',' << num(c.orientationDeg, 1) << ',' << c.box.x << ','
            << c.box.y << ',' << c.box.width << ',' << c.box.height << ',' << num(c.centroidX, 1)
            << ',' << num(c.centroidY, 1) << ',' << c.areaPx << ',' << num(c.areaMm2, 4) << ','
            << c.branches << ',' << c.junctions << ',' << c.ends << ',' << int(c.exceedsLimit)
            << '\n';
        pieces.rowDone();
    }
    pieces.flush();
}

void branchesCsvTo(const MeasureResult& r, const ChunkSink& put)
{
    CsvPieces pieces(put);
    std::ostringstream& out = pieces.out();
    out << "id,crack_id,length_px,length_mm,mean_width_px,median_width_px,max_width_px,"
           "mean_width_mm,median_width_mm,max_width_mm,width_class,orientation_deg,box_x,box_y,"
           "box_width,box_height,centroid_x,centroid_y,exceeds_limit\n";
    for (const auto& b : r.branches) {
        out << b.id << ',' << b.crackId << ',' << num(b.lengthPx, 2) << ',' << num(b.lengthMm)
            << ',' << num(b.width.meanPx, 2) << ',' << num(b.width.medianPx, 2) << ','
            << num(b.width.maxPx, 2) << ',' << num(b.width.meanMm, 4) << ','
            << num(b.width.medianMm, 4) << ',' << num(b.width.maxMm, 4) << ','
            << classId(r, b.widthClass) << ',' << num(b.orientationDeg, 1) << ',' << b.box.x << ','
            << b.box.y << ',' << b.box.width << ',' << b.box.height << ',' << num(b.centroidX, 1)
            << ',' << num(b.centroidY, 1) << ',' << int(b.exceedsLimit) << '\n';
        pieces.rowDone();
    }
    pieces.flush();
}

/// What `produce` writes piece by piece, as one string.
std::string collected(const std::function<void(const ChunkSink&)>& produce)
{
    std::string text;
    produce([&](std::string_view piece) { text.append(piece); });
    return text;
}

} // namespace

std::string cracksCsv(const MeasureResult& r)
{
    return collected([&](const ChunkSink& put) { cracksCsvTo(r, put); });
}

std::string branchesCsv(const MeasureResult& r)
{
    return collected([&](const ChunkSink& put) { branchesCsvTo(r, put); });
}

std::string scanCsv(const MeasureResult& r)
{
    const auto& t = r.totals;
    std::ostringstream out;
    out << "key,value\n"
        << "map," << quoted(r.mapPath) << '\n'
        << "width_px," << r.width << "\nheight_px," << r.height << '\n'
        << "pixel_size_mm," << (r.pixelSizeMm > 0 ? num(r.pixelSizeMm, 6) : "") << '\n'
        << "pixel_size_source," << r.pixelSizeSource << '\n'
        << "threshold," << r.options.threshold << '\n'
        << "threshold_map_byte," << mapByteThreshold(r.options.threshold) << '\n'
        << "closing_radius_px," << r.options.closingRadiusPx << '\n'
        << "min_area_px," << r.options.minAreaPx << '\n'
        << "class_by," << classByName(r.options.classBy) << '\n'
        << "cracks," << t.cracks << "\nbranches," << t.branches << '\n'
        << "total_length_px," << num(t.lengthPx, 2) << '\n'
        << "total_length_mm," << num(t.lengthMm) << '\n'
        << "cracked_area_px," << t.areaPx << '\n'
        << "cracked_area_mm2," << num(t.areaMm2, 4) << '\n'
        << "cracked_area_fraction," << num(t.areaFraction, 6) << '\n'
        << "density_m_per_m2," << num(t.densityMPerM2, 4) << '\n'
        << "class_note," << quoted(kWidthClassNoteText) << '\n'
        << "class_preset," << r.options.classes.preset << '\n'
        << "tolerable_width_mm,"
        << (r.options.classes.tolerableMm > 0 ? num(r.options.classes.tolerableMm, 3) : "") << '\n'
        << "cracks_over_limit," << r.flaggedCracks << '\n'
        << "\nclass,from_mm,to_mm,cracks,branches,length_px,length_mm\n";
    for (const auto& k : r.classes)
        out << k.id << ',' << num(k.fromMm, 3) << ',' << (k.toMm < 0 ? "" : num(k.toMm, 3)) << ','
            << k.cracks << ',' << k.branches << ',' << num(k.lengthPx, 2) << ',' << num(k.lengthMm)
            << '\n';
    return out.str();
}

namespace
{

/// Everything of the JSON but the lists of cracks and branches.
nlohmann::json headJson(const MeasureResult& r)
{
    using nlohmann::json;
    const auto& t = r.totals;
    json j;
    j["map"] = r.mapPath;
    j["width"] = r.width;
    j["height"] = r.height;
    j["pixel_size_mm"] = r.pixelSizeMm > 0 ? json(r.pixelSizeMm) : json(nullptr);
    j["pixel_size_source"] = r.pixelSizeSource;
    j["thinning"] = r.thinning;
    j["seconds"] = r.seconds;
    j["options"] = {{"threshold", r.options.threshold},
                    {"threshold_map_byte", mapByteThreshold(r.options.threshold)},
                    {"closing_radius_px", r.options.closingRadiusPx},
                    {"min_area_px", r.options.minAreaPx},
                    {"class_by", classByName(r.options.classBy)},
                    {"class_limits_mm", r.options.classes.upperLimitsMm},
                    {"class_ids", r.options.classes.ids},
                    {"class_preset", r.options.classes.preset},
                    {"tolerable_width_mm", r.options.classes.tolerableMm > 0
                                               ? json(r.options.classes.tolerableMm)
                                               : json(nullptr)},
                    {"tile_size", r.options.tileSize},
                    {"margin_px", r.options.marginPx}};
    json totals{{"cracks", t.cracks},
                {"branches", t.branches},
                {"length_px", t.lengthPx},
                {"area_px", t.areaPx},
                {"area_fraction", t.areaFraction}};
    if (r.pixelSizeMm > 0) {
        totals["length_mm"] = t.lengthMm;
        totals["area_mm2"] = t.areaMm2;
        totals["density_m_per_m2"] = t.densityMPerM2;
    }
    totals["cracks_over_limit"] = r.flaggedCracks;
    j["totals"] = totals;
    j["class_note"] = kWidthClassNoteText;
    j["classes"] = json::array();
    for (const auto& k : r.classes)
        j["classes"].push_back({{"id", k.id},
                                {"from_mm", k.fromMm},
                                {"to_mm", k.toMm < 0 ? json(nullptr) : json(k.toMm)},
                                {"cracks", k.cracks},
                                {"branches", k.branches},
                                {"length_px", k.lengthPx},
                                {"length_mm", k.lengthMm}});
    j["width_histogram"] = {{"bin_px", r.widthHistogramBinPx}, {"counts", r.widthHistogram}};
    return j;
}

nlohmann::json crackJson(const MeasureResult& r, const Crack& c)
{
    nlohmann::json e{{"id", c.id},
                     {"length_px", c.lengthPx},
                     {"width", widthJson(c.width)},
                     {"orientation_deg", c.orientationDeg},
                     {"box", boxJson(c.box)},
                     {"centroid", {c.centroidX, c.centroidY}},
                     {"area_px", c.areaPx},
                     {"branches", c.branches},
                     {"junctions", c.junctions},
                     {"ends", c.ends},
                     {"width_class", classId(r, c.widthClass)},
                     {"exceeds_limit", c.exceedsLimit}};
    if (c.lengthMm >= 0) {
        e["length_mm"] = c.lengthMm;
        e["area_mm2"] = c.areaMm2;
    }
    return e;
}

nlohmann::json branchJson(const MeasureResult& r, const CrackBranch& b)
{
    nlohmann::json e{{"id", b.id},
                     {"crack_id", b.crackId},
                     {"length_px", b.lengthPx},
                     {"width", widthJson(b.width)},
                     {"orientation_deg", b.orientationDeg},
                     {"box", boxJson(b.box)},
                     {"centroid", {b.centroidX, b.centroidY}},
                     {"width_class", classId(r, b.widthClass)},
                     {"exceeds_limit", b.exceedsLimit}};
    if (b.lengthMm >= 0)
        e["length_mm"] = b.lengthMm;
    return e;
}

/// The JSON, piece by piece: the text nlohmann's dump of the whole document would give (keys in
/// its order, its indentation), without the document of every crack and branch in memory (for
/// 332 k branches that document took about 1 GB, the text 213 MB).
void streamJson(const MeasureResult& r, int indent, const ChunkSink& put)
{
    nlohmann::json head = headJson(r);
    head["cracks"] = nullptr; // placeholders: the lists go where nlohmann would put them
    head["branches"] = nullptr;
    const bool pretty = indent >= 0;
    const std::string pad1(size_t(std::max(indent, 0)), ' '), pad2 = pad1 + pad1;
    // A value dumped on its own, its lines moved in by `pad` (strings hold no raw newline).
    auto nested = [&](const nlohmann::json& v, const std::string& pad) {
        std::string s = util::dumpJson(v, indent);
        if (!pretty || pad.empty())
            return s;
        std::string out;
        out.reserve(s.size() + s.size() / 8);
        for (char c : s) {
            out += c;
            if (c == '\n')
                out += pad;
        }
        return out;
    };
    auto list = [&](size_t n, const std::function<nlohmann::json(size_t)>& element) {
        if (n == 0) {
            put("[]");
            return;
        }
        put("[");
        for (size_t i = 0; i < n; ++i) {
            put(i == 0 ? "" : ",");
            if (pretty) {
                put("\n");
                put(pad2);
            }
            put(nested(element(i), pad2));
        }
        if (pretty) {
            put("\n");
            put(pad1);
        }
        put("]");
    };
    put("{");
    bool first = true;
    for (auto it = head.begin(); it != head.end(); ++it) {
        put(first ? "" : ",");
        first = false;
        if (pretty) {
            put("\n");
            put(pad1);
        }
        put(util::dumpJson(nlohmann::json(it.key())));
        put(pretty ? ": " : ":");
        if (it.key() == "cracks")
            list(r.cracks.size(), [&](size_t i) { return crackJson(r, r.cracks[i]); });
        else if (it.key() == "branches")
            list(r.branches.size(), [&](size_t i) { return branchJson(r, r.branches[i]); });
        else
            put(nested(it.value(), pad1));
    }
    put(pretty ? "\n}" : "}");
}

} // namespace

std::string toJson(const MeasureResult& r, int indent)
{
    return collected([&](const ChunkSink& put) { streamJson(r, indent, put); });
}

std::vector<std::string> measureCsvPaths(const std::string& path)
{
    return {path, siblingPath(path, ".branches.csv"), siblingPath(path, ".scan.csv")};
}

Status writeMeasureCsv(const MeasureResult& result, const std::string& path)
{
    const std::vector<std::string> paths = measureCsvPaths(path);
    if (Status s = writeFileAtomicStreamed(paths[0],
                                           [&](const ChunkSink& put) { cracksCsvTo(result, put); });
        !s)
        return s;
    if (Status s = writeFileAtomicStreamed(
            paths[1], [&](const ChunkSink& put) { branchesCsvTo(result, put); });
        !s)
        return s;
    return writeFileAtomic(paths[2], scanCsv(result));
}

Status writeMeasureJson(const MeasureResult& result, const std::string& path)
{
    return writeFileAtomicStreamed(path, [&](const ChunkSink& put) { streamJson(result, 2, put); });
}

} // namespace fisura
