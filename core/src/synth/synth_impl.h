// The pieces of the procedural scenes (internal): noise, surfaces, lighting and stains, line-like
// distractors, cracks and the camera's degradations. Everything works on float images in grey
// levels (0..255) and draws only from the cv::RNG it is given, so a scene is a function of its
// options and seed.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "fisura/synth.h"

namespace fisura::synth::detail
{

constexpr double kPi = 3.14159265358979323846;

/// Smooth noise at a given feature size: random values on a coarse grid, upsampled cubically.
cv::Mat noiseLayer(cv::RNG& rng, int w, int h, double featurePx, double amplitude);
/// Several octaves of noiseLayer, each half the feature size and `persistence` the amplitude.
cv::Mat fractalNoise(cv::RNG& rng, int w, int h, double featurePx, int octaves, double amplitude,
                     double persistence = 0.55);
/// Noise stretched along `angle` (radians): streaks `alongPx` long and `acrossPx` wide, as brush,
/// broom and wood-grain marks leave.
cv::Mat streakNoise(cv::RNG& rng, int w, int h, double alongPx, double acrossPx, double angle,
                    double amplitude);
/// Multiplies each channel of a CV_32FC3 image by a single-channel factor map.
void multiplyBy(cv::Mat& rgb, const cv::Mat& factor);
/// Adds a single-channel map to every channel of a CV_32FC3 image.
void addTo(cv::Mat& rgb, const cv::Mat& lum);

/// A realistic-style scene (synth_scene.cpp); the size and crack options are already checked.
Result<Scene> realisticScene(const SceneOptions& o);

/// The realistic surfaces (synth_surface.cpp): CV_32FC3 RGB in grey levels.
cv::Mat realisticSurface(cv::RNG& rng, const SceneOptions& o);

/// Lighting gradients, vignetting and cast shadows (strength 0..1), synth_light.cpp.
void applyLighting(cv::RNG& rng, double strength, cv::Mat& rgb);
/// Moisture, dirt, efflorescence and rust stains (amount 0..1), synth_light.cpp.
void applyStains(cv::RNG& rng, double amount, Surface surface, double scale, cv::Mat& rgb);

/// `count` line-like features that are not cracks (joints, formwork and slab edges, scratches,
/// wires, chalk lines, grooves, markings), synth_distractors.cpp. They never touch the mask.
void drawDistractors(cv::RNG& rng, int count, const SceneOptions& o, cv::Mat& rgb);

/// Realistic cracks (synth_crack.cpp): tapering, branching paths from hairline to wide, drawn
/// super-sampled. Darkens `rgb` and writes the mask (255 where a pixel is at least half
/// covered by a crack, and along every crack's centre line).
void drawRealisticCracks(cv::RNG& rng, const SceneOptions& o, cv::Mat& rgb, cv::Mat& mask);

/// Camera degradations (synth_camera.cpp): colour balance, blur, sensor noise, then JPEG-like
/// block artefacts. Returns the 8-bit RGB image.
cv::Mat applyCamera(cv::RNG& rng, const SceneOptions& o, const cv::Mat& rgb);
/// JPEG's lossy step on an 8-bit RGB image: YCbCr, 4:2:0 chroma, 8 x 8 DCT quantised with the
/// standard tables at `quality` (1..100), back to RGB.
cv::Mat jpegArtefacts(const cv::Mat& rgb8, int quality);

} // namespace fisura::synth::detail
