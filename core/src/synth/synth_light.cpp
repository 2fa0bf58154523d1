// Light and dirt: gradients, vignetting and cast shadows with soft or hard edges; moisture
// patches, dirt, efflorescence and rust streaks. Multiplicative, as light and wetness act.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth::detail
{

namespace
{

/// A shadow cast across the image by something outside it: a region bounded by a straight or
/// wavy line (a wall, a beam, the photographer), its edge blurred by the light's size.
cv::Mat castShadow(cv::RNG& rng, int w, int h)
{
    cv::Mat region(h, w, CV_32F, cv::Scalar(0));
    const double a = rng.uniform(0.0, 2 * kPi);
    const cv::Point2d dir(std::cos(a), std::sin(a)), nrm(-dir.y, dir.x);
    const cv::Point2d c(rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h);
    const double reach = 2 * std::hypot(w, h);
    std::vector<cv::Point> pts;
    const int steps = 24;
    const double wave = rng.uniform(0.0, 1.0) < 0.5 ? 0.0 : rng.uniform(2.0, 0.08 * w);
    const double phase = rng.uniform(0.0, 2 * kPi), freq = rng.uniform(1.0, 4.0);
    for (int i = 0; i <= steps; ++i) {
        const double t = -reach / 2 + reach * i / steps;
        const double off = wave * std::sin(phase + freq * 2 * kPi * i / steps);
        const cv::Point2d p = c + dir * t + nrm * off;
        pts.emplace_back(int(p.x), int(p.y));
    }
    pts.emplace_back(int(c.x + dir.x * reach / 2 + nrm.x * reach),
                     int(c.y + dir.y * reach / 2 + nrm.y * reach));
    pts.emplace_back(int(c.x - dir.x * reach / 2 + nrm.x * reach),
                     int(c.y - dir.y * reach / 2 + nrm.y * reach));
    cv::fillPoly(region, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(1.0), cv::LINE_AA);
    const double soft =
        rng.uniform(0.0, 1.0) < 0.3 ? rng.uniform(0.3, 1.2) : rng.uniform(3.0, 25.0);
    cv::GaussianBlur(region, region, cv::Size(), soft);
    return region;
}

/// A soft mask of patches where fractal noise rises above a level: stains, damp areas.
cv::Mat patches(cv::RNG& rng, int w, int h, double featurePx, double cover, double soften)
{
    cv::Mat n = fractalNoise(rng, w, h, featurePx, 3, 1.0, 0.5);
    cv::Mat m = (n - (1.0 - 2.0 * cover)) * 1.5;
    cv::max(m, 0.0, m);
    cv::min(m, 1.0, m);
    if (soften > 0)
        cv::GaussianBlur(m, m, cv::Size(), soften);
    return m;
}

/// A streak running down from a point, fading out: rust or efflorescence from a crack or bolt.
cv::Mat streak(cv::RNG& rng, int w, int h, double scale)
{
    cv::Mat m(h, w, CV_32F, cv::Scalar(0));
    cv::Point2d p(rng.uniform(0.0, double(w)), rng.uniform(-0.2, 0.6) * h);
    double width = rng.uniform(3.0, 14.0) * scale, strength = 1.0;
    const double len = rng.uniform(0.3, 1.0) * h;
    for (double t = 0; t < len; t += 2.0) {
        const cv::Point2d q = p + cv::Point2d(rng.gaussian(0.6), 2.0);
        cv::line(m, p, q, cv::Scalar(strength), std::max(1, int(width)), cv::LINE_AA);
        p = q;
        width = std::max(1.0, width + rng.gaussian(0.4));
        strength *= 0.995;
    }
    cv::GaussianBlur(m, m, cv::Size(), 2.0 * scale);
    return m;
}

/// rgb = rgb * (1 - m) + rgb * colour * m: a patch that tints and darkens (or lightens).
void blend(cv::Mat& rgb, const cv::Mat& m, cv::Vec3f colour)
{
    std::vector<cv::Mat> ch;
    cv::split(rgb, ch);
    for (int k = 0; k < 3; ++k)
        ch[size_t(k)] = ch[size_t(k)].mul(1.0 + m * (colour[k] - 1.0));
    cv::merge(ch, rgb);
}

} // namespace

void applyLighting(cv::RNG& rng, double strength, cv::Mat& rgb)
{
    if (strength <= 0)
        return;
    const int w = rgb.cols, h = rgb.rows;
    cv::Mat f(h, w, CV_32F);
    const double a = rng.uniform(0.0, 2 * kPi), slope = strength * rng.uniform(-0.45, 0.45);
    const double vig = strength * rng.uniform(0.0, 0.35);
    const cv::Point2d vc(rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h);
    const double rmax = std::hypot(w, h) / 2;
    for (int y = 0; y < h; ++y) {
        float* o = f.ptr<float>(y);
        for (int x = 0; x < w; ++x) {
            const double u = ((x - w / 2.0) * std::cos(a) + (y - h / 2.0) * std::sin(a)) / w;
            const double r = std::hypot(x - vc.x, y - vc.y) / rmax;
            o[x] = float((1.0 + slope * u) * (1.0 - vig * r * r));
        }
    }
    cv::Mat low = noiseLayer(rng, w, h, std::max(w, h) / 2.0, 0.08 * strength);
    cv::exp(low, low);
    f = f.mul(low);
    if (rng.uniform(0.0, 1.0) < 0.45 * strength)
        f = f.mul(1.0 - castShadow(rng, w, h) * rng.uniform(0.25, 0.6));
    multiplyBy(rgb, f);
    // The light's colour: daylight, shade (blue) or lamps (warm).
    const cv::Vec3f light(float(1 + strength * rng.uniform(-0.08, 0.08)), 1.f,
                          float(1 + strength * rng.uniform(-0.1, 0.1)));
    std::vector<cv::Mat> ch;
    cv::split(rgb, ch);
    for (int k = 0; k < 3; ++k)
        ch[size_t(k)] *= light[k];
    cv::merge(ch, rgb);
}

void applyStains(cv::RNG& rng, double amount, Surface surface, double scale, cv::Mat& rgb)
{
    if (amount <= 0)
        return;
    const int w = rgb.cols, h = rgb.rows;
    if (rng.uniform(0.0, 1.0) < amount) { // damp: darker and a little more saturated
        const cv::Mat m = patches(rng, w, h, rng.uniform(40.0, 140.0) * scale,
                                  rng.uniform(0.1, 0.45), rng.uniform(4.0, 12.0) * scale);
        const float d = float(rng.uniform(0.65, 0.9));
        blend(rgb, m, {d * 0.98f, d, d * 1.02f});
    }
    if (rng.uniform(0.0, 1.0) < amount) { // dirt and organic growth
        const cv::Mat m = patches(rng, w, h, rng.uniform(8.0, 40.0) * scale, rng.uniform(0.05, 0.3),
                                  rng.uniform(1.5, 4.0) * scale);
        const float d = float(rng.uniform(0.6, 0.9));
        const bool green = rng.uniform(0.0, 1.0) < 0.2;
        blend(rgb, m,
              green ? cv::Vec3f(d * 0.96f, d, d * 0.92f) : cv::Vec3f(d * 1.02f, d, d * 0.95f));
    }
    if (surface != Surface::Asphalt && rng.uniform(0.0, 1.0) < 0.4 * amount) {
        const bool rust = rng.uniform(0.0, 1.0) < 0.5;
        const cv::Mat m = streak(rng, w, h, scale) * rng.uniform(0.3, 0.8);
        blend(rgb, m, rust ? cv::Vec3f(1.05f, 0.75f, 0.5f) : cv::Vec3f(1.25f, 1.25f, 1.22f));
    }
    if (surface == Surface::Asphalt && rng.uniform(0.0, 1.0) < 0.5 * amount) { // oil drips
        cv::Mat m(h, w, CV_32F, cv::Scalar(0));
        for (int i = rng.uniform(1, 6); i > 0; --i)
            cv::ellipse(m, cv::Point(rng.uniform(0, w), rng.uniform(0, h)),
                        cv::Size(rng.uniform(3, 25), rng.uniform(3, 18)), rng.uniform(0.0, 180.0),
                        0, 360, cv::Scalar(rng.uniform(0.3, 0.7)), cv::FILLED, cv::LINE_AA);
        cv::GaussianBlur(m, m, cv::Size(), 3.0);
        blend(rgb, m, {0.5f, 0.5f, 0.52f});
    }
}

} // namespace fisura::synth::detail
