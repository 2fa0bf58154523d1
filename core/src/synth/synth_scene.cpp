// A realistic scene from its parts (surface, stains, distractors, cracks, light, camera), and the
// distribution of scenes the training-data writer draws from.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth
{

namespace detail
{

Status checkRealistic(const SceneOptions& o)
{
    if (!(o.scale >= 0.25 && o.scale <= 4.0))
        return Status(ErrorCode::InvalidArgument, "scene scale must be 0.25..4");
    if (o.distractors < 0 || o.distractors > 100)
        return Status(ErrorCode::InvalidArgument, "distractors must be 0..100");
    if (!(o.stains >= 0 && o.stains <= 1) || !(o.lighting >= 0 && o.lighting <= 1) ||
        !(o.crackContrast >= 0.05 && o.crackContrast <= 1))
        return Status(ErrorCode::InvalidArgument,
                      "stains and lighting must be 0..1, crack contrast 0.05..1");
    if (!(o.blurSigma >= 0 && o.blurSigma <= 10) || !(o.noiseSigma >= 0 && o.noiseSigma <= 50))
        return Status(ErrorCode::InvalidArgument, "blur must be 0..10 px and noise 0..50");
    if (o.jpegQuality < 0 || o.jpegQuality > 100)
        return Status(ErrorCode::InvalidArgument, "JPEG quality must be 0..100");
    return Status::ok();
}

Result<Scene> realisticScene(const SceneOptions& o)
{
    if (Status s = checkRealistic(o); !s)
        return s;
    cv::RNG rng(o.seed * 0xD1B54A32D192ED03ull + 0x8BB84B93962EACC9ull);
    cv::Mat rgb = realisticSurface(rng, o);
    applyStains(rng, o.stains, o.surface, o.scale, rgb);
    drawDistractors(rng, o.distractors, o, rgb);
    cv::Mat mask;
    drawRealisticCracks(rng, o, rgb, mask);
    applyLighting(rng, o.lighting, rgb);
    const cv::Mat out = applyCamera(rng, o, rgb);
    Scene scene;
    scene.image = Image::make(o.width, o.height, 3);
    scene.mask = Image::make(o.width, o.height, 1);
    for (int y = 0; y < o.height; ++y) {
        std::copy_n(out.ptr<uint8_t>(y), scene.image.stride(), scene.image.row(y));
        std::copy_n(mask.ptr<uint8_t>(y), scene.mask.stride(), scene.mask.row(y));
    }
    return scene;
}

} // namespace detail

SceneOptions randomTrainingScene(uint64_t seed, int width, int height)
{
    cv::RNG rng(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull);
    SceneOptions o;
    o.style = SceneStyle::Realistic;
    o.width = width;
    o.height = height;
    o.seed = seed;
    const int s = rng.uniform(0, 100);
    o.surface = s < 45 ? Surface::Concrete : (s < 80 ? Surface::Asphalt : Surface::Masonry);
    const int c = rng.uniform(0, 100);
    o.cracks = c < 12 ? 0 : (c < 62 ? 1 : (c < 87 ? 2 : rng.uniform(3, 5)));
    // Widths: hairlines are what analysts miss and most real sets hold, so they come first.
    const int regime = rng.uniform(0, 100);
    if (regime < 40) {
        o.minWidthPx = rng.uniform(0.7, 1.0);
        o.maxWidthPx = rng.uniform(1.0, 2.2);
        // Faint, but never hidden in the texture: a label the pixels cannot show teaches
        // a model to imagine cracks. Coarse asphalt needs the darkest hairlines.
        o.crackContrast =
            o.surface == Surface::Asphalt ? rng.uniform(0.6, 0.9) : rng.uniform(0.4, 0.85);
    } else if (regime < 75) {
        o.minWidthPx = rng.uniform(1.0, 2.0);
        o.maxWidthPx = rng.uniform(2.0, 5.0);
        o.crackContrast = rng.uniform(0.45, 1.0);
    } else {
        o.minWidthPx = rng.uniform(1.5, 4.0);
        o.maxWidthPx = rng.uniform(5.0, 14.0);
        o.crackContrast = rng.uniform(0.6, 1.0);
    }
    o.branchProbability = rng.uniform(0.05, 0.7);
    o.scale = std::exp(rng.uniform(std::log(0.6), std::log(1.7)));
    // Crack-free scenes carry more distractors: the model must learn what is not a crack.
    o.distractors = rng.uniform(0, o.cracks == 0 ? 6 : 4);
    o.stains = rng.uniform(0.0, 1.0) < 0.6 ? rng.uniform(0.2, 1.0) : 0.0;
    o.lighting = rng.uniform(0.0, 1.0);
    // Blur takes a hairline's contrast: hairline scenes are blurred a little at most.
    const double maxBlur = o.maxWidthPx < 2.5 ? 0.7 : 1.4;
    o.blurSigma = rng.uniform(0.0, 1.0) < 0.4 ? 0.0 : rng.uniform(0.3, maxBlur);
    o.noiseSigma = rng.uniform(0.5, 6.0);
    o.jpegQuality = rng.uniform(0.0, 1.0) < 0.3 ? 0 : rng.uniform(35, 96);
    return o;
}

} // namespace fisura::synth
