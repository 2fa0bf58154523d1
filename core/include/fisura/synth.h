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

struct SceneOptions {
    int width = 256;
    int height = 256;
    uint64_t seed = 1;
    Surface surface = Surface::Concrete;
    int cracks = 1;          ///< main cracks (each may branch); 0 = crack-free
    double minWidthPx = 1.0; ///< crack width varies along the path within [min, max]
    double maxWidthPx = 4.0;
    double branchProbability = 0.35;
};

struct Scene {
    Image image; ///< RGB
    Image mask;  ///< 1 channel, 255 = crack, 0 = background; exactly the pixels darkened as crack
};

/// Generate one scene. Invalid sizes (<16 or > 16384 px a side) return InvalidArgument.
Result<Scene> generateScene(const SceneOptions& options);

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

} // namespace fisura::synth
