// Noise fields the procedural surfaces are made of.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth::detail
{

cv::Mat noiseLayer(cv::RNG& rng, int w, int h, double featurePx, double amplitude)
{
    const int gw = std::max(2, static_cast<int>(std::ceil(w / featurePx)) + 1);
    const int gh = std::max(2, static_cast<int>(std::ceil(h / featurePx)) + 1);
    cv::Mat grid(gh, gw, CV_32F);
    rng.fill(grid, cv::RNG::NORMAL, 0.0, amplitude);
    cv::Mat up;
    cv::resize(grid, up, cv::Size(w, h), 0, 0,
               featurePx <= 1.0 ? cv::INTER_NEAREST : cv::INTER_CUBIC);
    return up;
}

cv::Mat fractalNoise(cv::RNG& rng, int w, int h, double featurePx, int octaves, double amplitude,
                     double persistence)
{
    cv::Mat sum = cv::Mat::zeros(h, w, CV_32F);
    double f = featurePx, a = amplitude;
    for (int i = 0; i < octaves && f >= 1.0; ++i) {
        sum += noiseLayer(rng, w, h, f, a);
        f /= 2.0;
        a *= persistence;
    }
    return sum;
}

cv::Mat streakNoise(cv::RNG& rng, int w, int h, double alongPx, double acrossPx, double angle,
                    double amplitude)
{
    // Drawn axis-aligned on a square that covers the image at any angle, then rotated.
    const int d = int(std::ceil(std::hypot(w, h))) + 2;
    const int gw = std::max(2, int(std::ceil(d / std::max(1.0, alongPx))) + 1);
    const int gh = std::max(2, int(std::ceil(d / std::max(1.0, acrossPx))) + 1);
    cv::Mat grid(gh, gw, CV_32F);
    rng.fill(grid, cv::RNG::NORMAL, 0.0, amplitude);
    cv::Mat streaks;
    cv::resize(grid, streaks, cv::Size(d, d), 0, 0, cv::INTER_CUBIC);
    const cv::Mat rot =
        cv::getRotationMatrix2D(cv::Point2f(d / 2.f, d / 2.f), angle * 180.0 / kPi, 1.0);
    cv::Mat turned;
    cv::warpAffine(streaks, turned, rot, cv::Size(d, d), cv::INTER_LINEAR, cv::BORDER_REFLECT);
    return turned(cv::Rect((d - w) / 2, (d - h) / 2, w, h)).clone();
}

void multiplyBy(cv::Mat& rgb, const cv::Mat& factor)
{
    cv::Mat f3;
    cv::merge(std::vector<cv::Mat>{factor, factor, factor}, f3);
    cv::multiply(rgb, f3, rgb);
}

void addTo(cv::Mat& rgb, const cv::Mat& lum)
{
    cv::Mat l3;
    cv::merge(std::vector<cv::Mat>{lum, lum, lum}, l3);
    rgb += l3;
}

} // namespace fisura::synth::detail
