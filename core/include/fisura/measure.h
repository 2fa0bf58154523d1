// Crack measurement: from a probability map (or any mask) to the cracks an inspector writes
// down — how many, how long, how wide, where, and in which width class.
//
// Pipeline, tile by tile over maps of any size:
//   threshold -> closing of small gaps (disk of `closingRadiusPx`) -> Euclidean distance
//   transform -> skeleton (Guo-Hall thinning: OpenCV ximgproc's when the build has it, else
//   Fisura's implementation of it) -> removal of spurs (end branches no longer than the crack
//   is wide where they join) -> crack graph.
// A crack is one 8-connected network of the cleaned mask; a branch is a piece of its skeleton
// between junctions and ends (skeleton pixels with three or more neighbours are junctions).
//
// Length runs along the skeleton with the corner-corrected chain-code estimator of Vossepoel
// and Smeulders (1982): 0.980 per straight step + 1.406 per diagonal step - 0.091 per corner
// (a change between straight and diagonal), which is within about 2 % for lines at any angle
// where the plain 1 / sqrt(2) count overestimates by up to 8 %. Diagonal steps that have a
// straight two-step path on the skeleton are not counted (m-adjacency), so staircases and
// junction clusters are not counted twice.
// Width at a skeleton pixel is 2 x (distance to the nearest background pixel centre) - 0.5 px:
// the distance from a pixel centre overshoots the crack edge by half a pixel, and the skeleton
// of an even width sits half a pixel off the centre line, so this is within 0.5 px of the drawn
// width for lines along the axes. At each skeleton end the length goes on by the distance to
// the background there (less half a pixel): thinning stops about half a width short of a
// blunt crack end.
//
// Memory is bounded and independent of the map's height and of the number of pixels:
//   threads x (tileSize + 2 x margin)^2 x 32 bytes      (per-tile buffers; 512 px tiles with
//                                                        64 px margins: about 13 MB a thread)
// + map width x 26 bytes                                 (labels of the rows between tile rows)
// + with a width layer, one row of tiles of it (map width x tileSize bytes)
// + about 2 KB per crack or branch still open at the current tile row
// + the results: about 200 bytes per crack; the branches' records (about 130 bytes a branch,
//   90 per width segment and 24 per centre-line vertex) up to `branchMemoryMb` in memory, the
//   rest in a temporary file (see BranchList); about 32 bytes a branch for their index and
//   order; while a branch is open, 16 bytes per skeleton pixel of it.
// Cracks and branches that cross tile borders are merged (union-find over border pixels), so
// every crack is counted once, whatever the tile size. The skeleton and the widths are exact
// (equal to those of the whole map at once) where a crack is narrower than about the margin.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/job.h"
#include "fisura/status.h"
#include "fisura/tiledimage.h"

namespace fisura
{

/// Width classes: `upperLimitsMm` are ascending; a width w (mm) is in class k when it is below
/// upperLimitsMm[k] and not below the previous limit; the last class has no upper limit.
/// `ids` are stable codes ("hairline", ...) that the GUI translates; there is one more id than
/// limits. The limits depend on the standard in force (inspection manual, contract): show
/// `kWidthClassNote` (translated) next to any class table.
struct WidthClasses {
    std::vector<double> upperLimitsMm = {0.1, 0.3, 1.0};
    std::vector<std::string> ids = {"hairline", "fine", "medium", "wide"};
    /// Where the limits come from: a preset id of widthClassPresets() or "custom".
    std::string preset = "default";
    /// > 0: the tolerable width of the standard in force (mm). Cracks and branches whose class
    /// width is not below it are flagged (Crack::exceedsLimit). 0: nothing is flagged.
    double tolerableMm = 0;

    /// Class index of a width in mm, or -1 when widthMm is negative (no pixel size).
    int classOf(double widthMm) const;
    /// InvalidArgument when the limits are not positive and ascending or the ids do not match.
    Status validate() const;
};

/// Width-class limits as a standard (or Fisura's default) sets them.
struct WidthClassPreset {
    std::string id;     ///< stable code: "default", "aci224r-dry", "en1992-xc1", ...
    std::string source; ///< the standard and table it comes from, with the case (English)
    std::string
        citation; ///< the standard and table only ("ACI 224R-01 Table 4.1"); empty: Fisura's
    WidthClasses classes;
};

/// The presets, "default" first: Fisura's hairline / fine / medium / wide classes; ACI 224R-01
/// Table 4.1 tolerable crack widths (dry air 0.41 mm, humidity / moist air / soil 0.30, de-icing
/// chemicals 0.18, seawater and seawater spray / wetting and drying 0.15, water-retaining
/// structures 0.10); EN 1992-1-1 Table 7.1N w_max (0.4 mm X0, XC1; 0.3 mm XC2-XC4, XD, XS for
/// reinforced members; 0.2 mm prestressed members with bonded tendons). A standard's preset has
/// two classes, "within_limit" and "over_limit", split at its tolerable width.
const std::vector<WidthClassPreset>& widthClassPresets();
/// The preset with this id; NotFound (detail lists the ids) otherwise.
Result<WidthClassPreset> widthClassPreset(const std::string& id);

/// Colour (RGB) of width class k of `classes` wherever classes are drawn (overlays, tables, plots,
/// reports, GIS and CAD exports): hairline green, fine yellow, medium orange, wide red (and red
/// beyond); a standard's "within_limit" blue (#0072B2) and "over_limit" vermillion (#D55E00),
/// Okabe and Ito's pair that stays apart for every kind of colour blindness, so the class over
/// the tolerable width is the alarming one; grey for k < 0 (no pixel size).
std::array<uint8_t, 3> widthClassColour(const WidthClasses& classes, int k);

/// Stable code of the note that must accompany width classes (the GUI translates it).
inline constexpr const char* kWidthClassNote = "width_class_limits_depend_on_standard";
/// The note in English, for CSV / JSON exports.
inline constexpr const char* kWidthClassNoteText =
    "Width class limits depend on the standard in force; check them before reporting.";

/// Which width statistic decides the class of a crack or branch.
enum class ClassBy { Median, Mean, Max };

struct MeasureOptions {
    /// Crack probability (0 < t <= 1): map bytes >= mapByteThreshold(t) are crack (0.5: 128).
    double threshold = 0.5;
    int closingRadiusPx = 1;  ///< morphological closing with a disk of this radius (0 = none)
    int minAreaPx = 20;       ///< cracks with fewer mask pixels are dropped (noise)
    double pixelSizeMm = 0.0; ///< > 0 overrides the map's (or the scan's) resolution tags
    std::string scanPath;     ///< optional: the scan the map belongs to (pixel size, size check)
    WidthClasses classes;     ///< defaults: < 0.1 hairline, 0.1-0.3 fine, 0.3-1 medium, >= 1 wide
    ClassBy classBy = ClassBy::Median;
    int tileSize = 512; ///< core tile edge in px (64..8192)
    int marginPx = 64;  ///< overlap read around each tile (2 x closing radius + 16..1024)
    int threads = 0;    ///< tiles analysed at once; 0 = one per core (at most 8)
    /// Branch records kept in memory (MiB); beyond it they go to a temporary file (BranchList).
    /// Half of it while the map is read, half for the result as it is put in order.
    int branchMemoryMb = 32;
    /// Optional: writes a width-class layer here (tiled pyramidal TIFF of the map's size, same
    /// pixel size): 0 background, else 1 + the width class of the nearest skeleton pixel (1 on
    /// every crack pixel when the pixel size is unknown). A viewer colours it with a lookup
    /// table. Written atomically; nothing is left on failure or cancellation.
    std::string widthLayerPath;
    /// What the map and scan read may claim (pixels, pixels per byte): see ImageLimits.
    /// (CLI: --max-pixels, --max-pixels-per-byte)
    ImageLimits limits;
};

struct PixelBox {
    int x = 0, y = 0, width = 0, height = 0; ///< in map pixels; zoom to it in a viewer
};

/// Widths sampled on the skeleton pixels. *Mm fields are -1 when the pixel size is unknown.
struct WidthStats {
    double meanPx = 0, medianPx = 0, maxPx = 0;
    double meanMm = -1, medianMm = -1, maxMm = -1;
};

/// A vertex of a branch's centre line: the centre of a skeleton pixel (map pixels, the map's
/// top-left corner at 0, 0, so pixel (i, j) has its centre at i + 0.5, j + 0.5) and the crack's
/// width there.
struct CentrePoint {
    double x = 0, y = 0;
    double widthPx = 0;
};

/// A piece of a branch's centre line along which the width stays in one width class, so that a
/// GIS can colour a crack along its length. The widths of the skeleton pixels are smoothed by a
/// running median over 7 pixels before their class is read, and a piece shorter than 8 skeleton
/// pixels joins its longer neighbour (a pixel or two of noise at a class limit is not a
/// segment). Without a pixel size there are no classes and a branch is one segment.
struct BranchSegment {
    int id = 0;                ///< 1..n over the scan, in branch order, then along the line
    int firstVertex = 0;       ///< centreLine[firstVertex..lastVertex]: neighbours share
    int lastVertex = 0;        ///< their end vertex
    double lengthPx = 0;       ///< its share of the branch's length (by its line's length)
    double lengthMm = -1;      ///< -1 without pixel size
    WidthStats width;          ///< of the skeleton pixels along it
    int widthClass = -1;       ///< by MeasureOptions::classBy of `width`; -1 without pixel size
    bool exceedsLimit = false; ///< class width not below WidthClasses::tolerableMm (if set)
};

struct CrackBranch {
    int id = 0;      ///< 1..n over the scan, ordered by crack, then top-left corner
    int crackId = 0; ///< the crack it belongs to
    double lengthPx = 0;
    double lengthMm = -1;
    WidthStats width;
    double orientationDeg = 0; ///< 0..180, counter-clockwise from the horizontal (screen view)
    PixelBox box;              ///< of its skeleton pixels
    double centroidX = 0, centroidY = 0; ///< of its skeleton pixels
    int widthClass = -1;                 ///< index into WidthClasses, -1 without pixel size
    bool exceedsLimit = false; ///< class width not below WidthClasses::tolerableMm (if set)
    /// The skeleton from one end to the other (a closed loop repeats its first vertex), thinned
    /// to the vertices that keep it within half a pixel (Douglas-Peucker); at a crack's free end
    /// it goes on as far as the length does (see the top of this file). It stops at the junction
    /// pixels, so the branches of a crack leave gaps of a pixel or two there.
    std::vector<CentrePoint> centreLine;
    /// The centre line cut where the width class changes (one segment when it never does).
    std::vector<BranchSegment> segments;
};

/// The branches of a measurement, in order. A scan can have hundreds of thousands of them, with
/// millions of centre-line vertices, so the list keeps their records packed (no allocation per
/// branch) and, beyond its memory budget, in a temporary file of the system's temporary folder
/// (TMPDIR), unlinked as soon as it is made, so nothing is left behind even on a crash. Reading
/// gives each branch back as a CrackBranch, the same values that went in.
///
/// Copies share the records already written (the file only grows) and each keeps its own order;
/// copies may be read and appended to from different threads (one list object, like a vector,
/// is not appended to while it is read). Reading a record that went to the file throws
/// std::system_error only if the disk fails to give back what it was given.
class BranchList
{
public:
    static constexpr size_t kDefaultMemoryBytes = size_t(32) << 20;

    BranchList();
    /// `memoryBytes`: records kept in memory before they go to the file (0: all to the file).
    explicit BranchList(size_t memoryBytes);

    size_t size() const { return offsets_.size(); }
    bool empty() const { return offsets_.empty(); }
    CrackBranch operator[](size_t i) const;
    /// Appends a copy of `b`. IoError ("disk_full: ..." when it is) if the file cannot take it;
    /// the list is then unchanged.
    Status push_back(const CrackBranch& b);
    void clear();
    /// Bytes of this list's store in the temporary file (0 while everything fits in memory).
    uint64_t fileBytes() const;

    /// Reads ahead in blocks, so walking a list in order costs a read per megabyte.
    class const_iterator
    {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = CrackBranch;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = CrackBranch;

        const_iterator() = default;
        CrackBranch operator*() const;
        const_iterator& operator++()
        {
            ++i_;
            return *this;
        }
        bool operator==(const const_iterator& o) const { return i_ == o.i_; }
        bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

    private:
        friend class BranchList;
        struct Window;
        const_iterator(const BranchList* list, size_t i);
        const BranchList* list_ = nullptr;
        size_t i_ = 0;
        mutable std::shared_ptr<Window> window_; // the block read last
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

private:
    struct Store;
    std::shared_ptr<Store> store_;
    std::vector<uint64_t> offsets_; // where each record starts in the store
    std::vector<uint32_t> sizes_;   // and its length in bytes
};

struct Crack {
    int id = 0; ///< 1..n over the scan, ordered by the top-left corner of the box (row, column)
    double lengthPx = 0; ///< along the whole skeleton, junctions included
    double lengthMm = -1;
    WidthStats width;
    double orientationDeg = 0; ///< principal axis of the skeleton, 0..180 (see CrackBranch)
    PixelBox box;              ///< of its mask pixels
    double centroidX = 0, centroidY = 0; ///< of its mask pixels
    uint64_t areaPx = 0;                 ///< mask pixels after clean-up
    double areaMm2 = -1;
    int branches = 0, junctions = 0, ends = 0; ///< its skeleton graph
    int widthClass = -1;
    bool exceedsLimit = false; ///< class width not below WidthClasses::tolerableMm (if set)
};

struct WidthClassTotals {
    std::string id;
    double fromMm = 0, toMm = -1; ///< toMm < 0: no upper limit
    int cracks = 0;               ///< cracks whose class (by MeasureOptions::classBy) is this
    int branches = 0;
    double lengthPx = 0; ///< total length of the branches of this class
    double lengthMm = -1;
};

struct MeasureTotals {
    int cracks = 0, branches = 0;
    double lengthPx = 0, lengthMm = -1;
    uint64_t areaPx = 0; ///< cracked area (mask pixels of the kept cracks)
    double areaMm2 = -1;
    double areaFraction = 0;   ///< cracked area / map area
    double densityMPerM2 = -1; ///< crack length (m) per m² of map, -1 without pixel size
};

struct MeasureResult {
    std::string mapPath;
    int width = 0, height = 0;
    double pixelSizeMm = 0;      ///< 0 when unknown
    std::string pixelSizeSource; ///< "option", "map", "scan" or "none"
    MeasureOptions options;      ///< as used
    std::string thinning;        ///< "guo-hall (opencv ximgproc)" or "guo-hall (fisura)"
    std::vector<Crack> cracks;
    /// Ordered by crack, then by the top-left corner of the branch's box.
    BranchList branches;
    MeasureTotals totals;
    int flaggedCracks = 0;                 ///< cracks with exceedsLimit
    std::vector<WidthClassTotals> classes; ///< one per WidthClasses id (empty without pixel size)
    /// Widths of all skeleton pixels (length-weighted histogram): bin k counts widths in
    /// [k, k+1) x widthHistogramBinPx.
    std::vector<uint64_t> widthHistogram;
    double widthHistogramBinPx = 0.25;
    std::string widthLayerPath; ///< the layer written, if any
    double seconds = 0;
};

/// Measure the cracks of `mapPath` (a map written by `infer`, or any 8-bit mask in TIFF, PNG,
/// JPEG or BMP; colour images use their brightest channel). Errors: NotFound, Corrupt or
/// Unsupported from reading the map or the scan; InvalidArgument for bad options or a scan
/// whose size differs from the map's (detail gives both sizes); Cancelled (checked every tile,
/// well within half a second). Progress: one step per tile.
Result<MeasureResult> measureCracks(const std::string& mapPath, const MeasureOptions& options = {},
                                    const CancelToken& cancel = {},
                                    ProgressSink* progress = nullptr);

/// The same on an image in memory (1 channel, or the brightest of several); pixel size from
/// options.pixelSizeMm only. For tests and small masks.
Result<MeasureResult> measureCracks(const Image& map, const MeasureOptions& options = {},
                                    const CancelToken& cancel = {},
                                    ProgressSink* progress = nullptr);

/// CSV, one row per crack (header first; lengths and widths in px and mm, class id).
std::string cracksCsv(const MeasureResult& result);
/// CSV, one row per branch.
std::string branchesCsv(const MeasureResult& result);
/// CSV of the scan: `key,value` rows (totals, pixel size, options, class limits and the note),
/// then one row per width class.
std::string scanCsv(const MeasureResult& result);
/// Everything as JSON: {"map", "width", "height", "pixel_size_mm", "options", "totals",
/// "classes", "class_note", "cracks": [...], "branches": [...], "width_histogram"}.
std::string toJson(const MeasureResult& result, int indent = 2);

/// Writes the crack CSV at `path`, plus `<stem>.branches.csv` and `<stem>.scan.csv` beside it
/// (each atomically; on failure none of them is left half-written).
Status writeMeasureCsv(const MeasureResult& result, const std::string& path);
/// The three files writeMeasureCsv(result, path) writes: `path` and its two siblings.
std::vector<std::string> measureCsvPaths(const std::string& path);
/// The smallest overlap margin (MeasureOptions::marginPx) a closing radius needs.
int minimumMarginPx(int closingRadiusPx);
/// Writes toJson(result) atomically.
Status writeMeasureJson(const MeasureResult& result, const std::string& path);

} // namespace fisura
