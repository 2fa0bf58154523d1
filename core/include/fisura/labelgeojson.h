// Label layers as GeoJSON that QuPath reads and writes, so labels move between Fisura and other
// tools: a FeatureCollection of Polygon features (holes as inner rings) and LineString features
// (centre lines with a width), each an annotation of one class:
//   {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [...]},
//    "properties": {"objectType": "annotation",
//                   "classification": {"name": "Crack", "color": [213, 94, 0]}}}
// (QuPath's GeoJSON: qupath.lib.io.GsonTools; "Export objects as GeoJSON" writes it and "Import
// objects" and drag-and-drop read it). Coordinates are image pixels, x right and y down from the
// top-left corner of the top-left pixel: pixel (i, j) is the square (i, j)-(i + 1, j + 1), as in
// QuPath, so polygons follow the pixel edges and a mask survives the round trip exactly.
//
// Export traces the crack pixels (non-zero) into polygons with GDAL's GDALPolygonize (pixels
// joined across edges, not corners: two pixels that touch diagonally are two polygons). Import
// fills every Polygon and MultiPolygon with GDAL's rasterizer (a pixel is inside when its centre
// is), whatever its class; a FeatureCollection, a single Feature or an array of Features (as
// QuPath writes without "FeatureCollection") are read.
//
// Lines with a width. Export (LabelShapes::Lines or Both) measures the mask as `measure` does
// (fisura/measure.h; no closing, nothing dropped) and writes each branch's centre line as a
// LineString annotation through the skeleton's pixel centres, with "width_px" (the branch's
// median width), "widths_px" (the width at each vertex), "length_px", "crack_id" and "branch_id"
// in its properties, and the width and length also as QuPath measurements
// {"width_px": w, "length_px": l}. Import draws every LineString and MultiLineString as the
// pixels whose centres lie within half the width of the line (GEOS's round-capped buffer through
// OGR, then the rasterizer: the same pixels as the label tool's polyline). The width of a line
// feature, the first of:
//   1. properties.width_px;
//   2. a measurement named "width_px" or "Width px" in properties.measurements (QuPath writes
//      measurements as an object {name: value}, older versions as a list of {name, value});
//   3. 1 px (QuPath's line annotations have no width).
// widths_px is written for other tools and not read back: the width at a blunt end of a crack is
// its end pixel's, far below the crack's, so the branch's median draws it closer.
// A width that is given but is not a number above 0 and up to kMaxLabelLineWidthPx is refused
// with the feature's index named. Lines do not round-trip exactly: centre lines are thinned and
// widths measured to about half a pixel (for drawn cracks 1 to 9 px wide the tests find IoU
// 0.96 to 0.99 along the axes, 0.76 to 0.92 at 30 degrees); polygons do.
//
// Whole masks are held in memory: these are for label masks of dataset images and tiles, up to
// readImage's 64 Mpx, not for gigapixel scans.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "fisura/image.h"
#include "fisura/status.h"

namespace fisura
{

/// What labelMaskToGeoJson writes: polygons along the pixel edges (exact), centre lines with
/// their width, or both.
enum class LabelShapes { Polygons, Lines, Both };

/// The widest line that import draws (px); a wider width is refused as absurd.
inline constexpr double kMaxLabelLineWidthPx = 1000;

struct LabelGeoJsonOptions {
    std::string className = "Crack";                    ///< classification.name
    std::array<uint8_t, 3> colour = {0xD5, 0x5E, 0x00}; ///< classification.color (RGB)
    LabelShapes shapes = LabelShapes::Polygons;
};

/// "polygons", "lines", "both" (stable, for the CLI and settings).
const char* labelShapesName(LabelShapes shapes);
/// The shapes of a name of labelShapesName; InvalidArgument for any other.
Result<LabelShapes> labelShapesFromName(const std::string& name);

/// The crack pixels of `mask` (one channel, or the first of several; non-zero = crack) as
/// GeoJSON text. InvalidArgument for an empty image; IoError when GDAL fails; for lines, the
/// errors of measureCracks.
Result<std::string> labelMaskToGeoJson(const Image& mask, const LabelGeoJsonOptions& options = {});

/// A mask of width x height (0 background, 255 crack) from GeoJSON text; `what` names the source
/// in messages. Errors: Corrupt (not JSON, too large or too deep, a geometry GDAL cannot read),
/// InvalidArgument (not a FeatureCollection, Feature or array of Features; a feature whose
/// geometry is not a Polygon, MultiPolygon, LineString or MultiLineString, that lies partly
/// outside the image, or whose line width is not a number in (0, kMaxLabelLineWidthPx]: the
/// detail names the feature by its index), InvalidArgument for a size that is not positive;
/// IoError when GDAL cannot buffer a line (a GDAL built without GEOS).
Result<Image> labelMaskFromGeoJson(const std::string& text, int width, int height,
                                   const std::string& what = "GeoJSON");

/// The mask file at `maskPath` (any image readImage reads) written as GeoJSON at `outPath`
/// (atomically). Errors of readImage, labelMaskToGeoJson and the write.
Status writeLabelGeoJson(const std::string& maskPath, const std::string& outPath,
                         const LabelGeoJsonOptions& options = {});

/// The same for a mask in memory (the label layer being edited).
Status writeLabelGeoJson(const Image& mask, const std::string& outPath,
                         const LabelGeoJsonOptions& options = {});

/// The GeoJSON file at `path` (at most 64 MiB) as a mask of width x height.
Result<Image> readLabelGeoJson(const std::string& path, int width, int height);

} // namespace fisura
