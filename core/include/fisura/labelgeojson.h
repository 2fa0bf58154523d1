// Label layers as GeoJSON that QuPath reads and writes, so labels move between Fisura and other
// tools: a FeatureCollection of Polygon features (holes as inner rings), each an annotation of
// one class:
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

struct LabelGeoJsonOptions {
    std::string className = "Crack";                    ///< classification.name
    std::array<uint8_t, 3> colour = {0xD5, 0x5E, 0x00}; ///< classification.color (RGB)
};

/// The crack pixels of `mask` (one channel, or the first of several; non-zero = crack) as
/// GeoJSON text. InvalidArgument for an empty image; IoError when GDAL fails.
Result<std::string> labelMaskToGeoJson(const Image& mask, const LabelGeoJsonOptions& options = {});

/// A mask of width x height (0 background, 255 crack) from GeoJSON text; `what` names the source
/// in messages. Errors: Corrupt (not JSON, too large or too deep, a geometry GDAL cannot read),
/// InvalidArgument (not a FeatureCollection, Feature or array of Features; a feature whose
/// geometry is not a Polygon or MultiPolygon, or that lies partly outside the image: the detail
/// names the feature by its index), InvalidArgument for a size that is not positive.
Result<Image> labelMaskFromGeoJson(const std::string& text, int width, int height,
                                   const std::string& what = "GeoJSON");

/// The mask file at `maskPath` (any image readImage reads) written as GeoJSON at `outPath`
/// (atomically). Errors of readImage, labelMaskToGeoJson and the write.
Status writeLabelGeoJson(const std::string& maskPath, const std::string& outPath,
                         const LabelGeoJsonOptions& options = {});

/// The GeoJSON file at `path` (at most 64 MiB) as a mask of width x height.
Result<Image> readLabelGeoJson(const std::string& path, int width, int height);

} // namespace fisura
