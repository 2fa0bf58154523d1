// Measured cracks as vector data for GIS and CAD: the centre line of every branch with its
// widths, length and width class, written through GDAL/OGR.
//
// Layers: "branches" (one LineString per branch), "cracks" (one MultiLineString per crack, the
// union of its branches) and "segments" (one LineString per width segment: a branch's centre
// line cut where its width class changes, with the widths along that piece, so that a GIS
// colours a crack along its length; see BranchSegment). GeoPackage holds all three; GeoJSON and
// Shapefile hold one layer per file, so the cracks go to "<stem>_cracks.<ext>" and the segments
// to "<stem>_segments.<ext>" beside the branches. DXF draws the segments, on one CAD layer per
// width class ("fisura_<class id>"); each centre line carries the segment's mean width as its
// lineweight (DXF group 370, hundredths of a millimetre: OGR's DXF writer in GDAL 3.6 writes a
// pen width there and has no polyline constant width), and an outline of the crack at that width
// (the centre line buffered by half the width) is drawn on "fisura_<class id>_outline" so that
// CAD shows the width to scale. The drawing's $INSUNITS says
// millimetres, metres (a projected CRS in metres) or unitless (pixels, other map units).
//
// Coordinates (CoordinateKind):
//  - Map: the scan (or the map) is georeferenced (a GeoTIFF geotransform): map coordinates in
//    its CRS, which is written into the file. GeoJSON follows RFC 7946 and is reprojected to
//    WGS 84 longitude / latitude.
//  - Millimetres: no georeference but a pixel size: x = column x pixel size, y = -row x pixel
//    size from the scan's top-left corner (y up, as GIS and CAD draw, so nothing is mirrored).
//  - Pixels: neither: the same in pixels.
// The file says which: metadata item FISURA_COORDINATES ("map", "mm" or "px") and a layer
// description; GeoJSON without a CRS is not RFC 7946 (local coordinates) and says so there.
//
// Fields (names of at most 10 characters, for Shapefile): crack_id, branch_id (branches and
// segments), segment_id (segments), branches (cracks), len_px, len_mm, w_mean_px, w_max_px,
// w_mean_mm, w_max_mm, w_class, over_limit (1 when not below the tolerable width of the standard in
// force). *_mm fields are null without a pixel size. Dataset metadata (GeoPackage; DESCRIPTION
// elsewhere): the map, the scan, the model, the threshold, the pixel size, the width-class preset
// and its limits.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "fisura/job.h"
#include "fisura/measure.h"
#include "fisura/status.h"

namespace fisura
{

struct ChangeResult; // fisura/change.h

enum class VectorFormat { GeoPackage, GeoJson, Shapefile, Dxf };

/// The format of an output path, from its extension (case-insensitive): .gpkg, .geojson or
/// .json, .shp, .dxf. Unsupported (detail names the extension and the ones known) otherwise.
Result<VectorFormat> vectorFormatFor(const std::string& path);
/// GDAL's driver name ("GPKG", "GeoJSON", "ESRI Shapefile", "DXF").
const char* vectorDriverName(VectorFormat format);

/// A raster's place on the ground, as GDAL reads it from a GeoTIFF (or any georeferenced raster).
struct Georeference {
    bool georeferenced = false; ///< a geotransform was found
    int width = 0, height = 0;  ///< of the raster, px
    /// GDAL's affine geotransform: X = g[0] + col g[1] + row g[2], Y = g[3] + col g[4] + row g[5],
    /// (col, row) measured from the top-left corner of the top-left pixel.
    std::array<double, 6> geoTransform{0, 1, 0, 0, 0, 1};
    std::string crsWkt;  ///< WKT2 of the CRS; empty when the file has none
    std::string crsName; ///< e.g. "ETRS89 / UTM zone 30N"
    std::string crsCode; ///< e.g. "EPSG:25830", empty when the CRS has no authority code
    /// Map units per pixel (the square root of the geotransform's determinant).
    double unitsPerPixel() const;
};

/// Reads the geotransform and CRS of a raster through GDAL (pixels are not read). A raster without
/// them gives georeferenced = false. NotFound; Unsupported when GDAL cannot open it.
Result<Georeference> readGeoreference(const std::string& path);

enum class CoordinateKind { Map, Millimetres, Pixels };
/// "map", "mm" or "px": the value of the FISURA_COORDINATES metadata item.
const char* coordinateKindName(CoordinateKind kind);

struct VectorExportOptions {
    /// The raster whose georeference places the cracks; empty: the measurement's scan
    /// (result.options.scanPath), else its map.
    std::string georeferencePath;
    std::string model; ///< the model that made the map (metadata only; may be empty)
};

struct VectorExportSummary {
    VectorFormat format = VectorFormat::GeoPackage;
    CoordinateKind coordinates = CoordinateKind::Pixels;
    std::string crsCode;            ///< of the written coordinates ("EPSG:4326" for GeoJSON)
    int branches = 0, cracks = 0;   ///< features written (DXF: no crack features)
    int segments = 0;               ///< width segments written
    std::vector<std::string> files; ///< the files written (main file first)
};

/// Writes the cracks of `result` at `path` in the format of its extension. Nothing is left
/// behind on failure: the files are written into a temporary folder beside `path` and moved into
/// place at the end. Errors: Unsupported (extension), InvalidArgument (the georeference raster's
/// size differs from the map's), IoError (the folder cannot be written, GDAL failed: detail
/// gives GDAL's message), NotFound (a georeference raster that does not exist).
Result<VectorExportSummary> exportCrackVectors(const MeasureResult& result, const std::string& path,
                                               const VectorExportOptions& options = {});

/// Colour of width class k in the crack overlay and the DXF layers: widthClassColour, opaque.
std::array<uint8_t, 4> overlayColour(const WidthClasses& classes, int k);

/// Writes the crack overlay for GIS: an RGBA GeoTIFF (GDAL's GTiff driver, 256 px tiles, DEFLATE)
/// on the map's grid, transparent except on crack pixels, which carry the colour of their width
/// class (overlayColour; one colour without a pixel size). Read from the width-class layer that
/// measureCracks wrote (result.widthLayerPath; InvalidArgument when there is none), 256 rows at a
/// time. Georeferenced like the scan when it is (options.georeferencePath as for vectors); else
/// without a geotransform. Written atomically; Cancelled between row bands.
Status writeCrackOverlay(const MeasureResult& result, const std::string& path,
                         const VectorExportOptions& options = {}, const CancelToken& cancel = {});

/// The same for a measurement made without a width-class layer (Inspect measures without one):
/// measures result.mapPath once more with result.options (and its pixel size) into a temporary
/// layer beside `path`, writes the overlay, and removes the layer, also on failure or
/// cancellation. With a layer, writeCrackOverlay. Progress: the measurement's tiles. Errors of
/// measureCracks and writeCrackOverlay.
Status writeCrackOverlayOfMap(const MeasureResult& result, const std::string& path,
                              const VectorExportOptions& options = {},
                              const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

/// The crack changes of a comparison of two dates (fisura/change.h) as vector data, on the
/// earlier scan's grid and placed as exportCrackVectors places result.before (give the earlier
/// scan as options.georeferencePath for map coordinates): one MultiLineString per change, the
/// centre lines of its later cracks (new, grown, unchanged) or of its earlier ones (gone,
/// outside), in one layer "changes" with the fields change (changeKindName), after_ids,
/// before_ids (comma-separated crack ids), len_px, len_mm, gain_px, gain_mm, w_chg_px, w_chg_mm,
/// w_max_px, w_max_mm and w_class (*_mm null without a pixel size). DXF: one CAD layer per kind
/// ("fisura_new", ...) in changeKindColour. The same formats, staging and errors as
/// exportCrackVectors; the summary counts changes as cracks and their lines as branches.
Result<VectorExportSummary> exportChangeVectors(const ChangeResult& result, const std::string& path,
                                                const VectorExportOptions& options = {});

} // namespace fisura
