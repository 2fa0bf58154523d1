// Procedural crack scenes with exact masks: the built-in demo data and the test fixture.
// Deterministic: the same options and seed give the same pixels on every machine.
#pragma once

#include <cstdint>
#include <string>

#include "fisura/image.h"
#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura::synth
{

enum class Surface { Concrete, Asphalt, Masonry };

const char* surfaceName(Surface s);

/// How a scene looks.
///  Demo: flat multi-scale textures with dark cracks; fast (a 4096 px scan in a few seconds).
///        The demo dataset and the test fixtures use it; its pixels do not change.
///  Realistic: what the starter model is trained on: concrete (sand grain, pores and bugholes,
///        formwork boards, broom marks), asphalt (stones in binder, coarse to fine and worn) and
///        masonry (bricks or blocks in mortar joints); lighting gradients and cast shadows;
///        moisture, dirt and rust stains; line-like distractors that are not cracks; cracks
///        that taper and branch, from hairline to wide; blur, sensor noise and JPEG artefacts.
enum class SceneStyle { Demo, Realistic };

struct SceneOptions {
    int width = 256;
    int height = 256;
    uint64_t seed = 1;
    Surface surface = Surface::Concrete;
    int cracks = 1;          ///< main cracks (each may branch); 0 = crack-free
    double minWidthPx = 1.0; ///< crack width varies along the path within [min, max]
    double maxWidthPx = 4.0;
    double branchProbability = 0.35;
    SceneStyle style = SceneStyle::Demo;
    // Realistic style only (randomTrainingScene draws them all from a seed):
    double scale = 1.0;  ///< size of texture features (0.25..4; 0.5 = seen from twice as far)
    int distractors = 0; ///< joints, edges, scratches, cables, markings: never in the mask
    double stains = 0;   ///< 0..1: moisture, dirt and rust stains
    double lighting = 0; ///< 0..1: gradients, vignetting, cast shadows, colour of light
    double crackContrast = 1.0; ///< 0.05..1: how dark crack interiors get (hairlines are faint)
    double blurSigma = 0;       ///< px of defocus (or motion) blur
    double noiseSigma = 0;      ///< grey levels of sensor noise
    int jpegQuality = 0;        ///< 1..100: JPEG block artefacts at this quality; 0 = none
};

struct Scene {
    Image image; ///< RGB
    /// 1 channel, 255 = crack, 0 = background. Demo: exactly the pixels darkened as crack.
    /// Realistic: the pixels at least half covered by a crack plus every crack's centre line
    /// (all of them darkened); distractors are never crack.
    Image mask;
};

/// Generate one scene. Invalid sizes (<16 or > 16384 px a side) return InvalidArgument.
Result<Scene> generateScene(const SceneOptions& options);

/// A realistic scene's options drawn from `seed`, as the training-data writer uses them: the
/// surface, 0 to 4 cracks (about one scene in eight crack-free), widths from hairline (1 px) to
/// wide (14 px), distractors, stains, lighting, scale, blur, noise and JPEG quality.
SceneOptions randomTrainingScene(uint64_t seed, int width, int height);

struct DemoDatasetOptions {
    uint64_t seed = 2026;
    int segmentationImages = 48;   ///< images/ + masks/ pairs
    int classificationImages = 64; ///< per class, cracked/ and uncracked/
    int patchSize = 256;
    int scanSize = 4096; ///< one larger tiled TIFF scan for the viewer/inference; 0 = none
};

struct DemoDatasetSummary {
    std::string root;
    int segmentationPairs = 0;
    int cracked = 0;
    int uncracked = 0;
    std::string scanPath; ///< empty when no scan was written
};

/// Write the demo dataset under `dir`:
///   segmentation/images/*.tif, segmentation/masks/*.tif   (paired by stem)
///   classification/cracked/*.tif, classification/uncracked/*.tif
///   scan/demo_scan.tif (tiled, Deflate), manifest.json
/// Creates `dir` if needed; refuses a non-empty dir that is not a previous demo dataset.
/// Cancellation leaves no half-written file and returns Cancelled.
Result<DemoDatasetSummary> writeDemoDataset(const std::string& dir,
                                            const DemoDatasetOptions& options,
                                            const CancelToken& cancel = {},
                                            ProgressSink* progress = nullptr);

struct TrainingDataOptions {
    int count = 2000; ///< image/mask pairs
    int size = 256;   ///< edge of every (square) scene, 32..4096 px
    uint64_t seed = 1;
    int threads = 0; ///< 0 = every core
};

struct TrainingDataSummary {
    std::string root;
    int pairs = 0;
    int crackFree = 0;        ///< pairs with an empty mask
    double crackFraction = 0; ///< crack pixels over all pixels
    double seconds = 0;
};

/// Write `count` realistic scenes (randomTrainingScene of seed x 1000003 + i) as a segmentation
/// dataset: DIR/images/synth_NNNNNN.tif and DIR/masks/synth_NNNNNN.tif (Deflate TIFF, paired by
/// stem), plus DIR/manifest.json (generator "fisura-synth", seed, count, size). Scenes are made
/// on `threads` threads; the files are the same whatever the thread count. Refuses a non-empty
/// folder that is not such a dataset; cancellation leaves no half-written file (Cancelled).
Result<TrainingDataSummary> writeTrainingDataset(const std::string& dir,
                                                 const TrainingDataOptions& options,
                                                 const CancelToken& cancel = {},
                                                 ProgressSink* progress = nullptr);

} // namespace fisura::synth
