// Checking a map against a ground-truth mask, with a pixel tolerance as crack-detection papers
// score (a predicted pixel within `tolerance` px of a crack pixel counts as correct, and a crack
// pixel with a prediction within `tolerance` px counts as found).
//
// One pass over the two images, band by band, collects three 256-bin histograms; from them the
// counts at EVERY threshold follow without reading the images again, so a threshold slider
// updates precision, recall, F1 and IoU at once. Memory depends on the image width, the band
// height and the tolerance, never the image height: about (map channels + 8) bytes per pixel of
// a band of width x (bandRows + 2 x tolerance), a decoded-block cache of about a band plus two
// block rows per TIFF input, and the layer writers' few tile rows (for a 40k-wide RGB map with
// the defaults, roughly 0.5 GB). A PNG/JPEG input cannot be read by region and is decoded
// whole (up to 64 Mpx).
//
// The same pass can write three comparison layers (tiled pyramidal TIFFs with the map's size)
// whose values make the true/false-positive colouring a pure lookup-table threshold in a viewer:
//   tp layer: the map value on predicted-area pixels within tolerance of the truth, else 0
//             -> a true positive at threshold t where value >= t
//   fp layer: the map value on pixels farther than tolerance from the truth, else 0
//             -> a false positive at threshold t where value >= t
//   fn layer: on crack pixels of the truth, 255 - (largest map value within tolerance), else 0
//             -> a false negative (missed crack) at threshold t where value >= 256 - t
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/job.h"
#include "fisura/status.h"
#include "fisura/tiledimage.h"

namespace fisura
{

struct ScoreOptions {
    int tolerance = 2;      ///< px, 0..32 (Euclidean disk)
    int truthThreshold = 1; ///< truth pixels at or above this value are crack (masks: 0/255)
    /// When not empty, write the comparison layers as <prefix>.tp.tif, <prefix>.fp.tif and
    /// <prefix>.fn.tif (atomically; none is left on failure or cancellation).
    std::string layersPrefix;
    int bandRows = 512; ///< rows processed at once (plus 2 x tolerance of margin)
    /// What the map and truth read may claim (pixels, pixels per byte): see ImageLimits.
    /// (CLI: --max-pixels, --max-pixels-per-byte)
    ImageLimits limits;
};

/// The comparison layers written for `layersPrefix`: <prefix>.tp.tif, .fp.tif, .fn.tif.
std::vector<std::string> scoreLayerPaths(const std::string& layersPrefix);

/// Counts at one threshold (prediction = map value >= threshold).
struct ScoreCounts {
    int threshold = 128;
    uint64_t truePositives = 0;  ///< predicted pixels within tolerance of the truth
    uint64_t falsePositives = 0; ///< predicted pixels farther than tolerance from the truth
    uint64_t falseNegatives = 0; ///< truth pixels with no prediction within tolerance
    uint64_t truthPixels = 0;
    uint64_t predictedPixels = 0;
    double precision = 0; ///< TP / predicted (1 when nothing is predicted)
    double recall = 0;    ///< (truth - FN) / truth (1 when the truth is empty)
    double f1 = 0;
    double iou = 0; ///< TP / (TP + FP + FN)
};

struct ScoreCurve {
    std::string mapPath, truthPath;
    int width = 0, height = 0;
    int tolerance = 0;
    /// Over all pixels: how many have map value v.
    std::array<uint64_t, 256> mapHistogram{};
    /// Over pixels within tolerance of a truth pixel: how many have map value v.
    std::array<uint64_t, 256> nearTruthHistogram{};
    /// Over truth pixels: how many have v as the largest map value within tolerance.
    std::array<uint64_t, 256> truthNeighbourMaxHistogram{};
    uint64_t truthPixels = 0;
    /// The comparison layers, when written.
    std::string tpPath, fpPath, fnPath;
    double seconds = 0;

    ScoreCounts at(int threshold) const;
    /// Threshold (1..255) with the highest F1.
    int bestThreshold() const;
};

/// Compare `mapPath` (any image Fisura reads; 8-bit values, 255 = certain crack; of a
/// multi-channel map the first channel) with the mask `truthPath` of the same size (TIFF or
/// PNG; of a colour mask the largest colour channel). Progress is reported per band; a
/// cancellation is honoured between bands. InvalidArgument when the sizes differ (detail
/// gives both), NotFound / Corrupt / Unsupported from reading, Cancelled on cancellation.
Result<ScoreCurve> scoreMap(const std::string& mapPath, const std::string& truthPath,
                            const ScoreOptions& options = {}, const CancelToken& cancel = {},
                            ProgressSink* progress = nullptr);

/// The same curve for two images already in memory (a map from TiledInference::runImage, a mask
/// from readImage), with the same tolerance matching. `map`: 1 channel; `truth`: any channel
/// count (a colour mask counts its largest colour channel), the same size. layersPrefix and
/// bandRows do not apply. InvalidArgument when the sizes or the map's channels differ.
Result<ScoreCurve> scoreImages(const Image& map, const Image& truth,
                               const ScoreOptions& options = {});

/// {"map":..., "truth":..., "tolerance":..., "threshold":..., "precision":..., ...}
std::string toJson(const ScoreCurve& curve, int threshold, int indent = 2);

} // namespace fisura
