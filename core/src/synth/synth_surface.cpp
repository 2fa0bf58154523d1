// Realistic surfaces: concrete (sand grain, pores and bugholes, formwork boards, broom or brush
// finish), asphalt (stones in a dark binder, from coarse chippings to a fine worn surface) and
// masonry (bricks or blocks of varying tone in mortar joints). Sizes follow SceneOptions::scale.
#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth::detail
{

namespace
{

/// A tint for a grey luminance: colours of real concrete, asphalt and brick photographs.
cv::Vec3f pick(cv::RNG& rng, const std::vector<cv::Vec3f>& palette, float jitter)
{
    cv::Vec3f c = palette[size_t(rng.uniform(0, int(palette.size())))];
    for (int k = 0; k < 3; ++k)
        c[k] *= float(1.0 + rng.uniform(-jitter, jitter));
    return c;
}

/// Relief: the luminance read as a height field and lit from one side (bright stones stand
/// out, pores sink in), so grains and stones get a lit and a shaded edge as in photographs.
void relief(cv::RNG& rng, cv::Mat& lum, double scale, double strength)
{
    cv::Mat h, gx, gy;
    cv::GaussianBlur(lum, h, cv::Size(), std::max(0.5, 0.7 * scale));
    cv::Sobel(h, gx, CV_32F, 1, 0, 3, 1.0 / 8);
    cv::Sobel(h, gy, CV_32F, 0, 1, 3, 1.0 / 8);
    const double a = rng.uniform(0.0, 2 * kPi);
    cv::Mat shade = gx * std::cos(a) + gy * std::sin(a);
    lum += shade * strength;
}

cv::Mat tinted(const cv::Mat& lum, cv::Vec3f tint)
{
    std::vector<cv::Mat> ch(3);
    for (int k = 0; k < 3; ++k)
        ch[size_t(k)] = lum * tint[k];
    cv::Mat rgb;
    cv::merge(ch, rgb);
    return rgb;
}

/// An irregular blob: a circle whose radius wobbles, for pores, stones and chips.
std::vector<cv::Point> blob(cv::RNG& rng, cv::Point2d c, double r, double wobble, double aspect,
                            double angle)
{
    const int n = std::clamp(int(r * 3) + 5, 5, 14);
    std::vector<cv::Point> pts;
    const double ca = std::cos(angle), sa = std::sin(angle);
    for (int i = 0; i < n; ++i) {
        const double t = 2 * kPi * i / n;
        const double rr = r * (1.0 + rng.uniform(-wobble, wobble));
        const double x = rr * std::cos(t), y = rr * aspect * std::sin(t);
        pts.emplace_back(int(std::lround(4 * (c.x + ca * x - sa * y))),
                         int(std::lround(4 * (c.y + sa * x + ca * y))));
    }
    return pts;
}

/// Fills a blob with sub-pixel precision (shift 2: coordinates in quarter pixels).
void fillBlob(cv::Mat& lum, const std::vector<cv::Point>& pts, double value)
{
    const cv::Point* p = pts.data();
    const int n = int(pts.size());
    cv::fillPoly(lum, &p, &n, 1, cv::Scalar(value), cv::LINE_AA, 2);
}

/// Air pores and bugholes: dark specks, now and then a larger void with a lit lower rim.
void pores(cv::RNG& rng, cv::Mat& lum, double base, double scale, double density)
{
    const int w = lum.cols, h = lum.rows;
    const int count = int(w * h * density / (scale * scale));
    for (int i = 0; i < count; ++i) {
        const double r =
            scale * (rng.uniform(0.0, 1.0) < 0.08 ? rng.uniform(2.5, 6.0) : rng.uniform(0.6, 2.2));
        const cv::Point2d c(rng.uniform(0.0, double(w)), rng.uniform(0.0, double(h)));
        const double dark = base * rng.uniform(0.35, 0.8);
        if (r > 3)
            fillBlob(lum, blob(rng, c + cv::Point2d(0, 0.25 * r), r, 0.35, 0.8, 0),
                     std::min(250.0, base * 1.12));
        fillBlob(lum, blob(rng, c, r, 0.35, rng.uniform(0.6, 1.0), rng.uniform(0.0, kPi)), dark);
    }
}

cv::Mat concrete(cv::RNG& rng, int w, int h, double s)
{
    const double base = rng.uniform(110.0, 205.0);
    cv::Mat lum(h, w, CV_32F, cv::Scalar(base));
    lum += fractalNoise(rng, w, h, 110 * s, 4, rng.uniform(5.0, 14.0));
    lum += noiseLayer(rng, w, h, 1, rng.uniform(2.0, 6.0));
    lum += noiseLayer(rng, w, h, 1.6 * s, rng.uniform(2.0, 7.0)); // sand grain
    if (rng.uniform(0.0, 1.0) < 0.35) { // formwork: boards leave bands and their wood grain
        const double angle = (rng.uniform(0, 2) ? 0.0 : kPi / 2) + rng.gaussian(0.03);
        lum += streakNoise(rng, w, h, rng.uniform(40.0, 160.0) * s, rng.uniform(2.0, 6.0) * s,
                           angle, rng.uniform(2.0, 6.0));
        const double board = rng.uniform(60.0, 220.0) * s;
        cv::Mat bands(h, w, CV_32F, cv::Scalar(0));
        const cv::Point2d dir(std::cos(angle), std::sin(angle)), nrm(-dir.y, dir.x);
        const double reach = std::hypot(w, h);
        for (double t = rng.uniform(0.0, board) - reach; t < reach; t += board) {
            const cv::Point2d c = cv::Point2d(w / 2.0, h / 2.0) + nrm * t;
            cv::line(bands, c - dir * reach, c + dir * reach, cv::Scalar(rng.uniform(-9.0, 9.0)),
                     int(board), cv::LINE_8);
        }
        cv::GaussianBlur(bands, bands, cv::Size(), 0.8);
        lum += bands;
    }
    if (rng.uniform(0.0, 1.0) < 0.3) // broom or brush finish
        lum += streakNoise(rng, w, h, rng.uniform(30.0, 200.0) * s, rng.uniform(1.2, 2.5) * s,
                           rng.uniform(0.0, kPi), rng.uniform(3.0, 9.0));
    pores(rng, lum, base, s, rng.uniform(1.0 / 6000, 1.0 / 900));
    relief(rng, lum, s, rng.uniform(0.8, 2.0));
    const std::vector<cv::Vec3f> palette{
        {1.0f, 1.0f, 1.0f}, {1.04f, 1.0f, 0.93f}, {0.96f, 0.99f, 1.05f}, {1.02f, 1.0f, 0.96f}};
    return tinted(lum, pick(rng, palette, 0.03f));
}

cv::Mat asphalt(cv::RNG& rng, int w, int h, double s)
{
    const bool worn = rng.uniform(0.0, 1.0) < 0.4; // fine, light grey, as on older roads
    const double binder = worn ? rng.uniform(95.0, 145.0) : rng.uniform(40.0, 100.0);
    cv::Mat lum(h, w, CV_32F, cv::Scalar(binder));
    lum += fractalNoise(rng, w, h, 70 * s, 3, rng.uniform(4.0, 9.0));
    lum += noiseLayer(rng, w, h, 1, rng.uniform(5.0, 13.0));
    const double sizeLo = worn ? 0.6 : 1.2, sizeHi = worn ? 2.2 : rng.uniform(3.0, 7.0);
    const double mean = (sizeLo + sizeHi) / 2 * s;
    const int stones = int(w * h * rng.uniform(0.25, 0.6) / (kPi * mean * mean));
    for (int i = 0; i < stones; ++i) {
        const double r = s * rng.uniform(sizeLo, sizeHi);
        const cv::Point2d c(rng.uniform(0.0, double(w)), rng.uniform(0.0, double(h)));
        const double tone = binder + (rng.uniform(0.0, 1.0) < 0.8 ? rng.uniform(10.0, 95.0)
                                                                  : rng.uniform(-30.0, 5.0));
        const double a = rng.uniform(0.0, kPi), aspect = rng.uniform(0.55, 1.0);
        fillBlob(lum, blob(rng, c + cv::Point2d(0.3 * r, 0.3 * r), r, 0.3, aspect, a),
                 binder * 0.7); // the shadow under the stone
        fillBlob(lum, blob(rng, c, r, 0.3, aspect, a), tone);
    }
    cv::GaussianBlur(lum, lum, cv::Size(), 0.55);
    relief(rng, lum, s, rng.uniform(1.5, 3.5));
    lum += noiseLayer(rng, w, h, 1, 4.0);
    const std::vector<cv::Vec3f> palette{
        {1.0f, 1.0f, 1.0f}, {0.96f, 0.99f, 1.06f}, {1.03f, 1.0f, 0.95f}, {0.97f, 1.0f, 1.02f}};
    return tinted(lum, pick(rng, palette, 0.03f));
}

/// One brick or block: its own tone, texture and chipped corners.
void unit(cv::RNG& rng, cv::Mat& rgb, const cv::Rect& r, cv::Vec3f colour, double s)
{
    const cv::Rect inside = r & cv::Rect(0, 0, rgb.cols, rgb.rows);
    if (inside.empty())
        return;
    cv::Mat lum(inside.size(), CV_32F, cv::Scalar(1.0));
    lum += noiseLayer(rng, inside.width, inside.height, 14 * s, 0.06);
    lum += noiseLayer(rng, inside.width, inside.height, 1, 0.04);
    cv::Mat mask(inside.size(), CV_8U, cv::Scalar(255));
    for (int k = 0; k < 4; ++k) { // chips at the corners
        if (rng.uniform(0.0, 1.0) > 0.35)
            continue;
        const cv::Point2d c((k & 1) ? r.width : 0, (k & 2) ? r.height : 0);
        const cv::Point2d at = c - cv::Point2d(inside.x - r.x, inside.y - r.y);
        fillBlob(mask, blob(rng, at, rng.uniform(1.5, 5.0) * s, 0.4, 1.0, 0), 0);
    }
    std::vector<cv::Mat> ch(3);
    for (int k = 0; k < 3; ++k)
        ch[size_t(k)] = lum * colour[k];
    cv::Mat block;
    cv::merge(ch, block);
    block.copyTo(rgb(inside), mask);
}

cv::Mat masonry(cv::RNG& rng, int w, int h, double s)
{
    const bool blocks = rng.uniform(0.0, 1.0) < 0.3; // concrete or stone blocks, else bricks
    const int course =
        std::max(10, int(rng.uniform(blocks ? 45.0 : 22.0, blocks ? 90.0 : 45.0) * s));
    const int length = int(course * (blocks ? rng.uniform(1.2, 2.2) : rng.uniform(2.0, 3.4)));
    const int joint = std::max(1, int(std::lround(rng.uniform(1.5, 5.0) * s)));
    const double mortar = rng.uniform(90.0, 200.0);
    cv::Mat lum(h, w, CV_32F, cv::Scalar(mortar));
    lum += noiseLayer(rng, w, h, 1.5, 10.0);
    cv::Mat rgb = tinted(lum, {1.0f, 0.98f, 0.94f});
    const std::vector<cv::Vec3f> bricks{{175.f, 95.f, 70.f},   {150.f, 80.f, 60.f},
                                        {190.f, 130.f, 95.f},  {120.f, 70.f, 55.f},
                                        {200.f, 170.f, 120.f}, {160.f, 155.f, 150.f}};
    const std::vector<cv::Vec3f> stones{
        {165.f, 160.f, 150.f}, {140.f, 138.f, 135.f}, {185.f, 175.f, 155.f}};
    const cv::Vec3f wall = pick(rng, blocks ? stones : bricks, 0.08f);
    const int offset = rng.uniform(0, 2) ? length / 2 : length / 3;
    for (int y = -rng.uniform(0, course), row = 0; y < h; y += course, ++row) {
        for (int x = -((row * offset) % length) - rng.uniform(0, 4); x < w; x += length) {
            cv::Vec3f c = wall * float(rng.uniform(0.8, 1.15));
            unit(rng, rgb, cv::Rect(x + joint, y + joint, length - joint, course - joint), c, s);
        }
    }
    // Joints recessed: the upper edge of each brick casts a thin shadow into the joint below it.
    cv::Mat shade(h, w, CV_32F, cv::Scalar(1.0));
    shade += noiseLayer(rng, w, h, 40 * s, 0.05);
    multiplyBy(rgb, shade);
    const double angle = rng.gaussian(1.5); // a wall is rarely photographed perfectly level
    const cv::Mat rot = cv::getRotationMatrix2D(cv::Point2f(w / 2.f, h / 2.f), angle, 1.0);
    cv::warpAffine(rgb, rgb, rot, rgb.size(), cv::INTER_LINEAR, cv::BORDER_REFLECT);
    return rgb;
}

} // namespace

cv::Mat realisticSurface(cv::RNG& rng, const SceneOptions& o)
{
    const double s = std::clamp(o.scale, 0.25, 4.0);
    switch (o.surface) {
    case Surface::Asphalt:
        return asphalt(rng, o.width, o.height, s);
    case Surface::Masonry:
        return masonry(rng, o.width, o.height, s);
    case Surface::Concrete:
        break;
    }
    return concrete(rng, o.width, o.height, s);
}

} // namespace fisura::synth::detail
