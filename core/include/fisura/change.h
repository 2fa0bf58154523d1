// Inspections over time: register a later scan of a surface to an earlier one, bring the later
// crack map onto the earlier scan's grid, and say how each crack changed (new, grown, unchanged,
// gone).
//
// Alignment, with bounded memory on scans of any size:
//   coarse:  both scans read as overviews (a pyramid level when the TIFF has one, else a
//            streamed area reduction) of at most `overviewSide` px, illumination normalised
//            (CLAHE), ORB features matched with Lowe's ratio test and a robust fit (RANSAC) of a
//            similarity, affine or homography model;
//   refine:  at full resolution, a grid of windows over the overlap: each window of the later
//            scan is warped by the coarse model onto the earlier one and its remaining shift is
//            found by ECC (enhanced correlation coefficient, Evangelidis & Psarakis 2008), which
//            ignores brightness and contrast; the final model is fitted to those shifts;
//   field:   where the surface was not planar (a bulge, a sagging soffit) the windows' residual
//            shifts against that model vary smoothly: they become a correction field on the
//            window grid (outliers against their neighbours rejected, gaps filled), used when it
//            lowers the residual materially (AlignField::Auto).
// Georeferenced pairs (both GeoTIFFs in one CRS) start from their georeferencing: the coarse
// features are matched only where the georeferences say the scans overlap, plus a margin, so a
// small later scan of a large survey is matched at a finer overview. The georeference only
// chooses where to look: the features decide the model, and when they find nothing there the
// whole scans are matched (AlignStart::GeoreferenceRefuted), never the georeference trusted alone.
// The model maps pixel centres of the later ("after") scan to the earlier ("before") scan.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fisura/job.h"
#include "fisura/measure.h"
#include "fisura/status.h"

namespace fisura
{

enum class AlignModel { Auto, Similarity, Affine, Homography };
const char* alignModelName(AlignModel m); ///< "auto", "similarity", "affine", "homography"
/// The model named `name`; InvalidArgument otherwise.
Result<AlignModel> alignModelFromName(const std::string& name);

/// Whether a correction field on top of the model is fitted: Auto (when it lowers the residual
/// materially) or Off.
enum class AlignField { Auto, Off };
const char* alignFieldName(AlignField f); ///< "auto", "off"
/// The setting named `name`; InvalidArgument otherwise.
Result<AlignField> alignFieldFromName(const std::string& name);

/// Whether georeferenced pairs start from their georeferencing: Auto (when both scans have one in
/// the same CRS) or Off (always the whole scans).
enum class AlignGeoreference { Auto, Off };
const char* alignGeoreferenceName(AlignGeoreference g); ///< "auto", "off"
/// The setting named `name`; InvalidArgument otherwise.
Result<AlignGeoreference> alignGeoreferenceFromName(const std::string& name);

/// Where the coarse fit looked.
enum class AlignStart {
    Features,     ///< the whole scans (not both georeferenced, or AlignGeoreference::Off)
    Georeference, ///< only where the georeferences overlap, plus a margin
    /// the georeferences' region did not match (or they place the scans apart): whole scans
    GeoreferenceRefuted,
    /// both georeferenced, in different CRSs (Fisura does not reproject): whole scans
    GeoreferenceOtherCrs,
};
/// "features", "georeference", "georeference_refuted", "georeference_other_crs"
const char* alignStartName(AlignStart s);

struct AlignOptions {
    AlignModel model = AlignModel::Auto; ///< Auto: the simplest one the residuals do not refute
    AlignField field = AlignField::Auto; ///< a correction field where the surface is not planar
    AlignGeoreference georeference = AlignGeoreference::Auto; ///< georeferenced pairs' start
    int overviewSide = 2048;     ///< long side of the coarse overviews (256..8192)
    int features = 6000;         ///< ORB keypoints per overview
    double ratio = 0.8;          ///< Lowe's ratio test
    int minInliers = 20;         ///< fewer coarse inliers: AlignNotSameSurface
    int regionGrid = 3;          ///< residuals reported per region of a regionGrid^2 grid
    int windowsPerRegion = 3;    ///< refinement windows along each side of a region
    int windowPx = 256;          ///< refinement window edge at full resolution (64..2048)
    double minOverlap = 0.05;    ///< of the before scan's area; less: AlignNoOverlap
    double maxScaleChange = 4.0; ///< scales outside [1/x, x]: AlignDegenerateModel
    double maxAnisotropy = 1.5;  ///< ratio of the singular values (shear, squash)
    ImageLimits limits;          ///< what the scans may claim
};

/// Residual of the refined correspondences in one region of the before scan.
struct RegionResidual {
    int column = 0, row = 0; ///< in the regionGrid x regionGrid grid
    PixelBox box;            ///< before-scan pixels
    int count = 0;           ///< windows that matched here
    double rmsPx = -1;       ///< -1 when none did
};

/// A smooth correction of the model on a grid of nodes over the before scan: the after pixel of
/// before pixel p is model^-1(p + d(p)), d bilinear between the nodes (constant beyond them).
struct CorrectionField {
    bool used = false;          ///< applied by warpMapToBefore and afterPixelOf
    std::vector<double> xs, ys; ///< node columns and rows, before-scan px, increasing
    std::vector<double> dx, dy; ///< per node, row-major (ys.size() x xs.size()), before-scan px
    int nodes = 0;              ///< windows that measured a shift
    int rejected = 0;           ///< of them, outliers against their neighbours
    double maxPx = 0;           ///< the largest correction
    double rmsBeforePx = -1;    ///< the windows' shifts against the model alone (-1: not fitted)
    /// against model and field, each window predicted from its neighbours only (an upper bound)
    double rmsAfterPx = -1;
};

struct AlignResult {
    AlignModel model = AlignModel::Similarity; ///< the model used (never Auto)
    /// Row-major 3x3: after-scan pixel (x, y, 1) -> before-scan pixel (homogeneous).
    std::array<double, 9> matrix{1, 0, 0, 0, 1, 0, 0, 0, 1};
    int beforeWidth = 0, beforeHeight = 0, afterWidth = 0, afterHeight = 0;
    int matches = 0;        ///< coarse matches that passed the ratio test
    int inliers = 0;        ///< of them, consistent with the coarse model
    double coarseRmsPx = 0; ///< coarse inliers' residual, in full-resolution px
    int windows = 0;        ///< refinement windows tried
    int refined = 0;        ///< of them, matched and consistent with the final model
    double rmsPx = 0;       ///< refined correspondences against the final model (px)
    std::vector<RegionResidual> regions;
    double overlap = 0;                ///< fraction of the before scan the after scan covers
    double scale = 1, rotationDeg = 0; ///< of the final model's linear part (information)
    double coarseSeconds = 0, refineSeconds = 0;
    CorrectionField field; ///< fitted unless AlignOptions::field is Off; see field.used
    AlignStart start = AlignStart::Features; ///< where the coarse fit looked
    /// Both scans georeferenced in one CRS: how far (before-scan px) the georeferences place the
    /// after scan's centre from where the alignment does; -1 otherwise.
    double georeferenceOffsetPx = -1;
    /// The before scan's map units per pixel (for the offset in map units); 0 without one.
    double georeferenceUnitsPerPx = 0;
};

/// The after-scan pixel that before-scan pixel (x, y) shows: the model's inverse, after the
/// correction field when it is used. {x, y}.
std::array<double, 2> afterPixelOf(const AlignResult& alignment, double x, double y);

/// Scans with a side shorter than this cannot be aligned (AlignScanTooSmall): ORB finds no
/// features within its 31 px border.
inline constexpr int kMinAlignSidePx = 64;

/// Aligns the scan at `afterPath` to the scan at `beforePath` (any raster of fisura/raster.h).
/// Errors: the readers'; InvalidArgument for options out of range; why the scans could not be
/// aligned (the detail gives the numbers):
///   AlignScanTooSmall     a scan has a side shorter than kMinAlignSidePx
///   AlignNotSameSurface   too few coarse matches or inliers (AlignOptions::minInliers): the
///                         scans do not show the same surface
///   AlignDegenerateModel  the fitted scale, shear or perspective is out of range
///   AlignNoOverlap        the after scan covers less than AlignOptions::minOverlap of the before
///   AlignTooFewWindows    too few full-resolution refinement windows matched (blur, a surface
///                         that changed too much, or windows that leave the after scan)
/// Unsupported when Fisura was built without OpenCV's features2d, calib3d and video modules;
/// Cancelled (checked between steps and windows).
Result<AlignResult> alignScans(const std::string& beforePath, const std::string& afterPath,
                               const AlignOptions& options = {}, const CancelToken& cancel = {},
                               ProgressSink* progress = nullptr);

struct WarpMapOptions {
    bool nearest = false; ///< nearest neighbour (masks) instead of bilinear (probability maps)
    int tileSize = 512;
    double pixelSizeMm = 0; ///< > 0: resolution tags of the output (the before scan's)
    ImageLimits limits;
};

/// Writes the map at `afterMapPath` (the after scan's grid, 1 channel or the brightest of
/// several) resampled onto the before scan's grid (`alignment`), as a tiled pyramidal TIFF of
/// beforeWidth x beforeHeight at `outPath`, one output tile at a time (only the source window
/// under each tile is read). Outside the after map: 0. Written atomically. MapSizeMismatch when
/// the map is not the after scan's size.
Status warpMapToBefore(const std::string& afterMapPath, const AlignResult& alignment,
                       const std::string& outPath, const WarpMapOptions& options = {},
                       const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

enum class ChangeKind { New, Grown, Unchanged, Gone, Outside };
/// "new", "grown", "unchanged", "gone", "outside" (a before crack the after scan does not cover)
const char* changeKindName(ChangeKind k);
/// The colour a change is drawn in (vector files, and every view of changes), from Okabe and
/// Ito's colour-blind-safe palette: new vermillion #D55E00, grown orange #E69F00, unchanged blue
/// #0072B2, gone reddish purple #CC79A7, outside grey #999999.
std::array<uint8_t, 3> changeKindColour(ChangeKind k);

struct CompareOptions {
    MeasureOptions measure;      ///< how both maps are measured (pixel size, threshold, classes)
    double tolerancePx = 6;      ///< centre lines closer than this are the same crack
    double minLengthGainPx = 10; ///< less gained length is "unchanged" (measurement noise)
    double minWidthGainPx = 1.0; ///< less mean-width gain is "unchanged"
    double minCoveredFraction = 0.3; ///< a crack is matched when this much of it is near another
};

/// One crack's change: a crack of the after map, new, or compared with the before cracks it runs
/// along; linked cracks are compared as a group (a crack the later map shows in pieces, cracks
/// that grew together), lengths summed. Lengths and widths are on the before scan's grid (the after
/// map aligned); *Mm fields are -1 without a pixel size (a change may itself be -1 mm: test the
/// maps' pixel size, not the value).
struct CrackChange {
    ChangeKind kind = ChangeKind::Unchanged;
    int afterId = 0; ///< the (longest) after crack in the aligned map (0: gone or outside)
    std::vector<int> afterIds;  ///< every after crack of the change (a crack seen in pieces)
    std::vector<int> beforeIds; ///< matched before cracks (empty: new)
    double beforeLengthPx = 0, afterLengthPx = 0, lengthGainPx = 0, lengthGainMm = -1;
    double beforeWidthPx = 0, afterWidthPx = 0; ///< mean widths: area / length (of all for several)
    double widthChangePx = 0, widthChangeMm = -1;
    double afterMaxWidthPx = 0, afterMaxWidthMm = -1;
    int widthClass = -1; ///< of the after crack (of the before crack when gone or outside)
    PixelBox box;        ///< before-scan pixels
    /// The centre lines to draw the change by, in before-scan pixels (CentrePoint's convention,
    /// widths of the map they come from): the branches of the after cracks, of the before cracks
    /// when gone or outside. At most kMaxChangeLinePoints points in all: longer lines keep every
    /// n-th vertex (and their ends), so a change costs bounded memory on any scan.
    std::vector<std::vector<CentrePoint>> lines;
    /// Of a grown crack: the stretches of its after centre lines farther than the tolerance from
    /// every before crack (the part that grew; empty when it only widened). Bounded as `lines`.
    std::vector<std::vector<CentrePoint>> grownLines;
};

/// The most centre-line points one CrackChange keeps in `lines`, and in `grownLines`.
inline constexpr size_t kMaxChangeLinePoints = 512;

struct ChangeTotals {
    int count = 0;
    double lengthPx = 0, lengthMm = -1; ///< after length (before length for gone / outside)
};

struct ChangeResult {
    AlignResult alignment;
    MeasureResult before, after; ///< after: of the aligned map
    std::vector<CrackChange> changes;
    std::array<ChangeTotals, 5> totals; ///< indexed by ChangeKind
    /// [width class][ChangeKind] counts (empty without pixel size)
    std::vector<std::array<int, 5>> byWidthClass;
    int widestIndex = -1; ///< into changes: the widest crack after (max width), -1 when none
    std::string alignedMapPath;
    double compareSeconds = 0;
};

/// Matches the cracks of two maps on the same grid (the after map already aligned) and
/// classifies them. `alignment` is copied into the result (and decides which before cracks the
/// after scan covers).
Result<ChangeResult> compareCrackMaps(const std::string& beforeMap,
                                      const std::string& alignedAfterMap,
                                      const AlignResult& alignment, const CompareOptions& options,
                                      const CancelToken& cancel = {},
                                      ProgressSink* progress = nullptr);

/// Everything as JSON (C locale): {"alignment", "pixel_size_mm", "totals", "by_width_class",
/// "widest", "changes": [...]}.
std::string changeJson(const ChangeResult& result, int indent = 2);
/// CSV, one row per crack change (header first, C locale).
std::string changeCsv(const ChangeResult& result);
Status writeChangeJson(const ChangeResult& result, const std::string& path);
Status writeChangeCsv(const ChangeResult& result, const std::string& path);

} // namespace fisura
